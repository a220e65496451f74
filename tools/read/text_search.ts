/**
 * `text_search`: find words or an RE2 pattern in the page's visible text, with the section
 * each match sits in.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { cappedString, MAX_QUERY_CHARS, sessionField } from "../fields.ts";
import { textSearch } from "../../browser/snapshot/page_text_search.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { frameNoteOf } from "../../browser/frame_note.ts";
import { scrollBoxHint } from "../../browser/snapshot/scroll_hint.ts";

/** The `text_search` tool. */
export const textSearchTool = defineTool({
  name: "text_search",
  title: "Text search",
  description:
    "Find words or an RE2 regex in the page text (all frames). Each match: excerpt, heading, sectionRef (snapshot({ref}) shows that section).",
  capability: "read",
  toolset: "core",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    matches: objectList,
    total: z.number(),
    truncatedScan: z.boolean(),
  }),
  inputSchema: z.object({
    query: cappedString("a query", MAX_QUERY_CHARS).describe("Words, or a pattern with regex"),
    regex: z.boolean().optional().describe("query is RE2"),
    caseSensitive: z.boolean().optional().describe("Default false"),
    limit: z.number().int().optional().describe("1-50 (default 5)"),
    contextChars: z.number().int().optional().describe("Excerpt chars per side (default 60)"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const limit = args.limit ?? 5;
    const contextChars = args.contextChars ?? 60;
    if (limit < 1 || limit > 50) {
      throw new ToolError(
        "invalid-argument",
        `"limit" is ${limit}; it must be 1 to 50`,
        "pass limit between 1 and 50 (default 5), or leave it out",
      );
    }
    if (contextChars < 0 || contextChars > 500) {
      throw new ToolError(
        "invalid-argument",
        `"contextChars" is ${contextChars}; it must be 0 to 500`,
        "pass contextChars between 0 and 500 (default 60)",
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const found = await textSearch(page, session.refs, {
      query: args.query,
      regex: args.regex,
      caseSensitive: args.caseSensitive,
      limit,
      contextChars,
      frameNote: frameNoteOf(session, page),
      signal: ctx.signal,
    });
    // A virtual list's unseen rows are in no text: the box to scroll is the next step.
    const hint = found.total === 0
      ? await scrollBoxHint(page, session.refs, ctx.signal)
      : undefined;
    return { structured: { ...found, ...(hint ? { warnings: [hint] } : {}) } };
  },
});
