/**
 * Screenshots under masking: before capture, every element whose text or
 * value shows a registered secret gets an opaque box ({@link COVER_COLOR}),
 * in every frame of the tab; after capture the page is restored.
 *
 * The page never receives a value: each frame lists its text nodes and its
 * text controls' values (`secret_lib.ts` `coverScan`), the server finds the
 * values in them (`SecretStore.spans`, the same forms masking knows) and
 * names the nodes to cover by index. Text nodes are searched as one string
 * per frame, so a value split over elements (`<b>hun</b>ter2`) is found and
 * each part's element covered. Not covered: values a page draws itself
 * (canvas, images, CSS `content`), and transformed values masking does not
 * know either.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { SecretStore } from "../../policy/secrets.ts";
import { ToolError } from "../errors.ts";
import { callUtility } from "../injected/mod.ts";
import { currentMasker } from "../secret_scope.ts";

/** The colour of the boxes drawn over secrets (opaque black). */
export const COVER_COLOR = "rgb(0, 0, 0)";

/** Which text nodes (by index) hold part of a value, given the frame's text nodes in order. */
export function coveredTextNodes(texts: readonly string[], masker: SecretStore): number[] {
  const spans = masker.spans(texts.join(""));
  if (!spans.length) return [];
  const out: number[] = [];
  let start = 0;
  let s = 0;
  for (const [i, t] of texts.entries()) {
    const end = start + t.length;
    // Spans are in order: skip those that ended before this node.
    while (s < spans.length && spans[s]![1] <= start) s++;
    if (s < spans.length && spans[s]![0] < end && t.length) out.push(i);
    start = end;
  }
  return out;
}

/**
 * Runs `capture` with the tab's secrets covered (when the call's results
 * are masked; otherwise runs it as is). CDP: `Runtime.evaluate` in each
 * frame's utility world (`coverScan`, `coverApply`, `nextFrame`, `coverRemove`).
 *
 * @returns what `capture` returns, and how many elements were covered.
 * @throws ToolError `refused` when a frame could not be
 *   checked (fails closed: no image rather than an uncovered one).
 */
export async function withSecretsCovered<T>(
  page: Page,
  capture: () => Promise<T>,
): Promise<{ result: T; covered: number }> {
  const masker = currentMasker();
  if (!masker) return { result: await capture(), covered: 0 };
  const touched: string[] = [];
  let covered = 0;
  try {
    for (const frame of page.frames()) {
      let found: { texts: string[]; values: string[] };
      try {
        found = await callUtility(page, frame.frameId, "coverScan");
      } catch (e) {
        throw new ToolError(
          "refused",
          `Could not check a frame (${
            frame.url || frame.frameId
          }) for secrets before the screenshot: ${(e as Error).message}`,
          "try again once the page has loaded",
        );
      }
      const texts = coveredTextNodes(found.texts, masker);
      const values = found.values.flatMap((v, i) => masker.contains(v) ? [i] : []);
      if (!texts.length && !values.length) continue;
      touched.push(frame.frameId);
      covered += await callUtility<number>(page, frame.frameId, "coverApply", [
        texts,
        values,
        COVER_COLOR,
      ]);
    }
    // Let every touched frame paint its boxes before the capture.
    await Promise.all(touched.map((id) => callUtility(page, id, "nextFrame").catch(() => {})));
    return { result: await capture(), covered };
  } finally {
    await Promise.all(touched.map((id) => callUtility(page, id, "coverRemove").catch(() => {})));
  }
}
