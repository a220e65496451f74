/**
 * `inject_storage_state`: applies a storage-layer-1 state (cookies and localStorage, as
 * `dump_storage_state` gives it) to a session, given inline or as a workspace file (seed 000
 * "Storage-state: three layers"). The CDP work is in `storage/storage_state.ts`.
 *
 * @module
 */
import {
  injectSession,
  rejectedCookiesWarning,
  stateArg,
} from "../../browser/storage/session_state.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { gateStateWrite } from "../../browser/storage/state_gate.ts";

/** The `inject_storage_state` tool. */
export const injectStorageStateTool = defineTool({
  name: "inject_storage_state",
  title: "Inject storage state",
  description:
    "Apply a dumped state (object or workspace path); replace clears first. One call's message at most 96 MiB.",
  capability: "action",
  toolset: "storage",
  // Carries data (bytes, a state, a body, a record) past the 1 Mi string cap.
  largeArgs: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    mode: z.string(),
    cookies: z.number(),
    cookiesRejected: z.array(anyValue),
    origins: z.number(),
    originsSkipped: z.array(anyValue),
    cleared: anyValue,
    warning: z.string(),
  }),
  inputSchema: z.object({
    state: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("State or path"),
    mode: z.enum(["replace", "merge"]).optional().describe("Default replace"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const state = await stateArg(ctx, args.state);
    const s = await ctx.sessions.get(args.session ?? "default");
    // Every origin it writes one a tab may reach, the secrets gate, in an attached browser
    // its owner's yes (state_gate.ts).
    await gateStateWrite(ctx, s, {
      tool: "inject_storage_state",
      state,
      what: (args.mode ?? "replace") === "replace"
        ? "every cookie and origin (replace)"
        : "its origins",
    });
    const r = await injectSession(s, state, args.mode ?? "replace");
    const warning = rejectedCookiesWarning(r);
    return {
      structured: { ok: true, mode: args.mode ?? "replace", ...r, ...(warning ? { warning } : {}) },
    };
  },
});
