/**
 * Private copies of the files `upload_file` hands to Chromium. Chromium reads an uploaded file
 * by its path, whenever the page reads it (a `File` is read lazily): a workspace file swapped
 * for a link after the path guard checked it would be read through the link. So browxai
 * copies each file, from the file the guard opened, into a folder of its own outside the
 * workspace (`Deno.makeTempDir`, mode 0700) and hands Chromium the copy; the copies go when
 * the session closes.
 *
 * @module
 */
import { join } from "node:path";
import type { SafeOpenFile } from "../../storage/safe_fs.ts";
import type { BrowserSession } from "./browser_session.ts";
import { SessionSlot } from "./session_slots.ts";

/** The session's folder of copies (made on its first upload). */
const FOLDER = new SessionSlot<Promise<string>>("upload copies folder");
let seq = 0;

/**
 * Copies an open file (as the guard opened it) to a new private file named `name`, for
 * `session`; the copy keeps the original's modification time.
 *
 * @returns The copy's absolute path.
 */
export async function copyForUpload(
  session: BrowserSession,
  file: SafeOpenFile,
  name: string,
): Promise<string> {
  let folder = session.slots.get(FOLDER);
  if (!folder) {
    folder = Deno.makeTempDir({ prefix: "browxai-uploads-" });
    session.slots.set(FOLDER, folder);
  }
  // One folder per copy: the page sees the file's own name, and names never collide.
  const dir = join(await folder, String(++seq));
  await Deno.mkdir(dir, { mode: 0o700 });
  const path = join(dir, name);
  const out = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  try {
    const chunk = new Uint8Array(1024 * 1024);
    for (let at = 0;;) {
      const { bytesRead } = await file.handle.read(chunk, 0, chunk.length, at);
      if (bytesRead === 0) break;
      let written = 0;
      while (written < bytesRead) {
        written += await out.write(chunk.subarray(written, bytesRead));
      }
      at += bytesRead;
    }
  } finally {
    out.close();
  }
  await Deno.utime(path, new Date(), file.mtime).catch(() => {});
  return path;
}

/** Removes a session's upload copies (it closed). */
export async function removeUploadCopies(session: BrowserSession): Promise<void> {
  const folder = session.slots.get(FOLDER);
  if (!folder) return;
  session.slots.delete(FOLDER);
  await Deno.remove(await folder, { recursive: true }).catch(() => {});
}
