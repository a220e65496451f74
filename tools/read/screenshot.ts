/**
 * `screenshot`: the viewport, the full page, or one element, as an image.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { DEFAULT_TIMEOUT_MS, sessionField, targetFields, timeoutField } from "../fields.ts";
import { leftAfterTurn } from "../../browser/timeouts.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { callOnHandle, callUtility, releaseHandle } from "../../browser/injected/mod.ts";
import { frameOffset } from "../../browser/actions/frame_chain.ts";
import { checkTarget, resolveTarget } from "../../browser/actions/target.ts";
import { withSecretsCovered } from "../../browser/screenshot/screenshot_cover.ts";
import {
  checkOutputPath,
  requireFileWrite,
  writeOutputFile,
} from "../../browser/recording/output_file.ts";
import { fromBase64 } from "../../storage/cache_storage.ts";
import { imageSize } from "../../browser/screenshot/image_size.ts";

/** Longest side of a screenshot, CSS px: vision models refuse larger images. */
export const MAX_SCREENSHOT_SIDE = 8000;
/** An inline image larger than this (bytes) gets a warning naming the smaller ways. */
const INLINE_WARN_BYTES = 512 * 1024;

/** The `screenshot` tool. */
export const screenshotTool = defineTool({
  name: "screenshot",
  title: "Screenshot",
  description:
    "Capture the viewport, full page or one element (ref/selector) as PNG/JPEG. For pixels; read the page with snapshot. Secrets are boxed over.",
  capability: "read",
  toolset: "core",
  // Not read-only: with `path` it writes (and may replace) a file in the workspace.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    format: z.string(),
    width: z.number(),
    height: z.number(),
    cssWidth: z.number(),
    cssHeight: z.number(),
    bytes: z.number(),
    ref: z.string(),
    fullPage: z.boolean(),
    secretsCovered: z.number(),
    warnings: z.array(z.string()),
    path: z.string(),
    absolutePath: z.string(),
  }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    fullPage: z.boolean().optional().describe("Whole scrollable page"),
    format: z.enum(["png", "jpeg"]).optional().describe("Default png"),
    quality: z.number().int().min(0).max(100).optional().describe("JPEG only"),
    scale: z.number().min(0.1).max(1).optional(),
    path: z.string().optional().describe("Save to this workspace file"),
    includeImage: z.boolean().optional().describe("With path: the image too"),
    timeoutMs: timeoutField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const kind = checkTarget(args, "screenshot", { optional: true, allowCoords: false });
    if (kind && args.fullPage) {
      throw new ToolError(
        "invalid-argument",
        "Give either a target or fullPage, not both",
        "drop fullPage for an element screenshot",
      );
    }
    if (args.quality !== undefined && args.format !== "jpeg") {
      throw new ToolError(
        "invalid-argument",
        "quality applies to jpeg only",
        'add format: "jpeg" or drop quality',
      );
    }
    if (args.path !== undefined) {
      requireFileWrite(ctx, "screenshot", 'omit "path" to get the image in the result');
      await checkOutputPath(ctx, args.path);
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const started = ctx.elapsedMs?.() ?? 0;
    return await session.exclusive(async () => {
      const page = await session.page();
      // A wait for the session's turn is spent from timeoutMs (the browser start is not).
      const timeoutMs = leftAfterTurn(
        "screenshot",
        args.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        (ctx.elapsedMs?.() ?? 0) - started,
      );
      const warnings: string[] = [];
      const format = args.format ?? "png";
      // A long page at 1:1 is megabytes inline: scale shrinks the image, not what it shows.
      const scale = args.scale ?? 1;
      let clip: { x: number; y: number; width: number; height: number; scale: number } | undefined;
      let captureBeyondViewport = false;
      if (kind) {
        const target = await resolveTarget(session, page, args, {
          deadline: Date.now() + timeoutMs,
          signal: ctx.signal,
        });
        if (target.kind !== "element") {
          throw new ToolError(
            "invalid-argument",
            "Element screenshots need a ref or selector",
            "pass ref",
          );
        }
        try {
          const probe = await callOnHandle(target.handle, "probe", [{}]);
          if (probe.state !== "ok") {
            throw new ToolError(
              "not-visible",
              "The element is not visible, so it has no pixels to capture",
              "take a snapshot and pick a visible element",
            );
          }
          await callOnHandle(target.handle, "scrollIntoViewIfNeeded");
          const { box } = await callOnHandle(
            target.handle,
            "stableBox",
          );
          const off = await frameOffset(page, target.handle.frameId);
          const scroll = await callUtility(
            page,
            page.mainFrameId,
            "scrollInfo",
            [null],
          );
          clip = {
            x: off.x + box.x * off.scaleX + scroll.x,
            y: off.y + box.y * off.scaleY + scroll.y,
            width: Math.min(Math.max(1, box.width * off.scaleX), MAX_SCREENSHOT_SIDE),
            height: Math.min(Math.max(1, box.height * off.scaleY), MAX_SCREENSHOT_SIDE),
            scale,
          };
          captureBeyondViewport = true;
        } finally {
          releaseHandle(target.handle);
        }
      } else if (args.fullPage) {
        const m = await page.session.send("Page.getLayoutMetrics");
        const size = m.cssContentSize;
        clip = {
          x: 0,
          y: 0,
          width: Math.min(Math.ceil(size.width), MAX_SCREENSHOT_SIDE),
          height: Math.min(Math.ceil(size.height), MAX_SCREENSHOT_SIDE),
          scale,
        };
        if (size.height > MAX_SCREENSHOT_SIDE || size.width > MAX_SCREENSHOT_SIDE) {
          warnings.push(
            `the page is ${Math.ceil(size.width)}x${
              Math.ceil(size.height)
            } px; captured the top-left ${clip.width}x${clip.height} (images are capped at ${MAX_SCREENSHOT_SIDE} px a side)`,
          );
        }
        captureBeyondViewport = true;
      } else if (scale !== 1) {
        // The viewport, as a clip: only a clip carries a scale.
        const v = (await page.session.send("Page.getLayoutMetrics")).cssVisualViewport;
        clip = { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale };
      }
      // Under masking, boxes cover every element that shows a secret while the image is taken.
      const { result: shot, covered } = await withSecretsCovered(
        page,
        () =>
          page.session.send("Page.captureScreenshot", {
            format,
            ...(format === "jpeg" ? { quality: args.quality ?? 80 } : {}),
            ...(clip ? { clip } : {}),
            captureBeyondViewport,
          }, { timeoutMs, signal: ctx.signal }),
      );
      const data = fromBase64(shot.data);
      let cssWidth = clip?.width, cssHeight = clip?.height;
      if (!clip) {
        const m = await page.session.send("Page.getLayoutMetrics");
        cssWidth = m.cssVisualViewport.clientWidth;
        cssHeight = m.cssVisualViewport.clientHeight;
      }
      // width/height are the image's own pixels (CSS px times the device scale factor under
      // emulation); the CSS size is reported beside them when it differs.
      const size = imageSize(data);
      const css = { width: Math.round(cssWidth ?? 0), height: Math.round(cssHeight ?? 0) };
      const width = size?.width ?? css.width, height = size?.height ?? css.height;
      // With a path the file is the answer; the image rides along only when asked for.
      const file = args.path === undefined
        ? undefined
        : await writeOutputFile(ctx, args.path, data);
      if (!file && data.length > INLINE_WARN_BYTES) {
        warnings.push(
          `the image is ${
            Math.round(data.length / 1024)
          } KiB inline: pass path to save it to a file${
            format === "png" ? ', format: "jpeg" (smaller)' : ""
          }${scale === 1 ? ", scale: 0.5" : ""}, or a ref for one element`,
        );
      }
      return {
        structured: {
          ...(file ?? {}),
          format,
          width,
          height,
          ...(css.width !== width || css.height !== height
            ? { cssWidth: css.width, cssHeight: css.height }
            : {}),
          bytes: file?.bytes ?? data.length,
          ...(args.ref ? { ref: args.ref } : {}),
          ...(args.fullPage ? { fullPage: true } : {}),
          ...(covered ? { secretsCovered: covered } : {}),
          ...(warnings.length ? { warnings } : {}),
        },
        ...(!file || args.includeImage
          ? { images: [{ data: shot.data, mimeType: `image/${format}` }] }
          : {}),
      };
    });
  },
});
