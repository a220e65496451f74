/**
 * `auth_load`: replaces the session's storage state with a saved one. Auth states are named storage
 * states (storage layer 3) at `<auth folder>/<name>.json` (see `auth_fields.ts`).
 *
 * @module
 */
import { loadAuthState } from "../../browser/storage/auth_states.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { injectSession, rejectedCookiesWarning } from "../../browser/storage/session_state.ts";
import { nameField } from "./auth_fields.ts";
import { gateStateWrite } from "../../browser/storage/state_gate.ts";

/** The `auth_load` tool. */
export const authLoadTool = defineTool({
  name: "auth_load",
  title: "Load auth state",
  description: "Replace the session's storage state with a saved one.",
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
    cookiesRejected: z.array(anyValue),
    origins: z.number(),
    originsSkipped: z.array(anyValue),
    warning: z.string(),
  }),
  inputSchema: z.object({ name: nameField, session: sessionField }),
  async handler(ctx, args) {
    const state = await loadAuthState(ctx, args.name);
    const s = await ctx.sessions.get(args.session ?? "default");
    // The gates inject_storage_state passes: it clears every cookie and origin, then writes.
    await gateStateWrite(ctx, s, {
      tool: "auth_load",
      state,
      what: `every cookie and origin (replaced by auth state "${args.name}")`,
    });
    const r = await injectSession(s, state, "replace");
    const warning = rejectedCookiesWarning(r);
    return { structured: { ok: true, name: args.name, ...r, ...(warning ? { warning } : {}) } };
  },
});
