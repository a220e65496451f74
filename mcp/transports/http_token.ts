/**
 * The `--http` bearer token browxai makes for itself, kept in the workspace (`http-token`,
 * owner-only) so the next start reuses it and client configurations keep working. An explicit
 * `BROWX_HTTP_TOKEN` wins and leaves the file alone; deleting the file makes a new token on
 * the next start (rotation).
 *
 * @module
 */
import { join } from "node:path";

/** The token file's name in the workspace. */
export const TOKEN_FILE = "http-token";

/** A token file browxai will not use (readable by others, not a file, empty); the message says what to do. */
export class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenFileError";
  }
}

/** A kept token: its value, its file, and whether this start made it. */
export interface KeptToken {
  token: string;
  file: string;
  created: boolean;
}

/**
 * The workspace's token: read from `<workspace>/http-token`, or made (128 random bits, hex)
 * and written there with mode 0600. Two servers starting at once on one workspace get the
 * same token (the file is linked into place only if absent).
 *
 * @throws TokenFileError when the file is a symlink or not a regular file, is readable or
 *   writable by group or others (a token others may have read is no secret), belongs to
 *   another user, or holds no usable token.
 */
export async function workspaceToken(workspace: string): Promise<KeptToken> {
  const file = join(workspace, TOKEN_FILE);
  const kept = await readKept(file);
  if (kept !== undefined) return { token: kept, file, created: false };
  const token = Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  const tmp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, token + "\n", { mode: 0o600, createNew: true });
    // chmod as well: some file systems create with the umask's bits whatever mode says.
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, 0o600);
    try {
      await Deno.link(tmp, file);
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      // Another start made it first: use that one.
      return { token: (await readKept(file))!, file, created: false };
    }
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  return { token, file, created: true };
}

/** The token in `file`, undefined when there is no file; @throws TokenFileError (see above). */
async function readKept(file: string): Promise<string | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  const rotate = `delete it and start again for a new token`;
  if (!info.isFile) {
    throw new TokenFileError(`The HTTP token file ${file} is not a regular file; ${rotate}`);
  }
  if (Deno.build.os !== "windows") {
    const mode = (info.mode ?? 0) & 0o777;
    if (mode & 0o077) {
      throw new TokenFileError(
        `The HTTP token file ${file} is open to others (mode ${mode.toString(8)}): a token ` +
          `others could read is no secret; ${rotate} (or chmod 600 it if nobody else could ` +
          "have read it)",
      );
    }
    if (info.uid !== null && info.uid !== Deno.uid()) {
      throw new TokenFileError(`The HTTP token file ${file} belongs to another user; ${rotate}`);
    }
  }
  const token = (await Deno.readTextFile(file)).trim();
  if (!/^[A-Za-z0-9._~+\/=-]{16,}$/.test(token)) {
    throw new TokenFileError(
      `The HTTP token file ${file} holds no usable token (16 or more token characters); ${rotate}`,
    );
  }
  return token;
}
