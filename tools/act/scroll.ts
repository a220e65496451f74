/**
 * `scroll`: scroll the window, an element into view, within a container,
 * or with the wheel at a point; returns scroll geometry.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ACTION_RESULT_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callOnHandle, callUtility, nextFrame, withSignal } from "../../browser/injected/mod.ts";
import { inputOf } from "../../browser/actions/devices.ts";
import { actingFields, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import type { ScrollInfo } from "../../browser/injected/page_types.ts";

/** The `scroll` tool. */
export const scrollTool = defineTool({
  name: "scroll",
  title: "Scroll",
  description:
    "Scroll. No target: the window (to or by). ref/selector alone: into view; with to/by: inside that container. coords + by: mouse wheel there. Returns element.scroll (atTop, atBottom, scrollHeight…).",
  capability: "navigation",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: ACTION_RESULT_OUTPUT,
  inputSchema: z.object({
    ...targetFields,
    to: z.enum(["top", "bottom", "left", "right"]).optional().describe("Edge"),
    by: z.object({
      x: z.number().optional().describe("+ = right"),
      y: z.number().optional().describe("+ = down"),
    }).optional().describe("CSS px"),
    intoView: z.boolean().optional().describe("With to/by on an element: also scroll it into view"),
    ...actingFields,
  }),
  handler(ctx, args) {
    const kind = checkTarget(args, "scroll", { optional: true });
    if (!kind && !args.to && !args.by) {
      throw new ToolError(
        "invalid-argument",
        "Nothing to scroll: give to or by (window), or a ref/selector (into view)",
        'e.g. scroll({ to: "bottom" }) or scroll({ ref: "e12" })',
      );
    }
    if (kind === "coords" && !args.by) {
      throw new ToolError(
        "invalid-argument",
        "Wheel scrolling at coords needs by",
        "e.g. { coords: {x, y}, by: { y: 300 } }",
      );
    }
    return runAction(ctx, args, {
      type: "scroll",
      ...(kind ? { target: args } : {}),
      actionInfo: { ...(args.to ? { to: args.to } : {}), ...(args.by ? { by: args.by } : {}) },
      async perform({ page, target, signal }) {
        let scroll: unknown;
        if (!target) {
          scroll = await callUtility(page, page.mainFrameId, "scrollElement", [
            null,
            args.to,
            args.by,
          ]);
        } else if (target.kind === "coords") {
          await inputOf(page).mouse.wheel(target.x, target.y, {
            deltaX: args.by?.x ?? 0,
            deltaY: args.by?.y ?? 0,
            signal,
          });
          // Wheel scrolling is asynchronous: let it land before measuring.
          await nextFrame(page, page.mainFrameId);
          scroll = await callUtility(page, page.mainFrameId, "scrollInfo", [null]);
        } else {
          const container = !!(args.to || args.by);
          if (!container || args.intoView) {
            await callOnHandle(target.handle, "scrollIntoViewIfNeeded");
          }
          scroll = container
            ? await callOnHandle(target.handle, "scrollElement", [args.to, args.by])
            : await callUtility(page, target.handle.frameId, "scrollInfo", [null]);
        }
        // A scroll can make the page load more (an infinite feed): the geometry the result
        // gives is read again once the window settled, as the delta shows the page.
        const frameId = target?.kind === "element" ? target.handle.frameId : page.mainFrameId;
        const container = target?.kind === "element" && !!(args.to || args.by);
        const moved = scroll as ScrollInfo;
        return {
          element: { scroll },
          ...(moved.moved === false
            ? { warnings: [unmoved(moved, { ...args, targeted: !!target })] }
            : {}),
          settledElement: async (s: AbortSignal) => {
            const now = container && target?.kind === "element"
              ? await callOnHandle(withSignal(target.handle, s), "scrollElement")
              : await callUtility(page, frameId, "scrollInfo", [null], { signal: s });
            // What was scrolled and whether it moved are the scroll's, not the re-read's.
            return { scroll: { ...now, ...pickScroll(moved) } };
          },
        };
      },
    });
  },
});

/** The scroll's own facts kept over the settled re-read: what it scrolled, whether it moved. */
function pickScroll(info: ScrollInfo): Partial<ScrollInfo> {
  return {
    ...(info.container ? { container: info.container } : {}),
    ...(info.moved === false ? { moved: false } : {}),
  };
}

/** The warning of a to/by scroll that moved nothing: which edge it is already at. */
function unmoved(
  info: ScrollInfo,
  args: {
    to?: string | undefined;
    by?: { x?: number | undefined; y?: number | undefined } | undefined;
    /** An element was given (else the window scrolled). */
    targeted: boolean;
  },
): string {
  const what = info.container ?? (args.targeted ? "the element" : "the page");
  const y = args.by?.y ?? 0, x = args.by?.x ?? 0;
  const edge = args.to ??
    (y > 0 ? "bottom" : y < 0 ? "top" : x > 0 ? "right" : x < 0 ? "left" : undefined);
  if (info.scrollHeight <= info.clientHeight && info.scrollWidth <= info.clientWidth) {
    return `nothing scrolled: ${what} does not scroll (no content beyond its box)`;
  }
  return `nothing scrolled: ${what} is already at the ${edge ?? "requested position"}`;
}
