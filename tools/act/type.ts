/**
 * `type`: type text into the focused element, key by key.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { inputOf } from "../actions/devices.ts";
import { actingFields, runAction } from "../actions/run_action.ts";

/** The `type` tool. */
export const typeTool = defineTool({
  name: "type",
  title: "Type text",
  description:
    "Type text into the focused element key by key (keydown/keypress/input/keyup), as a user would. Click or fill a field first to focus it. Returns the ActionResult.",
  capability: "action",
  toolset: "core",
  annotations: { openWorldHint: true },
  inputSchema: z.object({
    text: z.string().min(1).describe("Text to type; \\n presses Enter"),
    ...actingFields,
  }),
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "type",
      async perform({ page }) {
        await inputOf(page).keyboard.type(args.text);
      },
    });
  },
});
