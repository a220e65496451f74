/**
 * `network_read`: the session's network ring buffer, with `since_seq` cursors.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { shownUrl } from "../../browser/network_writes.ts";
import { filterWithinBudget } from "../../browser/agent_pattern.ts";
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { compilePattern, cursorFields, truncatedNote } from "./log_cursor.ts";

/** A `data:` URL's first characters shown (its payload is no address an agent can use). */
const DATA_URL_SHOWN = 80;

/** A `data:` URL cut to {@link DATA_URL_SHOWN} characters, saying its length; others as they are. */
function shortDataUrl(url: string): string {
  return url.startsWith("data:") && url.length > DATA_URL_SHOWN
    ? `${url.slice(0, DATA_URL_SHOWN)}… (${url.length} chars)`
    : url;
}

/** The `network_read` tool. */
export const networkReadTool = defineTool({
  name: "network_read",
  title: "Read network",
  description:
    "Read the session's network requests (method, URL, type, status, failures, timing). pattern filters URLs; resume with since_seq=last_seq.",
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
          url: shortDataUrl(shownUrl(e)),
        })),
        last_seq: buf.lastSeq,
        dropped: buf.dropped,
      },
    };
  },
});
