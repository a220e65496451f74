/**
 * The path guard's file-system part: the one way browxai opens, writes, lists and removes a
 * file or folder for the agent (artifacts, auth states, storage-state dumps, downloads,
 * profiles, uploads). The path is first checked by its text
 * (`policy/path_guard.ts`: no `..`, nothing outside, nothing reserved); then:
 *
 * - **No link, checked as it is opened.** Every folder from the workspace root down is opened
 *   with `O_DIRECTORY | O_NOFOLLOW`, each one *inside the folder opened before it* (on Linux
 *   through `/proc/self/fd/<fd>/<name>`, which is `openat`: the kernel uses the open folder,
 *   never the path again), and the file itself with `O_NOFOLLOW`. A symlink at any component
 *   is refused (`symlink`), and swapping one in after a check changes nothing: there is no
 *   check apart from the open. On systems without `/proc/self/fd` (macOS) the folders are
 *   checked with `lstat` one by one before use (a swap in that instant is not covered there).
 * - **No hard link read.** A file read for the agent must have one name (`nlink` 1, read from
 *   the open file): a second name would make a file outside the workspace, or a reserved one,
 *   readable under an innocent name (`hard-link`). Only regular files are read (a FIFO or a
 *   device is `not-a-file`; opened with `O_NONBLOCK` so a FIFO cannot hang the call).
 * - **Atomic, owner-only writes.** A file is written to a new temp file (`O_CREAT | O_EXCL`,
 *   mode 0600) in its folder, then renamed over the name: a reader never sees half a file,
 *   and a hard link or symlink planted at the name is replaced, never written through.
 *   Folders are created mode 0700.
 *
 * Errors of the guard are {@link PathGuardError}s with a message that says what to do; other
 * file-system errors are thrown as they are.
 *
 * @module
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import { join } from "node:path";
import { PathGuardError, showPath } from "../policy/path_guard.ts";
import { refuseAlias } from "./reserved_ids.ts";
import {
  check,
  componentError,
  type DirHandle,
  errno,
  openDir,
  type SafeTarget,
} from "./safe_dir.ts";

export { type SafeTarget, setPinnedFolders } from "./safe_dir.ts";

const C = fs.constants;

/** A regular file's facts. `mtime`: last write. */
export interface SafeFileInfo {
  /** The file's real absolute path (for messages and results). */
  path: string;
  /** Bytes. */
  size: number;
  mtime: Date;
}

/** A file opened for reading: close `handle` when done. */
export interface SafeOpenFile extends SafeFileInfo {
  handle: fsp.FileHandle;
}

/** One entry of {@link safeList}: a regular file with one name. */
export interface SafeListEntry {
  name: string;
  size: number;
  mtime: Date;
}

/**
 * Checks a path by its text only (outside, `..`, reserved, …), touching nothing: to refuse a
 * bad path before doing work whose result would go there. The file-system checks still happen
 * at the open.
 *
 * @throws PathGuardError with the reasons of `checkWorkspacePath`.
 */
export async function safeCheckPath(target: SafeTarget, path: string): Promise<void> {
  await check(target, path);
}

/** Splits a checked path into its folder and its last name. */
function splitLast(parts: string[], given: string): { dir: string[]; name: string } {
  const name = parts.at(-1);
  if (name === undefined) {
    throw new PathGuardError(
      "not-a-file",
      given,
      `Refused path ${showPath(given)}: it names the folder itself; give a file inside it`,
    );
  }
  return { dir: parts.slice(0, -1), name };
}

/**
 * Opens a regular file with one name for reading (see the module doc); close `handle`.
 *
 * @throws PathGuardError `symlink`, `missing`, `hard-link`, `not-a-file`, `not-a-directory`,
 *   and the reasons of `checkWorkspacePath`.
 */
