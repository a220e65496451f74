/**
 * `console_read` and `network_read`: the session's ring buffers, with
 * `since_seq` cursors.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ToolError } from "../errors.ts";
import { keysOnly } from "../actions/recorder.ts";

function compilePattern(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, "i");
  } catch (e) {
    throw new ToolError(
      "invalid-argument",
      `Invalid pattern "${pattern}": ${(e as Error).message}`,
      "pass a valid regular expression, or a plain word",
    );
  }
}

const cursorFields = {
  pattern: z.string().optional().describe("Regex filter (case-insensitive)"),
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
    if (re) entries = entries.filter((e) => re.test(e.text));
    entries = entries.slice(-(args.limit ?? 100));
    return {
      structured: {
        entries: entries.map(({ tab: _tab, ...e }) => e),
        last_seq: buf.lastSeq,
        dropped: buf.dropped,
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
    if (re) entries = entries.filter((e) => re.test(e.url));
    entries = entries.slice(-(args.limit ?? 100));
    return {
      structured: {
        entries: entries.map(({ tab: _tab, requestId: _id, done: _done, frameId: _f, ...e }) => ({
          ...e,
          // Writes are reported by their keys, never their values.
          url: ["POST", "PUT", "PATCH", "DELETE"].includes(e.method) ? keysOnly(e.url) : e.url,
        })),
        last_seq: buf.lastSeq,
        dropped: buf.dropped,
      },
    };
  },
});
