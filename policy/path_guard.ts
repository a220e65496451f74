/**
 * The path guard's decisions: every file browxai reads or writes for the
 * agent lies under a root (the workspace `$BROWX_WORKSPACE`, or a client's
 * own area in it), named by a path that stays there: no `..`, no absolute
 * path elsewhere, no NUL byte nor other control character (a line break in a name breaks
 * line-based listings and logs of the workspace), no name too long, nothing in a reserved area
 * (the audit log, browser profiles, the secrets file, other clients' areas).
 *
 * Pure: no I/O. The file system's part (no symlink at any component, no
 * hard-linked file read, atomic owner-only writes, all checked on the file
 * as it is opened, not before) is `storage/safe_fs.ts`, which calls
 * {@link checkWorkspacePath} first. Because a symlink anywhere below the root
 * is refused there, the components checked here are the real ones: the
 * reserved areas can be compared by name — by name as the file system
 * compares it ({@link foldName}): macOS and Windows ignore case by default,
 * so `AUDIT/…` or `SECRETS.ENV` open the reserved files there.
 *
 * @module
 */
import { isAbsolute, normalize, relative, sep } from "node:path";

/** Why a path was refused. */
export type PathRefusal =
  | "empty"
  | "nul-byte"
  | "dot-dot"
  | "outside-workspace"
  | "symlink"
  | "missing"
  | "reserved"
  | "hard-link"
  | "not-a-file"
  | "not-a-directory"
  | "changed"
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

/**
 * Control characters a name may not hold (NUL aside, refused as `nul-byte`): C0 (line feed,
 * carriage return, tab, escape, …), DEL, C1, and the Unicode line and paragraph separators.
 */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0001-\u001f\u007f-\u009f\u2028\u2029]/u;

/** Longest name of one path component, in UTF-8 bytes (Linux, macOS: 255). */
const NAME_MAX = 255;
/** Longest whole path, in UTF-8 bytes (Linux PATH_MAX 4096 with its NUL). */
const PATH_MAX = 4095;

/**
 * Workspace areas (relative to the workspace) an agent's paths never name:
 * the audit log (its record of the agent), browser profiles (cookies, saved
 * passwords), download staging (written by the browser), the artifacts of
 * every server and client (read and written only by the artifact tools,
 * each in its own area) and HTTP clients' own areas (`.clients/<namespace>/`:
 * another client's logins and dumps).
 */
export const RESERVED_AREAS: readonly string[] = [
  "audit",
  "profiles",
  ".downloads/.incoming",
  ".artifacts",
  ".clients",
  ".instances",
  // The --http bearer token browxai keeps (mcp/transports/http_token.ts): overwritten, the next
  // start fails; read, it goes to a page (upload_file). Its `http-token.<id>.tmp` siblings too.
  "http-token",
];

/** What {@link checkWorkspacePath} checks a path against. */
export interface PathCheck {
  /** The root as configured (absolute, normalized), e.g. `/home/u/.browxai`. */
  root: string;
  /** The root's real path (symlinks resolved): absolute paths may name either form. */
  realRoot: string;
  /**
   * Areas (relative to the root, `/`-separated, or absolute below it) the
   * path may not be, nor be under: refused with reason `reserved`.
   */
  reserved?: readonly string[];
  /**
   * Areas inside reserved ones that the path may nonetheless be under (relative to the root,
   * `/`-separated): a client's own area inside `.clients`. A reserved area inside an allowed
   * one still counts.
   */
  allowed?: readonly string[];
}

/**
 * Checks a path an agent (or browxai) gave against a root, by its text only.
 *
 * @param path Relative to the root (e.g. `"files/report.pdf"`), or absolute inside it.
 * @returns The path's components below the root (`[]`: the root itself).
 * @throws PathGuardError with reason `empty`, `nul-byte`, `dot-dot`,
 *   `outside-workspace`, `reserved` or `invalid` (a control character, a name or the path
 *   too long).
 */
