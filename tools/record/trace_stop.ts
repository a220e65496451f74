/**
 * `trace_stop`: ends the session's trace and writes it to the workspace as the JSON file
 * DevTools' Performance panel opens.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ERROR_OUTPUT } from "../output_schemas.ts";
import { MAX_TIMEOUT_MS } from "../../browser/timeouts.ts";
import { stopTrace } from "../../browser/recording/trace.ts";
import {
  checkOutputPath,
  defaultFileName,
  writeOutputFile,
} from "../../browser/recording/output_file.ts";

/** The `trace_stop` tool. */
export const traceStopTool = defineTool({
  name: "trace_stop",
  title: "Stop and save the trace",
  description: "Stop the trace trace_start began and save it as JSON DevTools opens.",
  capability: "action",
  toolset: "testing",
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace file (default trace-<time>.json)"),
    session: sessionField,
  }),
  outputSchema: z.object({
    path: z.string().optional(),
    absolutePath: z.string().optional(),
    bytes: z.number().optional(),
    durationMs: z.number().optional(),
    dataLossOccurred: z.boolean().optional(),
    error: ERROR_OUTPUT.optional(),
  }).loose(),
  async handler(ctx, args) {
    // A bad path is refused before the trace ends: it keeps running for a retry.
    if (args.path !== undefined) await checkOutputPath(ctx, args.path);
    const session = await ctx.sessions.get(args.session ?? "default");
    return await session.exclusive(async () => {
      const trace = await stopTrace(session, { signal: ctx.signal, timeoutMs: MAX_TIMEOUT_MS });
      const path = args.path ?? defaultFileName("trace", "json", { fallback: "trace" });
      const file = await writeOutputFile(ctx, path, trace.bytes);
      return {
        structured: {
          ...file,
          durationMs: trace.durationMs,
          ...(trace.dataLossOccurred ? { dataLossOccurred: true } : {}),
        },
      };
    });
  },
});
