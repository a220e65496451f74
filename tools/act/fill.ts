/**
 * `fill`: replace the content of a text field or contenteditable.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import {
  type FillAsked,
  keptOutcome,
  rangeOutcome,
  rejectedValue,
  valueOutcome,
} from "../../browser/actions/field_kept.ts";
import type { FieldKept, FillPrep } from "../../browser/injected/page_types.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callOnHandle, type RemoteHandle, shownForPage } from "../../browser/injected/mod.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { actingFields, cappedString, MAX_VALUE_CHARS, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import {
  dropEnterWatch,
  pressEnterAndWatch,
  startEnterWatch,
} from "../../browser/forms/form_send.ts";
import { checkFocusStaysHome } from "../../browser/actions/secret_query.ts";
import { listensForChange } from "../../browser/actions/typing_focus.ts";
import { reusedDuringAction } from "../../browser/snapshot/resolve.ts";

/**
 * A value this long (characters) may by itself keep the page busy past timeoutMs (a textarea
 * laying out megabytes): a timeout then says so instead of blaming a page script.
 */
const HEAVY_VALUE_CHARS = 1_000_000;

/** The warning of a fill whose page listens for the field's change event, which waits for blur. */
const CHANGE_ON_BLUR = "the field still has focus and the page listens for its change event, " +
  "which fires when it loses focus: press Tab to commit the value (nothing else changed yet)";

/**
 * The failure of a value a number field refused as typed: the typing replaced what the field
 * held, so that is put back (`setValue`: input and change fire with it, the page's state
 * follows) and the failure says the field was left as it was. One round trip, on this
 * failure only. CDP: `Runtime.callFunctionOn`.
 */
async function putBack(
  handle: RemoteHandle,
  fill: { value: string; was: string | undefined },
  field: FieldKept,
): Promise<ToolError> {
  const { value, was } = fill;
  if (was === undefined || field.value === undefined) return rejectedValue(value, field);
  if (field.value === was) return rejectedValue(value, field, true);
  const r = await callOnHandle(handle, "setValue", [was]).catch(() => undefined);
  return r && "ok" in r
    ? rejectedValue(value, { ...field, value: was, length: was.length }, true)
    : rejectedValue(value, field);
}

/** What a fill of `value` into the field `prep` describes asks the field to hold. */
function askedOf(value: string, prep: FillPrep): FillAsked {
  return { value, was: prep.was, secret: prep.secret, editable: prep.kind === "contenteditable" };
}

/** A fill's failure before its Enter: the form was not sent. */
function notSent(e: ToolError): ToolError {
  return new ToolError(e.code, `${e.message}; Enter was not pressed`, e.hint, e.details);
}

