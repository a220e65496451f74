/**
 * `hover`: move the pointer over an element or point.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { pointerAction } from "../../browser/actions/pointer.ts";
import { actingFields, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";

/** The `hover` tool. */
export const hoverTool = defineTool({
  name: "hover",
  title: "Hover",
  description:
    "Move the pointer over an element (ref, selector) or coords, e.g. to open a menu or tooltip.",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: ACTION_RESULT_OUTPUT,
  inputSchema: z.object({ ...targetFields, ...actingFields }),
  handler(ctx, args) {
    checkTarget(args, "hover");
    return runAction(ctx, args, {
      type: "hover",
      quietFromInput: true,
      target: args,
      actionability: { hitTest: true },
      async perform({ page, point, target, elementPoint, deadline, signal }) {
        if (target?.kind === "element" && elementPoint) {
          await pointerAction(page, target.handle, { deadline, signal, start: elementPoint });
        } else await inputOf(page).mouse.move(point!.x, point!.y, { signal });
      },
    });
  },
});
