/**
 * `trace_start`: starts a Chrome performance trace of the session (see `trace_stop`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ERROR_OUTPUT } from "../output_schemas.ts";
import { startTrace } from "../../browser/recording/trace.ts";

/** The `trace_start` tool. */
export const traceStartTool = defineTool({
  name: "trace_start",
  title: "Start a performance trace",
  description:
    "Start a Chrome performance trace (DevTools' categories); act, then trace_stop saves it. One per session.",
  capability: "action",
  toolset: "testing",
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  inputSchema: z.object({
    categories: z.array(z.string().min(1)).min(1).max(100).optional().describe(
      'Trace categories instead of the defaults ("-x" excludes)',
    ),
    screenshots: z.boolean().optional().describe("Add page screenshots"),
    session: sessionField,
  }),
  outputSchema: z.object({
    tracing: z.boolean().optional(),
    categories: z.array(z.string()).optional(),
    url: z.string().optional(),
    error: ERROR_OUTPUT.optional(),
  }).loose(),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    return await session.exclusive(async () => {
      const page = await session.page();
      const started = await startTrace(session, page, args, { signal: ctx.signal });
      return { structured: { tracing: true, ...started } };
    });
  },
});
