/**
 * `picked` (seed 003): the elements a person picked in the web console, newest last, each a
 * `pN` ref usable wherever an `eN` is, with its role, name and a verified selector hint.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";

/** The `picked` tool. */
export const pickedTool = defineTool({
  name: "picked",
  title: "Picked elements",
  description: "Elements a person picked in the web console (pN refs, usable like eN).",
  capability: "read",
  toolset: "human",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ picks: objectList }),
  inputSchema: z.object({
    session: sessionField,
    clear: z.boolean().optional().describe("Empty the list"),
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const picks = [...session.human.picks];
    if (args.clear && picks.length) {
      session.human.picks.length = 0;
      session.human.changed("picks");
    }
    return { structured: { picks } };
  },
});
