/**
 * `release` (seed 004): the agent asks to take control back from the person. The person is
 * asked through the consent channel (elicitation, when the client has it); without one the
 * release is the agent's own word, audited `consent_channel: "legacy"`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { CONTROL_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { releaseControl } from "../../browser/human/session_control.ts";

/** The `release` tool. */
export const releaseTool = defineTool({
  name: "release",
  title: "Take control back",
  description: "Ask the person to hand control back.",
  capability: "human",
  toolset: "human",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  outputSchema: CONTROL_OUTPUT,
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    return { structured: { ...await releaseControl(session, ctx.consent) } };
  },
});
