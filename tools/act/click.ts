/**
 * `click`: click an element (ref, selector) or a viewport point.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { inputOf } from "../actions/devices.ts";
import { actingFields, runAction } from "../actions/run_action.ts";
import { checkTarget, targetFields } from "../actions/target.ts";

/** The `click` tool. */
export const clickTool = defineTool({
  name: "click",
  title: "Click",
  description:
    "Click an element by ref (from snapshot), selector, or viewport coords. Waits until it is visible, enabled and not covered (fails fast, naming any covering element). Returns what happened: navigation, new tabs, dialogs, errors, network writes, and the page delta.",
  capability: "action",
  toolset: "core",
  annotations: { destructiveHint: true, openWorldHint: true },
  inputSchema: z.object({
    ...targetFields,
    button: z.enum(["left", "right", "middle"]).optional().describe("Mouse button (default left)"),
    clickCount: z.number().int().min(1).max(3).optional().describe("2 for a double click"),
    modifiers: z.array(z.enum(["Alt", "Control", "Meta", "Shift"])).optional().describe(
      "Keys held during the click",
    ),
    ...actingFields,
  }),
  handler(ctx, args) {
    checkTarget(args, "click");
    return runAction(ctx, args, {
      type: "click",
      target: args,
      actionability: { enabled: true, hitTest: true },
      actionInfo: {
        ...(args.button && args.button !== "left" ? { button: args.button } : {}),
        ...(args.clickCount && args.clickCount > 1 ? { clickCount: args.clickCount } : {}),
      },
      async perform({ page, point }) {
        await inputOf(page).mouse.click(point!.x, point!.y, {
          button: args.button ?? "left",
          clickCount: args.clickCount ?? 1,
          modifiers: args.modifiers ?? [],
        });
      },
    });
  },
});
