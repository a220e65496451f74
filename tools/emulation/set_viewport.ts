/**
 * `set_viewport`: resizes the session's viewport and returns the document's
 * scroll geometry after the resize (`Runtime.evaluate`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { MAX_VIEWPORT, sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/**
 * The document scroller's geometry (the shape of scroll's `element.scroll`) and the viewport,
 * read after the next frame (a cleared override lands a frame late; a hidden tab, with no
 * frames, after 200 ms).
 */
const GEOMETRY = `new Promise((resolve) => {
  let done = false;
  const read = () => {
    if (done) return;
    done = true;
    const s = document.scrollingElement ?? document.documentElement;
    const x = Math.round(s.scrollLeft), y = Math.round(s.scrollTop);
    resolve({ x, y, scrollWidth: s.scrollWidth, scrollHeight: s.scrollHeight,
      clientWidth: s.clientWidth, clientHeight: s.clientHeight, atTop: y <= 0,
      atBottom: y + s.clientHeight >= s.scrollHeight - 1, innerWidth, innerHeight });
  };
  requestAnimationFrame(() => requestAnimationFrame(read));
  setTimeout(read, 200);
})`;

/** The `set_viewport` tool. */
export const setViewportTool = defineTool({
  name: "set_viewport",
  title: "Set viewport",
  description: "Resize the viewport; returns scroll geometry.",
  capability: "action",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: EMULATION_OUTPUT,
  inputSchema: z.object({
    width: z.number().min(1).max(MAX_VIEWPORT.width).nullable().describe("null: reset"),
    height: z.number().min(1).max(MAX_VIEWPORT.height).optional().describe("px"),
    deviceScaleFactor: z.number().min(0).max(5).optional().describe("DPR"),
    mobile: z.boolean().optional().describe("Mobile"),
    session: sessionField,
  }),
  handler(ctx, { width, height, deviceScaleFactor, mobile, session }) {
    if (width !== null && height === undefined) {
      throw new ToolError("invalid-argument", "set_viewport needs height with width", "pass both");
    }
    if (!Number.isInteger(width ?? 1) || !Number.isInteger(height ?? 1)) {
      throw new ToolError("invalid-argument", "width and height are whole CSS px", "round them");
    }
    const viewport = width === null ? null : {
      width,
      height: height!,
      ...(deviceScaleFactor !== undefined ? { deviceScaleFactor } : {}),
      ...(mobile !== undefined ? { mobile } : {}),
    };
    return emulate(ctx, session, { viewport }, async (s) => {
      const page = s.activePage;
      const geometry = page ? await page.evaluate(GEOMETRY, { timeoutMs: 5000 }) : null;
      return { geometry };
    });
  },
});
