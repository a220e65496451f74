/**
 * Names and URLs of downloads: a suggested file name made safe, deduplicated
 * in the session folder (`report.txt`, `report (1).txt`, …), and the URL
 * forms a result shows.
 *
 * @module
 */
import { basename, extname, join } from "node:path";

/** Most UTF-8 bytes of a download's name: under the file system's 255, with room for ` (N)`. */
const MAX_NAME_BYTES = 200;

/**
 * A file name safe on every platform: path separators, control characters (C0, DEL, C1 and
 * the line and paragraph separators U+2028/U+2029, which the path guard refuses) and reserved
 * characters become `_`, a leading dot too (no hidden files, no `..`), at most
 * {@link MAX_NAME_BYTES} UTF-8 bytes (extension kept, never half a character); empty becomes
 * `download`.
 */
export function safeFileName(name: string): string {
  // deno-lint-ignore no-control-regex
  let n = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029/\\:*?"<>|]/g, "_").trim();
  n = n.replace(/^\.+/, (dots) => "_".repeat(dots.length));
  if (!n) n = "download";
  if (utf8Bytes(n) > MAX_NAME_BYTES) {
    const ext = cutToBytes(extname(n), 20);
    n = cutToBytes(n.slice(0, n.length - extname(n).length), MAX_NAME_BYTES - utf8Bytes(ext)) +
      ext;
  }
  return n;
}

function utf8Bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** The longest head of `s` of at most `max` UTF-8 bytes, cut between code points. */
function cutToBytes(s: string, max: number): string {
  let out = "", bytes = 0;
  for (const ch of s) {
    const n = utf8Bytes(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** `name`, or `name (1).ext`, `name (2).ext`, … the first not in `taken`; adds it to `taken`. */
export function reserveName(name: string, taken: Set<string>): string {
  const ext = extname(name), stem = basename(name, ext);
  let candidate = name;
  for (let i = 1; taken.has(candidate); i++) candidate = `${stem} (${i})${ext}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The reserved `name`, or the next `stem (N).ext` when a file of that name
 * already exists in `folder` (from an earlier run) or is reserved by another
 * download in progress; adds a new name to `taken`.
 */
export async function freeName(folder: string, name: string, taken: Set<string>): Promise<string> {
  let candidate = name;
  const ext = extname(name), stem = basename(name, ext);
  for (
    let i = 1;
    (candidate !== name && taken.has(candidate)) || await exists(join(folder, candidate));
    i++
  ) candidate = `${stem} (${i})${ext}`;
  if (candidate !== name) taken.add(candidate);
  return candidate;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** `data:` URLs carry the whole file: keep their head only. */
export function shortUrl(url: string): string {
  return url.startsWith("data:") && url.length > 100 ? url.slice(0, 100) + "…" : url;
}
