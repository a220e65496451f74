/**
 * `select`: choose an option of a native `<select>`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput, anyObject } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callOnHandle, shownForPage } from "../../browser/injected/mod.ts";
import { reusedDuringAction } from "../../browser/snapshot/resolve.ts";
import {
  actingFields,
  cappedString,
  MAX_QUERY_CHARS,
  submitsField,
  targetFields,
} from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { requireOne } from "../../browser/actions/action_spec.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { selectOutcome } from "../../browser/actions/field_kept.ts";

/** The `select` tool. */
export const selectTool = defineTool({
  name: "select",
  title: "Select option",
  description:
    "Choose an option of a native <select> by exactly one of value, label or index; fires input and change.",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ selected: anyObject }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    value: cappedString("a value", MAX_QUERY_CHARS).optional().describe("Option value attribute"),
    label: cappedString("a label", MAX_QUERY_CHARS).optional().describe("Option visible label"),
    index: z.number().int().min(0).optional().describe("0-based option index"),
    ...actingFields,
    ...submitsField,
  }),
  handler(ctx, args) {
    checkTarget(args, "select", { allowCoords: false });
    const by = requireOne(args, ["value", "label", "index"], "select");
    return runAction(ctx, args, {
      type: "select",
      target: args,
      toControl: true,
      actionability: { enabled: true },
      actionInfo: { [by]: args[by as "value"] },
      async perform({ target }) {
        if (target?.kind !== "element") return;
        const r = await callOnHandle(
          target.handle,
          "selectOption",
          [{ [by]: args[by as "value"] }, shownForPage(target.handle)],
        );
        if (r.changed && target.handle.shown) {
          throw reusedDuringAction(
            target.handle.shown,
            r.changed,
            "nothing was chosen",
            "as it took the focus (a focus handler re-rendered the list)",
          );
        }
        if (r.error) {
          // A value given as the label (or the other way round): say which field it is.
          const asked = String(args[by as "value"]).trim().toLowerCase();
          const other = by === "value" ? "label" : by === "label" ? "value" : undefined;
          const near = other &&
            r.options?.find((o) => String(o[other]).trim().toLowerCase() === asked);
          throw new ToolError(
            r.options ? "not-found" : "invalid-argument",
            `Cannot select: ${r.error} with ${by} ${JSON.stringify(args[by as "value"])}`,
            near && other
              ? `an option has that ${other}: pass ${other}: ${JSON.stringify(near[other])}`
              : r.options
              ? `pick one of the options: ${JSON.stringify(r.options)}`
              : "target a native <select>; for custom dropdowns click the trigger, then the option",
          );
        }
        const asked = { value: r.value ?? "", label: r.label ?? "", was: r.was };
        const many = r.multiple;
        const dropped = many?.was.filter((l) => !many.now.includes(l)) ?? [];
        const warnings = [
          ...dropped.length
            ? [
              `select replaced the selection of this <select multiple>: ${
                JSON.stringify(dropped)
              } no longer selected, now selected ${
                JSON.stringify(many!.now)
              }; to select several, use fill_form (forms toolset) with an array of values`,
            ]
            : [],
          ...r.caseFolded
            ? [
              `no option is labelled exactly ${JSON.stringify(args.label)}: chose ${
                JSON.stringify(r.label)
              }, the one option with that label in another case`,
            ]
            : [],
        ];
        return {
          // A multiple select: all it holds now (the choice replaced the selection).
          selected: { value: r.value, label: r.label, ...(many ? { all: many.now } : {}) },
          ...(warnings.length ? { warnings } : {}),
          // What the page's change handler left, read by the result's element probe.
          checkElement: (el) => selectOutcome(asked, el),
        };
      },
    });
  },
});
