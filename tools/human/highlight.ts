/**
 * `highlight` (seeds 003/004): outline an element so the person sees what the agent means —
 * in the web console's live view (with the note), and in the window itself when the
 * session's browser is shown. `unattended` at once when nobody can see the session.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { highlightFor } from "../../browser/human/asks.ts";

/** The `highlight` tool. */
export const highlightTool = defineTool({
  name: "highlight",
  title: "Highlight element",
  description: "Outline an element for the person watching (unattended: nobody is).",
  capability: "read",
  toolset: "human",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({ ref: z.string(), box: anyObject }),
  inputSchema: z.object({
    ref: z.string().describe("Snapshot ref, e.g. e12"),
    note: z.string().refine((s) => s.length <= 500, "at most 500 characters").optional()
      .describe("Shown beside it"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const h = await highlightFor(session, { ref: args.ref, note: args.note }, {
      serverHeadful: ctx.config.headful,
      signal: ctx.signal,
    });
    return { structured: { ok: true, ref: h.ref, box: h.box } };
  },
});
