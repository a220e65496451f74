/**
 * `press`: press a key or combo (`Enter`, `Control+a`, `Shift+Tab`).
 *
 * @module
 */
import { z } from "zod";
import { parseKeyCombo } from "../../cdp/input.ts";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { inputOf, inputTaken } from "../../browser/actions/devices.ts";
import { actingFields, downloadField, submitsField, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { focusElement } from "../../browser/actions/focus.ts";
import { callOnHandle, shownForPage } from "../../browser/injected/mod.ts";
import { reusedDuringAction } from "../../browser/snapshot/resolve.ts";
import { enterStoppedWarning } from "../../browser/actions/form_invalid.ts";
import {
  copiesSelection,
  pastesClipboard,
  refuseHeldEdit,
  refuseSecretCopy,
} from "../../browser/actions/copy_guard.ts";
import { claimForCall } from "../../browser/sessions/shared_clipboard.ts";

/** The `press` tool. */
export const pressTool = defineTool({
  name: "press",
  title: "Press key",
  description:
    'Press a key or combo on the focused element (or on a target, focused first), e.g. "Escape", "ArrowDown", "Shift+Tab".',
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
    key: z.string().min(1).describe('Key or combo joined by +, e.g. "Enter", "Control+a"'),
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    ...actingFields,
    ...downloadField,
    ...submitsField,
  }),
  handler(ctx, args) {
    try {
      parseKeyCombo(args.key);
    } catch (e) {
      throw new ToolError(
        "invalid-argument",
        (e as Error).message,
        "use a key name like Enter, Tab, Escape, ArrowLeft, a, or a combo like Control+a",
      );
    }
    const targeted = checkTarget(args, "press", { allowCoords: false, optional: true });
    return runAction(ctx, args, {
      type: "press",
      quietFromInput: true,
      ...(targeted ? { target: args, actionability: { enabled: true } } : {}),
      actionInfo: { key: args.key },
      async perform({ session, page, target, signal }) {
        const shown = target?.kind === "element" ? shownForPage(target.handle) : null;
        if (target?.kind === "element") {
          await focusElement(target.handle, signal);
          // Taking the focus may re-render (the field typed in before commits its edit): the
          // element must still be the item the ref was shown as, or no key goes.
          const changed = shown && await callOnHandle(target.handle, "refChanged", [shown]);
          if (changed) {
            throw reusedDuringAction(
              target.handle.shown!,
              changed,
              "no key was pressed",
              "as it took the focus (the page re-rendered its row)",
            );
          }
        }
        // Only copy shortcuts with secrets registered pay for the check (a round trip a frame).
        const secrets = ctx.config.secrets;
        if (secrets?.masks && copiesSelection(args.key)) {
          await refuseSecretCopy(page, { secrets, key: args.key, signal });
        }
        // No edit of a field a secret was filled into (only pages that have one are checked).
        await refuseHeldEdit(page, { key: args.key, signal, secrets });
        // Read before the key goes: what validation is about to stop (said unless it sent).
        const stopped = await enterStoppedWarning(
          page,
          args.key,
          target?.kind === "element" ? target.handle : undefined,
        );
        // A Chromium shared with other clients: their step since this one's began may have
        // copied (shared_clipboard.ts).
        if (pastesClipboard(args.key)) await claimForCall(session);
        await inputTaken(inputOf(page).keyboard.press(args.key, { signal }));
        return stopped ? { warningsUnlessSent: [stopped] } : undefined;
      },
    });
  },
});
