/**
 * Named storage states (storage layer 3): `<auth folder>/<name>.json` in the client's auth
 * folder (see `browser/sessions/areas.ts`), read through the path guard.
 *
 * @module
 */
import type { StorageState } from "../../storage/storage_state.ts";
import type { CallContext } from "../call_context.ts";
import { ToolError } from "../tool_error.ts";
import { parseStateText } from "./session_state.ts";
import { authTarget, readGuarded } from "./workspace_files.ts";

export const AUTH_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/**
 * The file name of a named state in the client's auth folder.
 *
 * @throws ToolError invalid-argument for a name outside letters, digits, `._-`.
 */
export function authFile(name: string): string {
  if (!AUTH_NAME.test(name)) {
    throw new ToolError(
      "invalid-argument",
      `Invalid auth state name ${JSON.stringify(name.slice(0, 100))}: use letters, digits, ._- ` +
        "(no leading dot, at most 100)",
      'pick a plain name like "github-admin"',
    );
  }
  return `${name}.json`;
}

/**
 * A saved state by name.
 *
 * @throws ToolError not-found when there is none.
 */
export async function loadAuthState(ctx: CallContext, name: string): Promise<StorageState> {
  const file = await readGuarded(
    authTarget(ctx),
    authFile(name),
    () =>
      new ToolError(
        "not-found",
        `No auth state "${name}"`,
        "call auth_list for the saved names, or auth_save to save one",
      ),
  );
  return parseStateText(file.text, name);
}
