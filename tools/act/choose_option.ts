/**
 * `choose_option`: pick an option of a custom combobox, listbox or menu (or a native
 * `<select>`) by its visible text.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { actingFields, submitsField, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { chooseOption } from "../../browser/actions/option_choice.ts";

/** The `choose_option` tool. */
export const chooseOptionTool = defineTool({
  name: "choose_option",
  title: "Choose option",
  description:
    "Pick an option by its text in a custom or native combobox, listbox or menu: opens it, scrolls the list, clicks the option. ActionResult; element.ownerControl: before/after.",
  capability: "action",
  toolset: "power",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ options: z.array(z.string()) }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    option: z.string().min(1).describe("Option text"),
    exact: z.boolean().optional().describe("Default true; false: part, any case"),
    ...actingFields,
    ...submitsField,
  }),
  handler(ctx, args) {
    checkTarget(args, "choose_option", { allowCoords: false });
    const exact = args.exact ?? true;
    return runAction(ctx, args, {
      type: "choose_option",
      target: args,
      toControl: true,
      actionability: { enabled: true, hitTest: true },
      actionInfo: { option: args.option, ...(exact ? {} : { exact }) },
      perform: (c) => chooseOption(c, { option: args.option, exact }),
    });
  },
});
