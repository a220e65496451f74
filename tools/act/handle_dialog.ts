/**
 * `handle_dialog`: choose how the next native dialog is answered.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";

/** The `handle_dialog` tool. */
export const handleDialogTool = defineTool({
  name: "handle_dialog",
  title: "Answer the next dialog",
  description:
    "Choose the answer to the next alert/confirm/prompt/beforeunload, for the next action only. Dialogs never block: unarmed, alerts and beforeunload are accepted, confirm and prompt dismissed. Call this right before the action that raises the dialog; its result lists the dialog under dialogs.",
  capability: "action",
  toolset: "core",
  annotations: { destructiveHint: false, idempotentHint: true },
  inputSchema: z.object({
    accept: z.boolean().optional().describe(
      "true (default) answers OK/yes, false answers Cancel/no",
    ),
    text: z.string().max(10_000).optional().describe("What a prompt() receives when accepted"),
    session: z.string().optional().describe("Session name"),
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    session.ensureAlive();
    const accept = args.accept ?? true;
    session.armDialog({ accept, ...(args.text !== undefined ? { text: args.text } : {}) });
    return {
      structured: {
        ok: true,
        armed: { accept, ...(args.text !== undefined ? { text: args.text } : {}) },
        note: "applies to a dialog raised during the next acting call only",
      },
    };
  },
});
