/**
 * `set_reduced_motion`: emulates prefers-reduced-motion.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** The `set_reduced_motion` tool. */
export const setReducedMotionTool = defineTool({
  name: "set_reduced_motion",
  title: "Set reduced motion",
  description: "Emulate prefers-reduced-motion.",
  capability: "action",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: EMULATION_OUTPUT,
  inputSchema: z.object({
    on: z.boolean().describe("false: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const reducedMotion = args.on ? "reduce" : null;
    return emulate(ctx, args.session, { reducedMotion });
  },
});
