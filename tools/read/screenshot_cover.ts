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
 * each part's element covered; invisible characters (zero-width spaces) are
 * dropped first. Controls are covered when their value, placeholder or (a
 * select) an option's text shows a value. Closed shadow roots are reached
 * through CDP (`closed_roots.ts`). Not covered: values a page draws itself
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
import { handOverClosedRoots } from "./closed_roots.ts";

/** The colour of the boxes drawn over secrets (opaque black). */
export const COVER_COLOR = "rgb(0, 0, 0)";

/**
 * Characters that draw nothing (zero-width spaces and joiners, word joiner,
 * BOM, soft hyphen, Mongolian vowel separator, invisible operators): a page
 * that puts them between a value's letters shows the value while the text
 * holds no match. Dropped before looking for values.
 */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]/;

/** `text` without {@link INVISIBLE} characters. */
export function visibleOnly(text: string): string {
  return text.replace(new RegExp(INVISIBLE.source, "g"), "");
}

/**
 * Which text nodes (by index) hold part of a value, given the frame's text
 * nodes in order. The nodes are searched as one string without invisible
 * characters, so a value split over elements or by zero-width spaces is found.
 */
export function coveredTextNodes(texts: readonly string[], masker: SecretStore): number[] {
  // The visible characters, and for each the node it came from.
  let joined = "";
  const owner: number[] = [];
  for (const [i, t] of texts.entries()) {
    for (let k = 0; k < t.length; k++) {
      if (INVISIBLE.test(t[k]!)) continue;
      joined += t[k];
      owner.push(i);
    }
  }
  const out = new Set<number>();
  for (const [start, end] of masker.spans(joined)) {
    for (let k = start; k < end; k++) out.add(owner[k]!);
  }
  return [...out].sort((a, b) => a - b);
}

/** Which controls (by index) show a value, given what each shows (value, placeholder, options). */
export function coveredControls(
  shown: ReadonlyArray<string | readonly string[]>,
  masker: SecretStore,
): number[] {
  return shown.flatMap((v, i) =>
    (typeof v === "string" ? [v] : v).some((x) => masker.contains(visibleOnly(x))) ? [i] : []
  );
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
  const trees = new Map<unknown, Promise<number[]>>();
  let covered = 0;
  try {
    for (const frame of page.frames()) {
      let found: { texts: string[]; values: string[][] };
      try {
        await handOverClosedRoots(page, frame.frameId, trees);
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
      const values = coveredControls(found.values, masker);
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
