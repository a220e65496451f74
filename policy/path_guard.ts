/**
 * The path guard: every file browxai reads or writes for the agent lies
 * under the workspace (`$BROWX_WORKSPACE`). A path the agent gives is
 * resolved against the workspace and refused when it could land anywhere
 * else: `..` segments, absolute paths outside, symlinks (in any existing
 * component) that point outside, NUL bytes, empty paths.
 *
 * It reads the file system (`Deno.realPath`, `Deno.lstat`) to see symlinks,
 * and decides nothing else. A symlink swapped in after the check (a race with
 * someone who can write into the workspace) is not covered.
 *
 * @module
 */
import { isAbsolute, join, normalize, relative, resolve, sep } from "node:path";

/** Why a path was refused. */
export type PathRefusal =
  | "empty"
  | "nul-byte"
  | "dot-dot"
  | "outside-workspace"
  | "symlink-outside"
  | "dangling-symlink"
  | "missing"
  | "reserved";

/** A refused path: `reason` is stable, `message` says what was wrong and what to do. */
export class PathGuardError extends Error {
  /** Why it was refused. */
  readonly reason: PathRefusal;
  /** The path as given. */
  readonly path: string;
  constructor(reason: PathRefusal, path: string, message: string) {
    super(message);
    this.name = "PathGuardError";
    this.reason = reason;
    this.path = path;
  }
}

/** Options of {@link resolveInWorkspace}. */
export interface ResolveOptions {
  /** Refuse (reason `missing`) when nothing exists at the path. @default false */
  mustExist?: boolean;
  /**
   * Paths (absolute, or relative to the workspace) the agent may not name:
   * the path itself and everything below it are refused (reason `reserved`).
   * For what the server keeps for itself: the audit log, browser profiles,
   * the secrets file. See {@link RESERVED_AREAS}.
   */
  reserved?: readonly string[];
}

/**
 * Workspace folders an agent's file tools never read or write: the audit
 * log (its record of the agent), browser profiles (cookies, saved
 * passwords) and download staging.
 */
export const RESERVED_AREAS: readonly string[] = ["audit", "profiles", ".downloads/.incoming"];

/**
 * Resolves `path` (relative to `workspace`, or absolute) to the canonical
 * absolute path it names, symlinks resolved, and checks that it lies inside
 * the workspace (the workspace itself counts as inside). A path that does
 * not exist yet is allowed unless `mustExist`: its existing ancestors are
 * resolved and checked, the rest is appended.
 *
 * @param workspace The workspace root (need not exist yet).
 * @returns The canonical absolute path, e.g. `/home/u/.browxai/.downloads/a.txt`.
 * @throws PathGuardError with reason `empty`, `nul-byte`, `dot-dot`,
 *   `outside-workspace`, `symlink-outside`, `dangling-symlink`, `reserved` or `missing`.
 */
export async function resolveInWorkspace(
  workspace: string,
  path: string,
  options: ResolveOptions = {},
): Promise<string> {
  const shown = JSON.stringify(path.length > 200 ? path.slice(0, 200) + "…" : path);
  const root = resolve(workspace);
  const where = `inside the workspace ${JSON.stringify(root)}`;
  if (path.trim() === "") {
    throw new PathGuardError(
      "empty",
      path,
      `Empty path: give a file path ${where}, relative to it (e.g. "files/report.pdf") or absolute`,
    );
  }
  if (path.includes("\0")) {
    throw new PathGuardError(
      "nul-byte",
      path,
      `Refused path ${shown}: it contains a NUL byte; give a plain file path ${where}`,
    );
  }
  // Refused outright, even when it would come back inside: a path that
  // climbs is a mistake or a probe, and "a/../b" is better written "b".
  if (path.split(/[\\/]/).includes("..")) {
    throw new PathGuardError(
      "dot-dot",
      path,
      `Refused path ${shown}: it contains "..", which may leave the workspace; give a path ${where} without ".." segments`,
    );
  }
  const realRoot = await realPathOfExisting(root);
  const candidate = isAbsolute(path) ? normalize(path) : resolve(root, path);
  // An absolute path may name the workspace by its given or its real form.
  const lexicalRoot = within(root, candidate) ? root : within(realRoot, candidate) ? realRoot : "";
  if (!lexicalRoot) {
    throw new PathGuardError(
      "outside-workspace",
      path,
      `Refused path ${shown}: it is outside the workspace; browxai reads and writes files only ${where} (give a path relative to it)`,
    );
  }
  const rest = relative(lexicalRoot, candidate);
  const real = await resolveExisting(realRoot, rest, path, shown, where);
  if (!within(realRoot, real.path)) {
    throw new PathGuardError(
      "symlink-outside",
      path,
      `Refused path ${shown}: a symlink in it points outside the workspace (to ${
        JSON.stringify(real.path)
      }); use a real file ${where}`,
    );
  }
  for (const area of options.reserved ?? []) {
    const abs = await realPathOfExisting(
      isAbsolute(area) ? normalize(area) : resolve(realRoot, area),
    );
    if (within(abs, real.path)) {
      throw new PathGuardError(
        "reserved",
        path,
        `Refused path ${shown}: browxai keeps ${
          JSON.stringify(abs)
        } for itself (audit log, browser profiles, secrets); use another file ${where}`,
      );
    }
  }
  if (options.mustExist && !real.exists) {
    throw new PathGuardError(
      "missing",
      path,
      `No file at ${shown} (${
        JSON.stringify(real.path)
      }); check the name, or put the file ${where} first`,
    );
  }
  return real.path;
}

/** True when `path` is `root` or below it (both absolute, normalized). */
function within(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === "" || (!r.startsWith(".." + sep) && r !== ".." && !isAbsolute(r));
}

/** The real path of `path`, or of its deepest existing ancestor plus the rest. */
async function realPathOfExisting(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    const parent = resolve(path, "..");
    if (parent === path) return path;
    return join(await realPathOfExisting(parent), path.slice(parent.length).replace(/^[\\/]/, ""));
  }
}

/**
 * Walks `rest` below `realRoot` one component at a time, resolving each
 * existing one with its symlinks (so a link anywhere is seen, not only the
 * last); stops at the first component that does not exist.
 */
async function resolveExisting(
  realRoot: string,
  rest: string,
  given: string,
  shown: string,
  where: string,
): Promise<{ path: string; exists: boolean }> {
  let current = realRoot;
  const parts = rest === "" ? [] : rest.split(sep).filter((p) => p !== "" && p !== ".");
  for (let i = 0; i < parts.length; i++) {
    const next = join(current, parts[i]!);
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(next);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
        return { path: join(next, ...parts.slice(i + 1)), exists: false };
      }
      throw e;
    }
    if (info.isSymlink) {
      let target: string;
      try {
        target = await Deno.realPath(next);
      } catch {
        throw new PathGuardError(
          "dangling-symlink",
          given,
          `Refused path ${shown}: ${
            JSON.stringify(next)
          } is a symlink whose target does not exist; use a real file ${where}`,
        );
      }
      // Checked at each step: a link out and another link back must not pass.
      if (!within(realRoot, target)) {
        throw new PathGuardError(
          "symlink-outside",
          given,
          `Refused path ${shown}: ${JSON.stringify(next)} is a symlink to ${
            JSON.stringify(target)
          }, outside the workspace; use a real file ${where}`,
        );
      }
      current = target;
    } else current = next;
  }
  return { path: current, exists: true };
}
