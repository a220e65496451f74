/**
 * `save_draft`: send a form only while its publish control is on its
 * draft setting — the safe way to send an item.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { actingFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { clickAndWatch, notSent } from "../../browser/forms/form_send.ts";
import {
  draftStateAt,
  draftStateOf,
  requireDraft,
  submitTarget,
} from "../../browser/forms/form_common.ts";

/** The `save_draft` tool. */
export const saveDraftTool = defineTool({
  name: "save_draft",
  title: "Save draft",
  description:
    "Send a form by clicking submit while its publish control (read_form's drafts) is on its draft setting; refused when the form is armed public or its state is unreadable, so it never publishes. Asks the submit hook (not publish).",
  capability: "action",
  toolset: "forms",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ draftState: z.string(), sent: z.string() }),
  inputSchema: z.object({
    submit: z.string().min(1).describe(
      "Submit control: its text (submitText), a ref or a selector",
    ),
    ...actingFields,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    // Checked before anyone is asked: a form armed public is refused outright.
    const target = await session.exclusive(async () => {
      const page = await session.page();
      const target = await submitTarget(page, args.submit);
      requireDraft(await draftStateAt(session, page, target));
      return target;
    });
    return await runAction(ctx, { ...args, submits: true }, {
      type: "save_draft",
      target,
      actionability: { enabled: true, hitTest: true },
      actionInfo: { submit: args.submit },
      async perform(c) {
        if (c.target?.kind !== "element") return;
        // Again right before sending: the page may have changed while a human was asked.
        const state = await draftStateOf(c.target.handle);
        requireDraft(state);
        const sent = await clickAndWatch(c);
        if (!sent.sent) throw notSent(sent, "the item was not saved");
        return { sent: sent.how, draftState: state.state };
      },
    });
  },
});
