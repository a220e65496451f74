/**
 * `click`: click an element (ref, selector) or a viewport point.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { pointerAction } from "../../browser/actions/pointer.ts";
import { actingFields, downloadField, submitsField, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { watchClickedForm } from "../../browser/forms/form_send.ts";
import { claimForCall } from "../../browser/sessions/shared_clipboard.ts";

/** The `click` tool. */
export const clickTool = defineTool({
  name: "click",
  title: "Click",
  description:
    "Click by ref, selector or coords. Waits until visible, enabled and not covered (fails fast, naming the cover). Returns what happened: navigation, new tabs, dialogs, errors, network writes, page delta.",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: ACTION_RESULT_OUTPUT,
  inputSchema: z.object({
    ...targetFields,
    button: z.enum(["left", "right", "middle"]).optional().describe("Default left"),
    clickCount: z.number().int().min(1).max(3).optional().describe("2: double click"),
    modifiers: z.array(z.enum(["Alt", "Control", "Meta", "Shift"])).optional().describe(
      "Keys held",
    ),
    ...actingFields,
    ...downloadField,
    ...submitsField,
  }),
  handler(ctx, args) {
    checkTarget(args, "click");
    return runAction(ctx, args, {
      type: "click",
      quietFromInput: true,
      target: args,
      actionability: { enabled: true, hitTest: true },
      actionInfo: {
        ...(args.button && args.button !== "left" ? { button: args.button } : {}),
        ...(args.clickCount && args.clickCount > 1 ? { clickCount: args.clickCount } : {}),
      },
      async perform({ session, page, point, target, elementPoint, deadline, signal }) {
        // A middle click pastes the selection: in a Chromium shared with other clients, theirs
        // may be there since this step began (shared_clipboard.ts).
        if (args.button === "middle") await claimForCall(session);
        const press = {
          button: args.button ?? "left",
          clickCount: args.clickCount ?? 1,
          modifiers: args.modifiers ?? [],
        };
        if (target?.kind === "element" && elementPoint) {
          // A click meant to send a form: the browser's validation stopping it is said.
          const form = args.submits ? await watchClickedForm(target.handle) : undefined;
          const warnings: string[] = [];
          try {
            await pointerAction(page, target.handle, {
              press,
              enabled: true,
              deadline,
              signal,
              start: elementPoint,
              warnings,
            });
            const stopped = await form?.check();
            if (stopped) throw stopped;
          } finally {
            form?.off();
          }
          return warnings.length ? { warnings } : undefined;
        } else await inputOf(page).mouse.click(point!.x, point!.y, { ...press, signal });
      },
    });
  },
});