export async function safeOpenRead(target: SafeTarget, path: string): Promise<SafeOpenFile> {
  const { parts, realRoot, ids } = await check(target, path);
  const { dir, name } = splitLast(parts, path);
  const folder = await openDir(realRoot, dir, path, false, ids);
  let handle: fsp.FileHandle;
  try {
    try {
      handle = await fsp.open(folder.at(name), C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
    } catch (e) {
      throw await componentError(e, errno(e), folder.at(name), join(folder.path, name), path);
    }
  } finally {
    folder.close();
  }
  try {
    const info = await handle.stat();
    refuseAlias(ids, info, parts, path);
    const shown = showPath(path);
    if (!info.isFile()) {
      throw new PathGuardError(
        "not-a-file",
        path,
        `Refused path ${shown}: it is ${
          info.isDirectory() ? "a folder" : "not a regular file"
        }; give a file inside the workspace`,
      );
    }
    if (info.nlink > 1) {
      throw new PathGuardError(
        "hard-link",
        path,
        `Refused path ${shown}: the file has several names (hard links: ${info.nlink}), so it may be a file outside the workspace or one browxai keeps for itself under another name; copy it instead (cp, not ln) and give the copy inside the workspace`,
      );
    }
    return { handle, path: join(folder.path, name), size: info.size, mtime: info.mtime };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * Reads a whole regular file with one name (see {@link safeOpenRead}).
 *
 * @param maxBytes Refuse (RangeError) a file larger than this.
 */
export async function safeReadFile(
  target: SafeTarget,
  path: string,
  maxBytes = Infinity,
): Promise<SafeFileInfo & { bytes: Uint8Array }> {
  const file = await safeOpenRead(target, path);
  try {
    if (file.size > maxBytes) {
      throw new RangeError(`${showPath(path)} is ${file.size} bytes, more than ${maxBytes}`);
    }
    const bytes = new Uint8Array(await file.handle.readFile());
    return { path: file.path, size: bytes.length, mtime: file.mtime, bytes };
  } finally {
    await file.handle.close();
  }
}

/**
 * Writes a file atomically: a new temp file (mode 0600) in the same folder, renamed over the
 * name; missing folders are created (0700). A link at the name is replaced, not written
 * through; a folder there is refused (`not-a-file`).
 *
 * @returns The written file's real path and facts.
 */
export async function safeWriteFile(
  target: SafeTarget,
  path: string,
  bytes: Uint8Array,
): Promise<SafeFileInfo> {
  const { parts, realRoot, ids } = await check(target, path);
  const { dir, name } = splitLast(parts, path);
  const folder = await openDir(realRoot, dir, path, true, ids);
  try {
    const existing = await fsp.lstat(folder.at(name)).catch(() => undefined);
    if (existing) refuseAlias(ids, existing, parts, path);
    if (existing?.isDirectory()) {
      throw new PathGuardError(
        "not-a-file",
        path,
        `Refused path ${showPath(path)}: it is a folder; give a file name inside the workspace`,
      );
    }
    const tmp = `.${name.slice(0, 180)}.${crypto.randomUUID()}.tmp`;
    // The open folder was removed meanwhile (someone else's rm): nothing was written.
    const gone = (e: unknown) =>
      errno(e) === "ENOENT"
        ? new PathGuardError(
          "changed",
          path,
          `Refused path ${
            showPath(path)
          }: its folder was removed or moved while browxai wrote it; nothing was written, try again`,
        )
        : e;
    const handle = await fsp.open(
      folder.at(tmp),
      C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW,
      0o600,
    ).catch((e) => {
      throw gone(e);
    });
    try {
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
      await fsp.rename(folder.at(tmp), folder.at(name));
    } catch (e) {
      await fsp.unlink(folder.at(tmp)).catch(() => {});
      throw gone(e);
    }
    const info = await Deno.lstat(folder.at(name)).catch(() => undefined);
    return {
      path: join(folder.path, name),
      size: info?.size ?? bytes.length,
      mtime: info?.mtime ?? new Date(),
    };
  } finally {
    folder.close();
  }
}

/**
 * Makes sure a folder exists (created 0700, links refused) and returns its real path, e.g.
 * for a browser profile or a download folder handed to Chromium (which opens it by path
 * itself, after this check).
 */
export async function safeMkdir(target: SafeTarget, path: string): Promise<string> {
  const { parts, realRoot, ids } = await check(target, path);
  const folder = await openDir(realRoot, parts, path, true, ids);
  folder.close();
  return folder.path;
}

/**
 * The regular files of a folder that have one name, by name (links, folders and hard-linked
 * files are left out); a missing folder has none.
 */
export async function safeList(target: SafeTarget, path: string): Promise<SafeListEntry[]> {
  const { parts, realRoot, ids } = await check(target, path);
  let folder: DirHandle;
  try {
    folder = await openDir(realRoot, parts, path, false, ids);
  } catch (e) {
    if (e instanceof PathGuardError && e.reason === "missing") return [];
    throw e;
  }
  try {
    const out: SafeListEntry[] = [];
    for await (const e of Deno.readDir(folder.at("."))) {
      if (!e.isFile) continue;
      const info = await Deno.lstat(folder.at(e.name)).catch(() => undefined);
      if (!info?.isFile || (info.nlink ?? 1) > 1) continue;
      out.push({ name: e.name, size: info.size, mtime: info.mtime ?? new Date(0) });
    }
    return out.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  } finally {
    folder.close();
  }
}

/**
 * Removes a file, or with `recursive` a folder and what it holds (links in it are removed,
 * never followed). A link at the name is removed itself.
 *
 * @returns false when there was nothing to remove.
 */
export async function safeRemove(
  target: SafeTarget,
  path: string,
  options: { recursive?: boolean } = {},
): Promise<boolean> {
  const { parts, realRoot, ids } = await check(target, path);
  const { dir, name } = splitLast(parts, path);
  let folder: DirHandle;
  try {
    folder = await openDir(realRoot, dir, path, false, ids);
  } catch (e) {
    if (e instanceof PathGuardError && e.reason === "missing") return false;
    throw e;
  }
  try {
    const existing = await fsp.lstat(folder.at(name)).catch(() => undefined);
    if (existing) refuseAlias(ids, existing, parts, path);
    await Deno.remove(folder.at(name), { recursive: options.recursive ?? false });
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  } finally {
    folder.close();
  }
}

/**
 * Moves a regular file (`from`, one name, no link) to `to` (its folder created 0700), both
 * through the guard; the rename happens between the two open folders.
 *
 * @returns The new real path.
 */
export async function safeMove(target: SafeTarget, from: string, to: string): Promise<string> {
  const src = await check(target, from);
  const dst = await check(target, to);
  const a = splitLast(src.parts, from);
  const b = splitLast(dst.parts, to);
  const fromDir = await openDir(src.realRoot, a.dir, from, false, src.ids);
  try {
    const toDir = await openDir(dst.realRoot, b.dir, to, true, dst.ids);
    try {
      const info = await Deno.lstat(fromDir.at(a.name)).catch((e) => {
        throw new PathGuardError("missing", from, `No file at ${showPath(from)}: ${e.message}`);
      });
      refuseAlias(src.ids, info, src.parts, from);
      const there = await fsp.lstat(toDir.at(b.name)).catch(() => undefined);
      if (there) refuseAlias(dst.ids, there, dst.parts, to);
      if (!info.isFile || (info.nlink ?? 1) > 1) {
        throw new PathGuardError(
          info.isFile ? "hard-link" : info.isSymlink ? "symlink" : "not-a-file",
          from,
          `Refused to move ${showPath(from)}: it is not a regular file with one name`,
        );
      }
      await fsp.rename(fromDir.at(a.name), toDir.at(b.name));
      return join(toDir.path, b.name);
    } finally {
      toDir.close();
    }
  } finally {
    fromDir.close();
  }
}
