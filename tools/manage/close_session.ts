/**
 * `close_session`: closes a named session.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";

/** The `close_session` tool. */
export const closeSessionTool = defineTool({
  name: "close_session",
  title: "Close session",
  description:
    "Close a session: its context (incognito), its browser (persistent; the profile stays on disk), or the connection (attached; the browser keeps running). Not open: wasRunning=false.",
  capability: "navigation",
  toolset: "sessions",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ session: z.string(), wasRunning: z.boolean() }),
  inputSchema: z.object({
    session: z.string().describe("Session name"),
  }),
  async handler(ctx, args) {
    const wasRunning = await ctx.sessions.close(args.session);
    // Idempotent, but a misspelt name closes nothing: say which sessions are open.
    const open = wasRunning ? [] : ctx.sessions.list().map((s) => s.id);
    const warnings = wasRunning ? [] : [
      `no session "${args.session}" was open; open sessions: ${
        open.length ? open.map((n) => JSON.stringify(n)).join(", ") : "none"
      }`,
    ];
    return {
      structured: {
        ok: true,
        session: args.session,
        wasRunning,
        ...(warnings.length ? { warnings } : {}),
      },
    };
  },
});
