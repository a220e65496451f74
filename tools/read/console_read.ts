/**
 * `console_read`: the session's console ring buffer, with `since_seq` cursors.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { filterWithinBudget } from "../../browser/agent_pattern.ts";
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { compilePattern, cursorFields, truncatedNote } from "./log_cursor.ts";

/** The `console_read` tool. */
export const consoleReadTool = defineTool({
  name: "console_read",
  title: "Read console",
  description:
    "Read the session's console: console.* calls, uncaught exceptions, browser log entries (failed loads: network_read). Filter by level and pattern; resume with since_seq=last_seq.",
  capability: "read",
  toolset: "debug",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    entries: objectList,
    last_seq: z.number(),
    dropped: z.number(),
    truncatedScan: z.boolean(),
    hint: z.string(),
  }),
  inputSchema: z.object({
    level: z.enum(["log", "info", "warning", "error", "debug", "exception"]).optional().describe(
      "Only this level (error also matches exception)",
    ),
    ...cursorFields,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const re = compilePattern(args.pattern);
    const buf = session.logs.console;
    let entries = buf.since(args.since_seq ?? 0);
    if (args.level) {
      entries = entries.filter((e) =>
        e.level === args.level || (args.level === "error" && e.level === "exception")
      );
    }
    // The filter sees the text as the agent reads it: masked (else it is an oracle on values).
    const limit = args.limit ?? 100;
    const scan = re
      ? filterWithinBudget(entries, (e) => maskedForAgent(e.text), re, limit)
      : { matched: entries.slice(-limit), truncatedScan: false };
    return {
      structured: {
        entries: scan.matched.map(({ tab: _tab, ...e }) => e),
        last_seq: buf.lastSeq,
        dropped: buf.dropped,
        ...truncatedNote(scan.truncatedScan),
      },
    };
  },
});
