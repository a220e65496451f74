/**
 * `find`: the page's elements ranked against a natural-language query (browser/find/).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { cappedString, MAX_QUERY_CHARS, sessionField } from "../fields.ts";
import { FIND_LIMIT } from "../../browser/find/find_elements.ts";
import { findInSession } from "../../browser/find/session_find.ts";

/**
 * The `find` tool: `{ query, role?, contextRef?, limit?, session? }` →
 * `{ candidates: [{ ref, role, name, score, selectorHint?, selectorTier, stability, actionable,
 * inViewport, why }], warnings? }`. Candidates get refs in the session's registry (click them).
 * CDP: `Runtime.evaluate` per frame, `DOM.describeNode` per iframe.
 */
export const findTool = defineTool({
  name: "find",
  title: "Find elements",
  description:
    'Rank the page\'s elements (all frames) for a description like "Save button in the editor toolbar" or "second Delete in the Orders table"; no model. Candidates get refs to act on, a verified selectorHint, and why.',
  capability: "read",
  toolset: "core",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({ candidates: objectList, warnings: z.array(z.string()) }),
  inputSchema: z.object({
    query: cappedString("a query", MAX_QUERY_CHARS).describe("What to find, in words"),
    role: z.string().optional().describe("Only this ARIA role"),
    contextRef: z.string().optional().describe("Search inside this ref"),
    limit: z.number().int().min(1).max(FIND_LIMIT.max).optional().describe(
      `Max candidates (default ${FIND_LIMIT.default})`,
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const answer = await findInSession(session, page, args, ctx.signal);
    return { structured: { ...answer } };
  },
});