export function checkWorkspacePath(check: PathCheck, path: string): string[] {
  const shown = showPath(path);
  const where = `inside the workspace ${JSON.stringify(check.root)}`;
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
  const control = CONTROL_CHARACTER.exec(path)?.[0];
  if (control !== undefined) {
    const code = "U+" + control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    throw new PathGuardError(
      "invalid",
      path,
      `Refused path ${shown}: it contains a control character (${code}${
        control === "\n" ? ", a newline" : ""
      }); give a file path ${where} without line breaks, tabs or other control characters`,
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
  const parts = below(check, path);
  if (parts === undefined) {
    throw new PathGuardError(
      "outside-workspace",
      path,
      `Refused path ${shown}: it is outside the workspace; browxai reads and writes files only ${where} (give a path relative to it)`,
    );
  }
  // Compared as a case-insensitive file system would (macOS, Windows): on every OS, as the
  // workspace may sit on such a file system anywhere (a mounted volume, a container's bind).
  const folded = parts.map(foldName);
  const under = (area: string[]) => area.every((p, i) => folded[i] === p);
  const allowed = (check.allowed ?? []).map((a) => splitParts(a).map(foldName)).filter(under);
  for (const area of check.reserved ?? []) {
    const reserved = (isAbsolute(area) ? below(check, area) : splitParts(area))?.map(foldName);
    if (reserved === undefined) continue;
    // Inside an allowed area that lies inside this reserved one: allowed.
    if (allowed.some((a) => a.length > reserved.length && reserved.every((p, i) => a[i] === p))) {
      continue;
    }
    if (under(reserved) || tempSibling(folded, reserved)) {
      throw new PathGuardError(
        "reserved",
        path,
        `Refused path ${shown}: browxai keeps ${
          JSON.stringify(reserved.join("/"))
        } for itself (audit log, browser profiles, downloads, artifacts, the secrets file, the --http token, the --config file, the --user-data-dir profile, the --storage-state and --init-script files, other clients' files); use another file ${where}`,
      );
    }
  }
  return parts;
}

/**
 * True when `parts` names a temp sibling of the reserved file `reserved` (`<name>.<id>.tmp`
 * beside it): browxai writes its own files through one and links it into place.
 */
function tempSibling(parts: string[], reserved: string[]): boolean {
  const name = reserved.at(-1);
  const last = parts.at(-1);
  return name !== undefined && last !== undefined && parts.length === reserved.length &&
    reserved.slice(0, -1).every((p, i) => parts[i] === p) &&
    last.startsWith(`${name}.`) && last.endsWith(".tmp");
}

/**
 * A path component as a case-insensitive file system compares it, for matching reserved
 * names: Unicode NFC (macOS stores decomposed names), case folded (upper then lower case, so
 * `ſ` and `K` fold as `s` and `k` do), an NTFS stream suffix (`audit::$DATA`, `:` onwards) and
 * Windows' trailing dots and spaces (`audit. ` opens `audit`) dropped. Folding can only make
 * more names match a reserved one, never fewer.
 */
export function foldName(name: string): string {
  const bare = name.normalize("NFC").replace(/:.*$/s, "").replace(/[. ]+$/, "");
  return bare.toUpperCase().toLowerCase().normalize("NFC");
}

/** A path shown in a message: quoted, cut at 200 characters. */
export function showPath(path: string): string {
  return JSON.stringify(path.length > 200 ? path.slice(0, 200) + "…" : path);
}

/** The components of `path` below the root, or undefined when it is not below it. */
function below(check: PathCheck, path: string): string[] | undefined {
  if (!isAbsolute(path)) return splitParts(path);
  const abs = normalize(path);
  for (const root of [check.root, check.realRoot]) {
    const r = relative(root, abs);
    if (r === "") return [];
    if (r !== ".." && !r.startsWith(".." + sep) && !isAbsolute(r)) return splitParts(r);
  }
  return undefined;
}

function splitParts(path: string): string[] {
  return path.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
}
