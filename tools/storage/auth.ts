/**
 * `auth_save`, `auth_load`, `auth_list`, `auth_delete`: named storage states (storage
 * layer 3) at `<auth folder>/<name>.json`, written and applied with layer 1
 * (`storage_state.ts`). The folder is the client's (`.auth-states/` for stdio and with
 * `BROWX_SHARED_AUTH_STATES=1`, else `.clients/<namespace>/auth-states/`; see
 * `browser/sessions/areas.ts`). Names are letters, digits and `._-` (no leading dot); every
 * file goes through the path guard (written atomically, mode 0600). A saved file keeps the
 * real cookie values.
 *
 * @module
 */
import { AUTH_NAME, authFile, loadAuthState } from "../../browser/storage/auth_states.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { dumpSession, injectSession } from "../../browser/storage/session_state.ts";
import {
  authTarget,
  listGuarded,
  removeGuarded,
  writeGuardedJson,
} from "../../browser/storage/workspace_files.ts";

const nameField = z.string().describe("Letters, digits, ._-");

/** The `auth_save` tool. */
export const authSaveTool = defineTool({
  name: "auth_save",
  title: "Save auth state",
  description: "Save the session's storage state under a name.",
  capability: "action",
  toolset: "storage",
  annotations: { idempotentHint: true },
  inputSchema: z.object({ name: nameField, session: sessionField }),
  async handler(ctx, args) {
    const file = authFile(args.name);
    const state = await dumpSession(await ctx.sessions.get(args.session ?? "default"));
    await writeGuardedJson(authTarget(ctx), file, state);
    const empty = state.cookies.length === 0 && state.origins.length === 0;
    return {
      structured: {
        ok: true,
        name: args.name,
        cookies: state.cookies.length,
        origins: state.origins.length,
        // Saved all the same (an empty state is a valid "logged out"), but rarely what was meant.
        ...(empty
          ? {
            warning: "nothing to save: log in first, or navigate to the site (the session has no " +
              "cookies and no localStorage); the saved state is empty",
          }
          : {}),
        // An HTTP client's own auth states go with its MCP session (unless the operator shares them).
        ...(ctx.sessions.areas.namespace !== undefined && !ctx.config.sharedAuthStates
          ? { note: "kept in this client's area until its MCP session ends" }
          : {}),
      },
    };
  },
});

/** The `auth_load` tool. */
export const authLoadTool = defineTool({
  name: "auth_load",
  title: "Load auth state",
  description: "Replace the session's storage state with a saved one.",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({ name: nameField, session: sessionField }),
  async handler(ctx, args) {
    const state = await loadAuthState(ctx, args.name);
    const s = await ctx.sessions.get(args.session ?? "default");
    return {
      structured: { ok: true, name: args.name, ...await injectSession(s, state, "replace") },
    };
  },
});

/** The `auth_list` tool. */
export const authListTool = defineTool({
  name: "auth_list",
  title: "List auth states",
  description: "List saved auth state names.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({}),
  async handler(ctx) {
    const names: string[] = [];
    for (const e of await listGuarded(authTarget(ctx))) {
      const name = e.name.replace(/\.json$/, "");
      if (e.name.endsWith(".json") && AUTH_NAME.test(name)) names.push(name);
    }
    // names stays [] when empty: structuredContent keeps the shape (the text prunes empties).
    return { structured: { count: names.length, names } };
  },
});

/** The `auth_delete` tool. */
export const authDeleteTool = defineTool({
  name: "auth_delete",
  title: "Delete auth state",
  description: "Delete a saved auth state.",
  capability: "action",
  toolset: "storage",
  annotations: { idempotentHint: true },
  inputSchema: z.object({ name: nameField }),
  async handler(ctx, args) {
    const existed = await removeGuarded(authTarget(ctx), authFile(args.name));
    return { structured: { ok: true, existed } };
  },
});
