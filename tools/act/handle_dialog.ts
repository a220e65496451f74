/**
 * `handle_dialog`: choose how the next native dialog is answered.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { ARMED_GRACE_MS } from "../../browser/sessions/dialogs.ts";

/** The `handle_dialog` tool. */
export const handleDialogTool = defineTool({
  name: "handle_dialog",
  title: "Answer the next dialog",
  description:
    "Set the answer to a dialog (alert/confirm/prompt/beforeunload) the next action raises; call it right before. Dialogs never block: unarmed, alert and beforeunload are accepted, confirm and prompt dismissed. The action's result lists it (dialogs).",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ armed: anyObject, note: z.string() }),
  inputSchema: z.object({
    accept: z.boolean().optional().describe("Default true: OK/yes; false: Cancel/no"),
    text: z.string().max(10_000).optional().describe("The prompt() answer"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    session.ensureAlive();
    const accept = args.accept ?? true;
    session.dialogs.arm(
      { accept, ...(args.text !== undefined ? { text: args.text } : {}) },
      session.activePage?.target.targetId,
    );
    return {
      structured: {
        ok: true,
        armed: { accept, ...(args.text !== undefined ? { text: args.text } : {}) },
        note: `applies to the next confirm, prompt or beforeunload of this tab's page (not its ` +
          `frames'): one raised before the next acting call ends, or up to ${
            ARMED_GRACE_MS / 1000
          } s after it`,
      },
    };
  },
});