/** The `fill` tool. */
export const fillTool = defineTool({
  name: "fill",
  title: "Fill",
  description:
    "Replace the value of a text input, textarea or contenteditable (ref or selector) with value, firing input events like typing. submit=true presses Enter after. Returns the ActionResult with the field's new value.",
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
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    value: cappedString("a value", MAX_VALUE_CHARS).describe("New value"),
    submit: z.boolean().optional().describe(
      "Press Enter after, to send its form (fails if the form was not sent)",
    ),
    ...actingFields,
  }),
  async handler(ctx, args) {
    checkTarget(args, "fill", { allowCoords: false });
    const edited: { before?: string; after: string } = { after: args.value };
    const out = await runAction(ctx, { ...args, submits: args.submit === true }, {
      type: "fill",
      quietFromInput: true,
      // What the field held is set once read (a secret's value is not compared: the row shows
      // it masked, if at all).
      ...(args.value.includes("{{secret:") ? {} : { edited }),
      target: args,
      toControl: true,
      actionability: { enabled: true, editable: true },
      ...(args.submit ? { actionInfo: { submit: true } } : {}),
      ...(args.value.length >= HEAVY_VALUE_CHARS
        ? { heavyInput: `the value is ${args.value.length.toLocaleString("en-US")} characters` }
        : {}),
      async perform(c) {
        const { page, target, signal } = c;
        if (target?.kind !== "element") return;
        const shown = target.handle.shown;
        const warnings: string[] = [];
        const preparing = callOnHandle(target.handle, "prepareFill", [shownForPage(target.handle)]);
        // Enter's submission watch goes out with prepareFill (answered in order, no round trip).
        const watch = args.submit ? startEnterWatch(target.handle) : undefined;
        // Asked beside prepareFill (no round trip in sequence): a change listener waits for blur.
        // The warning needs the delta (only the field's line changed): not asked without one.
        const onChange = watch || args.snapshot === "none"
          ? undefined
          : listensForChange(page, target.handle);
        /** What the field should hold once the page settled (undefined: not judged). */
        let expected: string | undefined = args.value;
        let prep;
        /** Checks what the field holds before `submit`'s Enter (set once the value went in). */
        let beforeEnter: (() => Promise<void>) | undefined;
        try {
          prep = await preparing;
          if ("changed" in prep) {
            throw reusedDuringAction(
              shown!,
              prep.changed,
              "nothing was typed",
              "as it took the focus (the field typed in before committed its edit and the page re-rendered)",
            );
          }
          const { kind } = prep;
          if (!prep.secret && prep.was !== undefined) edited.before = prep.was;
          const { keyboard } = inputOf(page);
          if (kind === "set") {
            const r = await callOnHandle(target.handle, "setValue", [args.value]);
            if ("rejected" in r) throw rejectedValue(args.value, r.rejected, r.restored);
          } else if (args.value === "") {
            await keyboard.press("Delete", { signal });
          } else {
            // Focus may have moved since prepareFill focused the field (a focus handler).
            await checkFocusStaysHome(
              page,
              { typed: 0, of: [...args.value].length },
              target.handle,
            );
            await keyboard.insertText(args.value, { signal });
            // Before Enter, what the field holds is read now, answered before Enter's task
            // turn (no round trip in sequence): its page may empty it once the form went. A
            // plain fill's is read by the result's element probe.
            const reading = kind === "limited" || (watch && kind === "text")
              ? callOnHandle(target.handle, "fieldKept")
              : undefined;
            reading?.catch(() => {});
            if (kind === "limited") {
              const field = await reading!;
              const kept = keptOutcome(args.value, field);
              if (kept && "error" in kept) {
                throw await putBack(target.handle, { value: args.value, was: prep.was }, field!);
              }
              if (kept) {
                warnings.push(kept.warning);
                expected = field?.value;
              }
            }
            const asked = expected === undefined ? undefined : askedOf(expected, prep);
            if (watch && reading && asked) {
              beforeEnter = async () => {
                const field = await reading;
                if (!field) return;
                // A field its input handler emptied or set back: its form is not sent.
                const now = field.value ?? (field.length ? "••••" : "");
                const undone = valueOutcome(asked, { value: now });
                if (undone && "error" in undone) throw notSent(undone.error);
              };
            }
          }
        } catch (e) {
          if (watch) dropEnterWatch(target.handle, watch);
          throw e;
        }
        // Enter in a form's field: tells whether the form really went (validation may stop it).
        // (Its page may empty the field once it sent it: what it holds after is not judged.)
        if (watch) {
          const sent = await pressEnterAndWatch(c, watch, { beforeEnter });
          if (!warnings.length) return sent;
          const prior = Array.isArray(sent.warnings) ? sent.warnings as string[] : [];
          return { ...sent, warnings: [...warnings, ...prior] };
        }
        // What the page's handlers left in the field, read by the result's element probe.
        const asked = askedOf(expected ?? "", prep);
        // Typing fires no change event until the field loses focus (as a person's would): a
        // page that recomputes on change shows nothing yet (said only when nothing else moved).
        const typed = prep.kind === "text" || prep.kind === "limited";
        const waitsForBlur = typed && await onChange;
        return {
          ...(warnings.length ? { warnings } : {}),
          ...(waitsForBlur ? { warningsUnlessChanged: [CHANGE_ON_BLUR] } : {}),
          checkElement: (el) =>
            (expected === undefined ? undefined : valueOutcome(asked, el)) ?? rangeOutcome(el),
        };
      },
    });
    // The page sent the form but the policy stopped its request: nothing went.
    if (out.structured.error?.code === "blocked-by-policy") delete out.structured.submitted;
    return out;
  },
});
