/**
 * `close_session`: closes a named session.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";

/** The `close_session` tool. */
export const closeSessionTool = defineTool({
  name: "close_session",
  title: "Close session",
  description:
    "Close a session: its context (incognito), its browser (persistent; the profile stays on disk), or the connection (attached; the browser keeps running). Not open: wasRunning=false.",
  capability: "navigation",
  toolset: "sessions",
  annotations: { destructiveHint: true, idempotentHint: true },
  inputSchema: z.object({
    session: z.string().describe("Session name"),
  }),
  async handler(ctx, args) {
    const wasRunning = await ctx.sessions.close(args.session);
    return { structured: { ok: true, session: args.session, wasRunning } };
  },
});
