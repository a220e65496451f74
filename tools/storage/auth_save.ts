/**
 * `auth_save`: saves the session's storage state under a name. Auth states are named storage states
 * (storage layer 3) at `<auth folder>/<name>.json` (see `auth_fields.ts`).
 *
 * @module
 */
import { authFile } from "../../browser/storage/auth_states.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { dumpSession } from "../../browser/storage/session_state.ts";
import { authTarget, writeGuardedJson } from "../../browser/storage/workspace_files.ts";
import { nameField } from "./auth_fields.ts";

/** The `auth_save` tool. */
export const authSaveTool = defineTool({
  name: "auth_save",
  title: "Save auth state",
  description: "Save the session's storage state under a name.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    name: z.string(),
    cookies: z.number(),
    origins: z.number(),
    warning: z.string(),
    note: z.string(),
  }),
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
