/**
 * The folder walk of the path guard (`safe_fs.ts`): checks a path's text against its target
 * (`policy/path_guard.ts`), then opens each folder from the workspace root down inside the one
 * before, with `O_DIRECTORY | O_NOFOLLOW` (through `/proc/self/fd/<fd>/<name>` on Linux, which
 * is `openat`), so a link at any component is refused as it is opened; elsewhere each folder is
 * checked with `lstat` just before its open.
 *
 * @module
 */
import fs from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { checkWorkspacePath, PathGuardError, showPath } from "../policy/path_guard.ts";
import { refuseAlias, type ReservedIds, reservedIds } from "./reserved_ids.ts";

const C = fs.constants;

/** Where a path lies and what it may not name. */
export interface SafeTarget {
  /** The workspace root (absolute; created by the server at start). */
  workspace: string;
  /**
   * The area the path is relative to and must stay in, relative to the workspace
   * (`/`-separated; empty or absent: the workspace itself), e.g. `.clients/abc/artifacts/s1`.
   */
  area?: string;
  /**
   * Areas the path may not name (relative to the workspace, or absolute inside it: the
   * secrets file). A reserved area that holds `area` itself does not count: the area is
   * what the caller was given.
   */
  reserved?: readonly string[];
  /**
   * Areas (relative to the workspace) inside reserved ones that paths may nonetheless name,
   * e.g. a client's own area inside `.clients`; reserved areas inside them still count.
   */
  allowed?: readonly string[];
}

/** An open folder: `at(name)` names an entry of it without going through its path again. */
export interface DirHandle {
  /** Real absolute path, for messages. */
  path: string;
  at(name: string): string;
  close(): void;
}

let procFd: boolean | undefined;

/**
 * Forces (`false`) the `lstat` fallback used where `/proc/self/fd` is missing, or goes back to
 * detecting it (`undefined`). For tests of the fallback on Linux.
 */
export function setPinnedFolders(on: false | undefined): void {
  procFd = on;
}

