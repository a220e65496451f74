/**
 * `find_feedback`: tells `find` which element a query meant (or did not mean).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { cappedString, MAX_QUERY_CHARS, sessionField } from "../fields.ts";
import { recordFeedback } from "../../browser/find/feedback.ts";

/**
 * The `find_feedback` tool: `{ query, ref, correct?, session? }` →
 * `{ remembered: { query, ref, role, name, correct }, verdicts }`. The session keeps the verdict
 * by the element's role, name, test id and id (not the ref), and a later `find` with the same or
 * a close query ranks by it (its `why` says so).
 * CDP: `Runtime.evaluate` and `Runtime.callFunctionOn` in the ref's frame.
 */
export const findFeedbackTool = defineTool({
  name: "find_feedback",
  title: "Find feedback",
  description:
    "Tell find which element a query meant (correct=true, default) or not (false); later finds with a close query rank by it.",
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ remembered: anyObject, verdicts: z.number() }),
  inputSchema: z.object({
    query: cappedString("a query", MAX_QUERY_CHARS).describe("The find query"),
    ref: z.string().describe("The element, e.g. e12"),
    correct: z.boolean().optional().describe("Default true"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const structured = await recordFeedback(page, session.refs, session.slots, {
      query: args.query,
      ref: args.ref,
      correct: args.correct ?? true,
    });
    return { structured: { ...structured } };
  },
});
