/**
 * `publish`: make an item public — set its publish control and send the
 * form in one call, never leaving the form armed when the send fails.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput, anyObject } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callOnHandle, releaseHandle, type RemoteHandle } from "../../browser/injected/mod.ts";
import { actingFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { originOf } from "../../policy/hosts.ts";
import type { ActionOutput } from "../../browser/actions/result_render.ts";
import {
  callOnHandles,
  isFailure,
  type PageFailure,
  resolveElement,
  submitTarget,
} from "../../browser/forms/form_common.ts";
import { clickAndWatch, notSent } from "../../browser/forms/form_send.ts";

function armError(r: PageFailure): ToolError {
  return new ToolError(
    r.code,
    `Cannot publish: ${r.error}`,
    "pass as selector the option that makes the item public (read_form: drafts, the option whose means is public)",
  );
}

/** The `publish` tool. */
export const publishTool = defineTool({
  name: "publish",
  title: "Publish",
  description:
    "Make an item public: set the publish control to its public option (selector, from read_form's drafts) and click submit. Asks the publish hook (single-use, never implied). Not sent: the control is set back. Call only after a human approved this exact item (review_form).",
  capability: "action",
  toolset: "forms",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: actionOutput({
    sent: z.string(),
    published: anyObject,
    invalid: z.array(z.string()),
  }),
  inputSchema: z.object({
    selector: z.string().min(1).describe("The publish control's public option: selector or ref"),
    submit: z.string().min(1).describe(
      "Submit control: its text (submitText), a ref or a selector",
    ),
    ...actingFields,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    // Checked before anyone is asked, changing nothing (a dry run of the arming).
    const pre = await session.exclusive(async () => {
      const page = await session.page();
      const target = await submitTarget(page, args.submit);
      const submit = await resolveElement(session, page, target.ref ?? target.selector!);
      const control = await resolveElement(session, page, args.selector).catch((e) => {
        releaseHandle(submit);
        throw e;
      });
      try {
        const r = await callOnHandles(submit, control, "formPublishArm", [
          true,
        ]);
        if (isFailure(r)) throw armError(r);
        return { target, info: r, url: page.url, origin: originOf(page.url, { opaque: "none" }) };
      } finally {
        releaseHandle(submit);
        releaseHandle(control);
      }
    });
    await ctx.confirm({
      hook: "publish",
      tool: "publish",
      session: session.id,
      summary: `make ${
        pre.info.item ? `"${pre.info.item}"` : "the item"
      } public on ${pre.url}: set ${pre.info.control} and click ${args.submit}`,
      origin: pre.origin,
    });
    let armed: { control: RemoteHandle; token: number } | undefined;
    let restored = false;
    let out: ActionOutput | undefined;
    try {
      // Declared to the guard without asking `submit`: publish asked its own, stronger hook.
      out = await runAction(ctx, args, {
        sendsForm: true,
        type: "publish",
        target: pre.target,
        actionability: { enabled: true, hitTest: true },
        actionInfo: { control: args.selector, submit: args.submit },
        async perform(c) {
          if (c.target?.kind !== "element") return;
          const control = await resolveElement(c.session, c.page, args.selector);
          const r = await callOnHandles(
            c.target.handle,
            control,
            "formPublishArm",
            [false],
          ).catch((e) => {
            releaseHandle(control);
            throw e;
          });
          if (isFailure(r)) {
            releaseHandle(control);
            throw armError(r);
          }
          armed = { control, token: r.token! };
          const restore = async () => {
            restored = true;
            return await callOnHandle(control, "formPublishRestore", [r.token!]);
          };
          if (r.after === "draft") {
            await restore();
            throw new ToolError(
              "invalid-argument",
              `Setting ${r.control} left the item a draft (another publish control keeps it private); it was set back`,
              "read_form: drafts lists every publish control; set the others, then call again",
            );
          }
          let sent;
          try {
            sent = await clickAndWatch(c);
          } catch (e) {
            await restore().catch(() => {});
            throw e;
          }
          if (!sent.sent) {
            const back = await restore().catch(() => "unknown");
            throw notSent(sent, `the publish control was set back (the form is ${back} again)`);
          }
          return {
            sent: sent.how,
            published: { control: r.control, before: r.before, after: r.after },
          };
        },
      });
    } finally {
      if (armed) {
        const { control, token } = armed;
        // Armed, then stopped after the click (a policy stopped the request, a failure…) on a
        // page that still shows the form: put the control back rather than leave it armed.
        if (!restored && out?.structured.ok !== true) {
          const back = await session.exclusive(() =>
            callOnHandle(control, "formPublishRestore", [token])
          ).catch(() => undefined);
          if (back && out) {
            // What perform saw (a submit that left) is not what happened: drop it.
            delete out.structured.sent;
            delete out.structured.published;
            out.structured.warnings.push(
              `the form was not published; its publish control was set back (the form is ${back} again)`,
            );
          }
        }
        releaseHandle(control);
      }
    }
    return out;
  },
});
