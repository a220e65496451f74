/**
 * `read_page` (seed 004): the page as text, or as a map of what can be acted on.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { selectorField, sessionField } from "../fields.ts";
import { DEFAULT_READ_CHARS, readPage } from "../../browser/page_read.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { frameNoteOf } from "../../browser/frame_note.ts";

/** Largest page read_page answers, chars. */
const MAX_READ_CHARS = 200_000;

/** The `read_page` tool. */
export const readPageTool = defineTool({
  name: "read_page",
  title: "Read page",
  description:
    'The page as text (links: true adds ≤100 links) or, mode "tree", one line per actionable element with its ref, plus headings. selector: one region. Paged: next_offset.',
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    url: z.string(),
    mode: z.string(),
    content: z.string(),
    total_chars: z.number(),
    truncated: z.boolean(),
    next_offset: z.number(),
    links: objectList,
    more_links: z.boolean(),
    warning: z.string(),
  }),
  inputSchema: z.object({
    mode: z.enum(["text", "tree"]).optional().describe("Default text"),
    links: z.boolean().optional().describe("Add visible links (text mode)"),
    selector: selectorField,
    offset: z.number().int().optional().describe("A next_offset"),
    max_chars: z.number().int().optional().describe(`Default ${DEFAULT_READ_CHARS}`),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const offset = args.offset ?? 0;
    const maxChars = args.max_chars ?? DEFAULT_READ_CHARS;
    if (offset < 0) {
      throw new ToolError(
        "invalid-argument",
        `"offset" is ${offset}; it must be 0 or more`,
        "pass next_offset of the previous page, or leave offset out",
      );
    }
    if (maxChars < 100 || maxChars > MAX_READ_CHARS) {
      throw new ToolError(
        "invalid-argument",
        `"max_chars" is ${maxChars}; it must be 100 to ${MAX_READ_CHARS}`,
        `pass max_chars between 100 and ${MAX_READ_CHARS} (default ${DEFAULT_READ_CHARS})`,
      );
    }
    const mode = args.mode ?? "text";
    if (args.links && mode !== "text") {
      throw new ToolError(
        "invalid-argument",
        '"links" goes with mode "text" (tree lines carry their own URLs)',
        'drop links, or use mode "text"',
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const read = await readPage(page, session, {
      mode,
      links: args.links === true,
      selector: args.selector,
      offset,
      maxChars,
      frameNote: frameNoteOf(session, page),
      signal: ctx.signal,
    });
    const { content, ...rest } = read;
    return { structured: { url: page.url, ...rest, content }, rawTextKeys: ["content"] };
  },
});
