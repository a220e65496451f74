/**
 * `styles_write`: set or remove one inline CSS property of an element, live (seed 003).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { actingFields, targetFields } from "../fields.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { writeStyle } from "../../browser/inspect/element_styles.ts";

/** The `styles_write` tool. */
export const stylesWriteTool = defineTool({
  name: "styles_write",
  title: "Write style",
  description:
    "Set an inline CSS property on an element, live until the next navigation. ActionResult with inline_style.",
  capability: "action",
  toolset: "power",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ inline_style: z.string(), computed: z.string() }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    property: z.string().min(1).describe("e.g. background-color"),
    value: z.string().describe('e.g. #101418; "" removes it'),
    important: z.boolean().optional().describe("Add !important"),
    ...actingFields,
  }),
  handler(ctx, args) {
    checkTarget(args, "styles_write", { allowCoords: false });
    const important = args.important ?? false;
    return runAction(ctx, args, {
      type: "styles_write",
      target: args,
      actionInfo: {
        property: args.property,
        value: args.value,
        ...(important ? { important } : {}),
      },
      async perform({ target, signal }) {
        if (target?.kind !== "element") return;
        return { ...await writeStyle(target.handle, { ...args, important }, signal) };
      },
    });
  },
});
