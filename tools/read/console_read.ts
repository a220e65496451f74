/**
 * `console_read` and `network_read`: the session's ring buffers, with
 * `since_seq` cursors.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { shownUrl } from "../../browser/network_writes.ts";
import {
  type AgentMatcher,
  compileAgentPattern,
  filterWithinBudget,
} from "../../browser/agent_pattern.ts";
import { maskedForAgent } from "../../browser/secret_scope.ts";

function compilePattern(pattern: string | undefined): AgentMatcher | undefined {
  return pattern === undefined ? undefined : compileAgentPattern(pattern);
}

/** The fields a scan cut short by the work budget adds (none otherwise). */
function truncatedNote(truncated: boolean): Record<string, unknown> {
  return truncated
    ? {
      truncatedScan: true,
      note: "the pattern's work budget ran out: older entries (or the end of long ones) " +
        "were not searched; use a simpler pattern, since_seq, or a smaller limit",
    }
    : {};
}

const cursorFields = {
  pattern: z.string().optional().describe(
    "RE2 regex filter over the text as shown (case-insensitive; no lookaround or backreferences)",
  ),
  limit: z.number().int().min(1).max(1000).optional().describe(
    "Max entries, newest kept (default 100)",
  ),
  since_seq: z.number().int().min(0).optional().describe("Entries after this seq (last_seq)"),
  session: sessionField,
};

/** The `console_read` tool. */
export const consoleReadTool = defineTool({
  name: "console_read",
  title: "Read console",
  description:
    "Read the session's console: console.* calls, uncaught exceptions, browser log entries. Filter by level and pattern; resume with since_seq=last_seq.",
  capability: "read",
  toolset: "debug",
  annotations: { readOnlyHint: true },
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

/** The `network_read` tool. */
export const networkReadTool = defineTool({
  name: "network_read",
  title: "Read network",
  description:
    "Read the session's network requests (method, URL, type, status, failures, timing). pattern filters URLs; resume with since_seq=last_seq.",
  capability: "read",
  toolset: "debug",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    failed_only: z.boolean().optional().describe("Network error or status >= 400"),
    ...cursorFields,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const re = compilePattern(args.pattern);
    const buf = session.logs.network;
    let entries = buf.since(args.since_seq ?? 0);
    if (args.failed_only) entries = entries.filter((e) => e.failed || (e.status ?? 0) >= 400);
    // The filter sees the URL as the agent reads it: keys only for writes, values masked.
    const limit = args.limit ?? 100;
    const scan = re
      ? filterWithinBudget(entries, (e) => maskedForAgent(shownUrl(e)), re, limit)
      : { matched: entries.slice(-limit), truncatedScan: false };
    return {
      structured: {
        ...truncatedNote(scan.truncatedScan),
        entries: scan.matched.map((
          { tab: _tab, requestId: _id, done: _done, frameId: _f, ...e },
        ) => ({
          ...e,
          url: shownUrl(e),
        })),
        last_seq: buf.lastSeq,
        dropped: buf.dropped,
      },
    };
  },
});
