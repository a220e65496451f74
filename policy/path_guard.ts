/**
 * The path guard: every file browxai reads or writes for the agent lies
 * under the workspace (`$BROWX_WORKSPACE`). A path the agent gives is
 * resolved against the workspace and refused when it could land anywhere
 * else: `..` segments, absolute paths outside, symlinks (in any existing
 * component) that point outside, NUL bytes, empty paths, names too long for
 * the file system. For reading, a caller can also refuse hard links
 * (`singleLink`): a file in the workspace with a second name elsewhere (a
 * reserved file, a file outside) is that other file too.
 *
 * It reads the file system (`Deno.realPath`, `Deno.lstat`, `Deno.stat`) to
 * see symlinks and links, and decides nothing else; an error of the file
 * system while resolving is a refusal (`invalid`), never a crash. A symlink
 * or link swapped in after the check (a race with someone who can write into
 * the workspace) is not covered.
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
  | "reserved"
  | "hard-link"
  | "invalid";

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
  /**
   * Refuse (reason `hard-link`) an existing regular file with more than one
   * name (`nlink > 1`): a hard link in the workspace to a reserved file or to
   * a file outside it passes every other check, so callers that read a file
   * for the agent (upload_file, download_get) set this. @default false
   */
  singleLink?: boolean;
}

/** Longest name of one path component, in UTF-8 bytes (Linux, macOS: 255). */
const NAME_MAX = 255;
/** Longest whole path, in UTF-8 bytes (Linux PATH_MAX 4096 with its NUL). */
const PATH_MAX = 4095;

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
 *   `outside-workspace`, `symlink-outside`, `dangling-symlink`, `reserved`,
 *   `missing`, `hard-link` (with `singleLink`) or `invalid` (a name too long,
 *   or another error of the file system while resolving).
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
  const bytes = (t: string) => new TextEncoder().encode(t).length;
  const size = bytes(path);
  const longest = size > PATH_MAX
    ? 0
    : path.split(/[\\/]/).reduce((most, name) => Math.max(most, bytes(name)), 0);
  const tooLong = size > PATH_MAX
    ? `it is ${size} bytes long, more than the ${PATH_MAX} the file system allows`
    : longest > NAME_MAX
    ? `a name in it is ${longest} bytes long, more than the ${NAME_MAX} the file system allows`
    : "";
  if (tooLong) {
    throw new PathGuardError(
      "invalid",
      path,
      `Refused path ${shown}: ${tooLong}; give a shorter file path ${where}`,
    );
  }
  try {
    return await check(root, path, shown, where, options);
  } catch (e) {
    if (e instanceof PathGuardError) throw e;
    const os = e as Error & { code?: string };
    throw new PathGuardError(
      "invalid",
      path,
      `Refused path ${shown}: ${
        os.code === "ENAMETOOLONG"
          ? "a name in it is too long for the file system"
          : os.code === "ELOOP"
          ? "it goes through a loop of symlinks"
          : `the file system cannot look it up (${os.code ?? os.name}: ${
            os.message.replace(/:.*$/s, "")
          })`
      }; give another file path ${where}`,
    );
  }
}

/** The checks of {@link resolveInWorkspace} that read the file system; may throw OS errors. */
async function check(
  root: string,
  path: string,
  shown: string,
  where: string,
  options: ResolveOptions,
): Promise<string> {
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
  if (options.singleLink && real.exists) {
    const info = await Deno.stat(real.path);
    if (info.isFile && (info.nlink ?? 1) > 1) {
      throw new PathGuardError(
        "hard-link",
        path,
        `Refused path ${shown}: the file has several names (hard links: ${info.nlink}), so it may be a file outside the workspace or one browxai keeps for itself under another name; copy it instead (cp, not ln) and give the copy ${where}`,
      );
    }
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
      } catch (e) {
        if ((e as { code?: string }).code === "ELOOP") throw e; // a loop: "invalid"
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
