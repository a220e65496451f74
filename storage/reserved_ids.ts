/**
 * The path guard's second look at the areas browxai keeps for itself: by what a name opens,
 * not by how it is spelled. The text check (`policy/path_guard.ts`) folds case, NFC, Windows'
 * trailing dots and streams, but a file system can give a folder names no folding predicts: a
 * Windows 8.3 short name (`AUDIT-~1`), a name with characters HFS+ ignores (`au\u200cdit`), a
 * bind mount. Every folder the walk opens, and the file at its end, is compared by identity
 * (device and inode, `fstat`) with the reserved areas: the same identity under another name is
 * refused as `reserved`.
 *
 * @module
 */
import fs from "node:fs";
import { join } from "node:path";
import { foldName, PathGuardError, showPath } from "../policy/path_guard.ts";

/** Reserved places by identity: `dev:ino` → the reserved path, workspace-relative, folded. */
export type ReservedIds = ReadonlyMap<string, string>;

/** The identity of a stat result (`dev:ino`), or undefined when the file system gives none. */
export function identityOf(
  info: { dev?: number | bigint | null; ino?: number | bigint | null },
): string | undefined {
  if (info.ino === undefined || info.ino === null || info.dev === undefined || info.dev === null) {
    return undefined;
  }
  // 0 is no inode (some Windows file systems, FAT): nothing to compare.
  return Number(info.ino) === 0 ? undefined : `${info.dev}:${info.ino}`;
}

/**
 * The identities of the reserved places that exist, `rels` being workspace-relative components
 * below `realRoot`. Missing places are left out (nothing can alias them yet; a place created
 * later is checked from the next call on).
 */
export async function reservedIds(realRoot: string, rels: string[][]): Promise<ReservedIds> {
  const ids = new Map<string, string>();
  await Promise.all(rels.map(async (rel) => {
    if (rel.length === 0) return;
    const info = await fs.promises.stat(join(realRoot, ...rel)).catch(() => undefined);
    const id = info && identityOf(info);
    if (id) ids.set(id, rel.map(foldName).join("/"));
  }));
  return ids;
}

/**
 * Refuses a folder or file just opened (`info`, its `fstat`) that is a reserved place under
 * another name than its own, `parts` being the components that named it (workspace-relative).
 * A place named by its own spelling is the text check's to judge (an area granted inside a
 * reserved one, e.g. a client's own folder in `.clients`).
 *
 * @throws PathGuardError `reserved`.
 */
export function refuseAlias(
  ids: ReservedIds | undefined,
  info: { dev?: number | bigint | null; ino?: number | bigint | null },
  parts: readonly string[],
  given: string,
): void {
  if (!ids?.size) return;
  const id = identityOf(info);
  const place = id === undefined ? undefined : ids.get(id);
  if (place === undefined || parts.map(foldName).join("/") === place) return;
  throw new PathGuardError(
    "reserved",
    given,
    `Refused path ${showPath(given)}: ${JSON.stringify(parts.join("/"))} is another name for ${
      JSON.stringify(place)
    }, which browxai keeps for itself (audit log, browser profiles, downloads, artifacts, other clients' files, its own secrets and token files); use another file inside the workspace`,
  );
}