/** True when `/proc/self/fd/<fd>/<name>` reaches into an open folder (Linux). */
function hasProcFd(fd: number): boolean {
  if (procFd === undefined) {
    try {
      procFd = fs.statSync(`/proc/self/fd/${fd}`).isDirectory();
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

/** A path checked by its text: where the walk goes. */
export interface Resolved {
  /** Components from the workspace's real root to the target. */
  parts: string[];
  realRoot: string;
  /** The reserved places that exist, by identity: the walk refuses them under other names. */
  ids: ReservedIds;
}

/** Checks `path` by its text against `target` (see {@link SafeTarget}). */
export async function check(target: SafeTarget, path: string): Promise<Resolved> {
  const workspace = resolve(target.workspace);
  let realRoot: string;
  try {
    realRoot = await Deno.realPath(workspace);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await Deno.mkdir(workspace, { recursive: true, mode: 0o700 });
    realRoot = await Deno.realPath(workspace);
  }
  const area = (target.area ?? "").split("/").filter((p) => p !== "" && p !== ".");
  const reserved: string[] = [];
  const rels: string[][] = [];
  for (const r of target.reserved ?? []) {
    if (!isAbsolute(r)) {
      rels.push(r.split("/").filter((p) => p !== "" && p !== "."));
      continue;
    }
    // The secrets file may be named through a symlinked folder, or be itself a link to a file
    // in the workspace: reserve the link's own place and the file it leads to.
    const places = await Promise.all([
      Deno.realPath(dirname(r)).then((d) => join(d, basename(r))).catch(() => r),
      Deno.realPath(r).catch(() => r),
    ]);
    for (const place of places) {
      const rel = [workspace, realRoot].map((root) => relParts(root, place)).find((x) => x);
      if (rel) rels.push(rel);
    }
  }
  for (const rel of rels) {
    // A reserved area holding the caller's own area: the area was granted.
    if (rel.length <= area.length && rel.every((p, i) => area[i] === p)) continue;
    if (area.every((p, i) => rel[i] === p)) reserved.push(rel.slice(area.length).join("/"));
  }
  // Reserved places holding the caller's own area are its way in, not aliases to look for.
  const ids = await reservedIds(
    realRoot,
    rels.filter((rel) => !(rel.length <= area.length && rel.every((p, i) => area[i] === p))),
  );
  const allowed = (target.allowed ?? []).map((a) => a.split("/").filter((p) => p && p !== "."))
    .filter((a) => area.every((p, i) => a[i] === p)).map((a) => a.slice(area.length).join("/"));
  const root = join(workspace, ...area);
  const parts = checkWorkspacePath(
    { root, realRoot: join(realRoot, ...area), reserved, allowed },
    path,
  );
  return { parts: [...area, ...parts], realRoot, ids };
}

function relParts(root: string, abs: string): string[] | undefined {
  if (abs === root) return [];
  if (!abs.startsWith(root + "/")) return undefined;
  return abs.slice(root.length + 1).split("/").filter((p) => p !== "");
}

/** The `code` of a file-system error (`ENOENT`, `ELOOP`, …), if any. */
export function errno(e: unknown): string | undefined {
  return (e as { code?: string })?.code;
}

/**
 * Opens the folder `parts` below `realRoot`, one component at a time, each inside the one
 * before, refusing links and, with `ids`, reserved folders reached by another name;
 * `create`: makes missing folders (0700).
 *
 * @throws PathGuardError (see `componentError`; `reserved` for another name of a reserved folder)
 */
export async function openDir(
  realRoot: string,
  parts: string[],
  given: string,
  create: boolean,
  ids?: ReservedIds,
): Promise<DirHandle> {
  let fd = fs.openSync(realRoot, C.O_RDONLY | C.O_DIRECTORY);
  const pinned = hasProcFd(fd);
  let path = realRoot;
  try {
    for (const [i, part] of parts.entries()) {
      const at = pinned ? `/proc/self/fd/${fd}/${part}` : join(path, part);
      let next: number | undefined;
      for (let attempt = 0; next === undefined; attempt++) {
        try {
          if (!pinned) {
            // Without openat: a link is looked for just before the open.
            const info = await Deno.lstat(at);
            if (info.isSymlink) throw Object.assign(new Error("symlink"), { code: "ELOOP" });
          }
          next = fs.openSync(at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
        } catch (e) {
          const code = errno(e) ?? (e instanceof Deno.errors.NotFound ? "ENOENT" : undefined);
          if (code === "ENOENT" && create && attempt < 3) {
            try {
              fs.mkdirSync(at, 0o700);
            } catch (m) {
              if (errno(m) !== "EEXIST") throw m;
            }
            continue;
          }
          throw await componentError(e, code, at, join(path, part), given);
        }
      }
      fs.closeSync(fd);
      fd = next;
      path = join(path, part);
      refuseAlias(ids, fs.fstatSync(fd), parts.slice(0, i + 1), given);
    }
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
  const dirFd = fd;
  return {
    path,
    at: (name) => pinned ? `/proc/self/fd/${dirFd}/${name}` : join(path, name),
    close: () => fs.closeSync(dirFd),
  };
}

/** The guard's error for a component that could not be opened as a folder or file. */
export async function componentError(
  e: unknown,
  code: string | undefined,
  at: string,
  shownAt: string,
  given: string,
): Promise<unknown> {
  const shown = showPath(given);
  const now = await Deno.lstat(at).catch(() => undefined);
  if (code === "ENOTDIR" && (now === undefined || now.isDirectory)) {
    // It was a link (or a file) as it was opened and is a folder again: it is being swapped.
    return new PathGuardError(
      "changed",
      given,
      `Refused path ${shown}: ${
        JSON.stringify(shownAt)
      } changed while browxai opened it (a link swapped in and out); nothing was read or written: make it a real folder inside the workspace`,
    );
  }
  if (code === "ELOOP" || now?.isSymlink) {
    return new PathGuardError(
      "symlink",
      given,
      `Refused path ${shown}: ${
        JSON.stringify(shownAt)
      } is a symlink; browxai follows no link in the workspace (one could lead outside it or into its own files): use a real file or folder inside the workspace`,
    );
  }
  if (code === "ENOENT") {
    return new PathGuardError(
      "missing",
      given,
      `No file at ${shown} (${
        JSON.stringify(shownAt)
      } does not exist); check the name, or put the file inside the workspace first`,
    );
  }
  if (code === "ENOTDIR") {
    return new PathGuardError(
      "not-a-directory",
      given,
      `Refused path ${shown}: ${
        JSON.stringify(shownAt)
      } is a file, not a folder; give another path inside the workspace`,
    );
  }
  if (code === "ENAMETOOLONG") {
    return new PathGuardError(
      "invalid",
      given,
      `Refused path ${shown}: it is too long for the file system; give a shorter path inside the workspace`,
    );
  }
  return e;
}
