/**
 * The files storage tools read and write for the agent, through the path guard
 * (`storage/safe_fs.ts`), each in the calling client's area (`browser/sessions/areas.ts`):
 * paths the agent gives (`dump_storage_state`, `inject_storage_state`) and named auth states.
 *
 * @module
 */
import { PathGuardError } from "../../policy/path_guard.ts";
import { ownConfigFiles } from "../../policy/server_config.ts";
import {
  safeCheckPath,
  safeList,
  type SafeListEntry,
  safeReadFile,
  safeRemove,
  type SafeTarget,
  safeWriteFile,
} from "../../storage/safe_fs.ts";
import type { CallContext } from "../call_context.ts";
import { SHARED_AUTH_DIR } from "../sessions/areas.ts";
import { ToolError } from "../tool_error.ts";

/** Largest state file read (a dump of a busy context is a few MB at most). */
const MAX_STATE_BYTES = 64 * 1024 * 1024;

/**
 * Where the agent's own paths go: the client's area (the workspace for stdio, its
 * `.clients/<namespace>/` over HTTP), never a reserved area, the secrets file, or
 * (when writing) the downloads.
 */
export function agentTarget(ctx: CallContext, write: boolean): SafeTarget {
  const areas = ctx.sessions.areas;
  return {
    workspace: ctx.config.workspace,
    area: areas.own,
    reserved: [
      ...areas.reserved,
      // Saved logins: auth_save/auth_load are the way in (a dump there would overwrite one).
      SHARED_AUTH_DIR,
      areas.authStates(false),
      ...(write ? [areas.downloads] : []),
      ...ownConfigFiles(ctx.config),
    ],
  };
}

/** The folder of the client's named auth states (shared with `BROWX_SHARED_AUTH_STATES=1`). */
export function authTarget(ctx: CallContext): SafeTarget {
  return {
    workspace: ctx.config.workspace,
    area: ctx.sessions.areas.authStates(ctx.config.sharedAuthStates ?? false),
    reserved: ownConfigFiles(ctx.config),
  };
}

/**
 * A guard refusal as the agent sees it: `not-found` for a missing file, `invalid-argument`
 * for a folder or a malformed path, else `refused` (links, reserved areas, outside the
 * workspace) with the guard's message (what was wrong, what to do).
 */
export function guardToolError(e: unknown, notFound?: () => ToolError): unknown {
  if (!(e instanceof PathGuardError)) return e;
  if (e.reason === "missing") {
    return notFound?.() ??
      new ToolError("not-found", e.message, "check the path (relative to the workspace)");
  }
  // A path that is merely wrong (a folder, an empty or malformed name) is the agent's to fix;
  // links, reserved areas and paths out of the workspace are refusals.
  if (e.reason === "not-a-file" || e.reason === "not-a-directory") {
    return new ToolError(
      "invalid-argument",
      e.message,
      "give the path of a file, not a folder, inside the workspace",
    );
  }
  if (e.reason === "empty" || e.reason === "nul-byte" || e.reason === "invalid") {
    return new ToolError(
      "invalid-argument",
      e.message,
      "give a file path relative to the workspace",
    );
  }
  return new ToolError("refused", e.message, "give a path to a real file inside the workspace");
}

/**
 * Reads a file through the guard.
 *
 * @throws ToolError refused / not-found (see {@link guardToolError}).
 */
export async function readGuarded(
  target: SafeTarget,
  path: string,
  notFound?: () => ToolError,
): Promise<{ text: string; path: string }> {
  try {
    const file = await safeReadFile(target, path, MAX_STATE_BYTES);
    return { text: new TextDecoder().decode(file.bytes), path: file.path };
  } catch (e) {
    if (e instanceof RangeError) {
      throw new ToolError("invalid-argument", e.message, "pass a smaller state file");
    }
    throw guardToolError(e, notFound);
  }
}

/**
 * Writes JSON (2-space indented) through the guard: atomic, mode 0600.
 *
 * @returns The file's real path.
 * @throws ToolError refused.
 */
export async function writeGuardedJson(
  target: SafeTarget,
  path: string,
  value: unknown,
): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
  try {
    return (await safeWriteFile(target, path, bytes)).path;
  } catch (e) {
    throw guardToolError(e);
  }
}

/** Refuses a bad path by its text before any work (see `safeCheckPath`); ToolError refused. */
export async function checkGuarded(target: SafeTarget, path: string): Promise<void> {
  try {
    await safeCheckPath(target, path);
  } catch (e) {
    throw guardToolError(e);
  }
}

/** The files of a guarded folder (see `safeList`); refusals as ToolErrors. */
export async function listGuarded(target: SafeTarget, path = "."): Promise<SafeListEntry[]> {
  try {
    return await safeList(target, path);
  } catch (e) {
    throw guardToolError(e);
  }
}

/** Removes a file through the guard; false when there was none. */
export async function removeGuarded(target: SafeTarget, path: string): Promise<boolean> {
  try {
    return await safeRemove(target, path);
  } catch (e) {
    throw guardToolError(e);
  }
}
