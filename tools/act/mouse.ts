/**
 * `mouse`: raw pointer input at viewport coordinates, for canvases and maps. The tab's mouse
 * keeps its position and held buttons between calls (browser/actions/devices.ts), so `down`,
 * then `move`s, then `up` is a drag.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actingFields, submitsField } from "../fields.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { ToolError } from "../../browser/tool_error.ts";
import type { Keyboard } from "../../cdp/input.ts";
import type { Mouse } from "../../cdp/mouse_input.ts";
import { claimForCall } from "../../browser/sessions/shared_clipboard.ts";

type Modifier = "Alt" | "Control" | "Meta" | "Shift";

/** The `mouse` tool. */
export const mouseTool = defineTool({
  name: "mouse",
  title: "Mouse",
  description:
    "Raw mouse input at viewport coords (canvas, maps). Buttons stay held between calls: down, move…, up drags.",
  capability: "action",
  toolset: "power",
  annotations: { destructiveHint: true, openWorldHint: true },
  inputSchema: z.object({
    action: z.enum(["move", "down", "up", "wheel", "click"]),
    x: z.number().describe("Viewport CSS px"),
    y: z.number(),
    button: z.enum(["left", "right", "middle"]).optional().describe("Default left"),
    deltaX: z.number().optional().describe("wheel: + = right"),
    deltaY: z.number().optional().describe("wheel: + = down"),
    clickCount: z.number().int().min(1).max(3).optional().describe("2: double click"),
    modifiers: z.array(z.enum(["Alt", "Control", "Meta", "Shift"])).optional().describe(
      "Keys held",
    ),
    ...actingFields,
    ...submitsField,
  }),
  outputSchema: ACTION_RESULT_OUTPUT,
  handler(ctx, args) {
    const { action } = args;
    const wheel = args.deltaX !== undefined || args.deltaY !== undefined;
    if (action === "wheel" && !args.deltaX && !args.deltaY) {
      throw new ToolError(
        "invalid-argument",
        "wheel needs deltaX or deltaY (CSS px, not 0)",
        'e.g. mouse({ action: "wheel", x, y, deltaY: -100 }) zooms in on most maps',
      );
    }
    if (action !== "wheel" && wheel) {
      throw new ToolError(
        "invalid-argument",
        `deltaX/deltaY are for wheel, not ${action}`,
        `drop them, or use action "wheel"`,
      );
    }
    if (args.clickCount !== undefined && (action === "move" || action === "wheel")) {
      throw new ToolError(
        "invalid-argument",
        `clickCount is for click, down and up, not ${action}`,
        "drop clickCount",
      );
    }
    const button = args.button ?? "left";
    return runAction(ctx, args, {
      type: "mouse",
      // runAction checks the point is inside the viewport (the error gives its size).
      target: { coords: { x: args.x, y: args.y } },
      actionInfo: {
        action,
        ...(args.button && action !== "move" && action !== "wheel" ? { button } : {}),
        ...(wheel ? { deltaX: args.deltaX ?? 0, deltaY: args.deltaY ?? 0 } : {}),
      },
      async perform({ session, page, signal }) {
        // A middle button's release pastes the selection (see click.ts).
        if (button === "middle") await claimForCall(session);
        const { mouse } = inputOf(page);
        const { x, y } = args;
        await holding(mouse.keyboard, args.modifiers ?? [], signal, async () => {
          const at = () =>
            mouse.position.x === x && mouse.position.y === y
              ? Promise.resolve()
              : mouse.move(x, y, { signal });
          const clickCount = args.clickCount ?? 1;
          switch (action) {
            case "move":
              return await mouse.move(x, y, { signal });
            case "down":
              await at();
              return await mouse.down({ button, clickCount, signal });
            case "up":
              await at();
              return await mouse.up({ button, clickCount, signal });
            case "wheel":
              return await mouse.wheel(x, y, {
                deltaX: args.deltaX ?? 0,
                deltaY: args.deltaY ?? 0,
                signal,
              });
            case "click":
              return await mouse.click(x, y, { button, clickCount, signal });
          }
        });
        const pointer = pointerState(mouse);
        // Other pointer tools move this same mouse: with a button held, their moves drag.
        const held = pointer.buttons.length
          ? [`${pointer.buttons.join("+")} button held: release it with mouse up when done`]
          : [];
        return { pointer, ...(held.length ? { warnings: held } : {}) };
      },
    });
  },
});

/** Runs `fn` with the modifier keys not already held pressed, releasing them after. */
async function holding(
  keyboard: Keyboard,
  modifiers: readonly Modifier[],
  signal: AbortSignal | undefined,
  fn: () => Promise<void>,
): Promise<void> {
  const held: Modifier[] = [];
  try {
    for (const m of modifiers) {
      if (keyboard.isHeld(m) || held.includes(m)) continue;
      held.push(m);
      await keyboard.down(m, { signal });
    }
    await fn();
  } finally {
    for (const m of held.reverse()) await keyboard.up(m).catch(() => {});
  }
}

/** Where the pointer is and which buttons it holds after the call. */
function pointerState(mouse: Mouse): { x: number; y: number; buttons: string[] } {
  const b = mouse.buttons;
  const names = (["left", "right", "middle"] as const).filter((_, i) => (b & (1 << i)) !== 0);
  return { ...mouse.position, buttons: names };
}
