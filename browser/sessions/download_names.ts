/**
 * Names and URLs of downloads: a suggested file name made safe, deduplicated
 * in the session folder (`report.txt`, `report (1).txt`, …), and the URL
 * forms a result shows.
 *
 * @module
 */
import { basename, extname, join } from "node:path";

/**
 * A file name safe on every platform: path separators, control and
 * reserved characters become `_`, a leading dot too (no hidden files, no
 * `..`), at most 200 chars (extension kept); empty becomes `download`.
 */
export function safeFileName(name: string): string {
  // deno-lint-ignore no-control-regex
  let n = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_").trim();
  n = n.replace(/^\.+/, (dots) => "_".repeat(dots.length));
  if (!n) n = "download";
  if (n.length > 200) {
    const ext = extname(n).slice(0, 20);
    n = n.slice(0, 200 - ext.length) + ext;
  }
  return n;
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
