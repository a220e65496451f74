/**
 * `takeover` (seed 004): the agent hands control of a session to a person, who then acts in
 * the web console; the agent's mutations answer `human-has-control` until the person hands
 * back. In an unattended session nothing changes: it answers `unattended` (an error).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { CONTROL_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { takeControl } from "../../browser/human/session_control.ts";

/** The `takeover` tool. */
export const takeoverTool = defineTool({
  name: "takeover",
  title: "Hand control to a person",
  description:
    "Hand control to a person watching (web console); your mutations are refused until they hand back.",
  capability: "human",
  toolset: "human",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  outputSchema: CONTROL_OUTPUT,
  inputSchema: z.object({
    reason: z.string().min(1).max(500).describe("Shown to the person"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    return { structured: { ...takeControl(session, args.reason, ctx.config) } };
  },
});
