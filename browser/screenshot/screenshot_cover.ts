/**
 * Screenshots under masking: before capture, opaque boxes
 * ({@link COVER_COLOR}) are drawn on top of everything that shows a
 * registered secret, in every frame of the tab (an overlay browxai owns, in
 * the top layer, so the page's transitions, `::selection` or `::placeholder`
 * colours cannot undo the cover). Copies the page paints away from the text
 * (a reflection, a drop shadow, a text shadow) are not under the boxes: while
 * they are drawn, each element holding a secret draws it as discs
 * (`-webkit-text-security`) without filter, reflection or text shadow, and its
 * ancestors lose theirs (`cover_lib.ts` `shield`). The page's scripts and animation clock are held from the scan to
 * the end of the check (`Emulation.setScriptExecutionDisabled`,
 * `Animation.setPlaybackRate`), so timers and CSS animations cannot move or
 * re-render a secret in between; after capture the page is scanned again
 * and the image retaken (then refused) if a secret moved out from under its box.
 *
 * The page never receives a value: each frame lists its text nodes and what
 * its controls and images show (`cover_lib.ts` `coverScan`), the server
 * finds the values in them (`SecretStore.spans`, the same forms masking
 * knows) and names the nodes to cover by index. Text nodes are searched as
 * one string per frame, so a value split over elements (`<b>hun</b>ter2`) is
 * found and each part covered; invisible characters (zero-width spaces) are
 * dropped first. Controls are covered when their value, placeholder or (a
 * select) an option's text shows a value; images when their alt text does.
 * Closed shadow roots are reached through CDP (`closed_roots.ts`). Not
 * covered: values a page draws itself (canvas, images, CSS `content`), and
 * transformed values masking does not know either.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import type { SecretStore } from "../../policy/secrets.ts";
import { ToolError } from "../tool_error.ts";
import { callUtility, nextFrame } from "../injected/mod.ts";
import type { CoverScan } from "../injected/page_types.ts";
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

/** How many times a screenshot is taken again when the page moved a secret during it. */
export const COVER_ATTEMPTS = 3;

/** What one frame's scan found to cover: indices into its `coverScan` lists. */
interface FrameFinds {
  frameId: string;
  texts: number[];
  values: number[];
}

/**
 * Scans every frame of the tab for shown secrets (`coverScan` after the
 * closed shadow roots are handed over), and lists the frames with any.
 *
 * @throws ToolError `refused` when a frame could not be checked.
 */
async function scanFrames(page: Page, masker: SecretStore): Promise<FrameFinds[]> {
  const trees = new Map<unknown, Promise<number[]>>();
  const out: FrameFinds[] = [];
  for (const frame of page.frames()) {
    let found: CoverScan;
    try {
      await handOverClosedRoots(page, frame.frameId, trees);
      found = await callUtility(page, frame.frameId, "coverScan");
    } catch (e) {
      throw new ToolError(
        "refused",
        `Could not check a frame (${
          frame.url || frame.frameId
        }) for secrets around the screenshot: ${(e as Error).message}`,
        "try again once the page has loaded",
      );
    }
    const union = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
    const texts = union(coveredTextNodes(found.texts, masker), found.held.texts);
    const values = union(coveredControls(found.values, masker), found.held.values);
    if (texts.length || values.length) out.push({ frameId: frame.frameId, texts, values });
  }
  return out;
}

/**
 * Stops the page's scripts in every target of the tab (timers, event
 * handlers, animation-frame callbacks) and its CSS animations' clock while
 * secrets are covered and captured, so the page cannot re-render or move a
 * secret between the cover and the capture. browxai's own utility-world
 * calls still run. CDP: `Emulation.setScriptExecutionDisabled`,
 * `Animation.setPlaybackRate` (0) per target session.
 *
 * @returns the sessions to {@link thaw}.
 */
async function freeze(page: Page): Promise<CdpSession[]> {
  const sessions = new Set<CdpSession>();
  for (const frame of page.frames()) {
    const s = await page.utilityContext(frame.frameId).then((c) => c.session).catch(() => null);
    if (s) sessions.add(s);
  }
  const out: CdpSession[] = [];
  for (const s of sessions) {
    const ok = await s.send("Emulation.setScriptExecutionDisabled", { value: true })
      .then(() => true, () => false);
    // CSS animations and transitions run without scripts: hold their clock too.
    await s.send("Animation.setPlaybackRate", { playbackRate: 0 }).catch(() => {});
    if (ok) out.push(s);
  }
  return out;
}

/** Lets the page's scripts run again (undoes {@link freeze}). */
async function thaw(sessions: CdpSession[]): Promise<void> {
  await Promise.all(
    sessions.flatMap((s) => [
      s.send("Emulation.setScriptExecutionDisabled", { value: false }).catch(() => {}),
      s.send("Animation.setPlaybackRate", { playbackRate: 1 }).catch(() => {}),
    ]),
  );
}

/**
 * Runs `capture` with the tab's secrets covered (when the call's results
 * are masked; otherwise runs it as is). Each frame that shows a secret gets
 * an overlay of opaque boxes on top of it (`coverDraw`: a top-layer popover
 * the page's styles and transitions do not reach); after one animation frame
 * the capture runs; then every frame is scanned again and each secret's
 * boxes must still lie inside drawn ones (`coverCheck`). If the page moved,
 * re-rendered or added one meanwhile, the image is thrown away and taken
 * again, up to {@link COVER_ATTEMPTS} times. CDP: `Runtime.evaluate` in each
 * frame's utility world, `DOM.getDocument`/`DOM.resolveNode` (closed roots).
 *
 * @returns what `capture` returns, and how many nodes were covered.
 * @throws ToolError `refused` when a frame could not be checked, or when the
 *   page kept moving a secret (fails closed: no image rather than an
 *   uncovered one).
 */
export async function withSecretsCovered<T>(
  page: Page,
  capture: () => Promise<T>,
): Promise<{ result: T; covered: number }> {
  const masker = currentMasker();
  if (!masker) return { result: await capture(), covered: 0 };
  const touched = new Set<string>();
  const frozen = await freeze(page);
  try {
    for (let attempt = 0; attempt < COVER_ATTEMPTS; attempt++) {
      const drawn = new Set<string>();
      let covered = 0;
      for (const f of await scanFrames(page, masker)) {
        touched.add(f.frameId);
        const r = await callUtility(page, f.frameId, "coverDraw", [
          f.texts,
          f.values,
          COVER_COLOR,
        ]);
        covered += r.covered;
        drawn.add(f.frameId);
      }
      // Let every touched frame paint its boxes before the capture.
      await Promise.all([...drawn].map((id) => nextFrame(page, id).catch(() => {})));
      const result = await capture();
      let held = true;
      for (const f of await scanFrames(page, masker)) {
        touched.add(f.frameId);
        held = drawn.has(f.frameId) &&
          await callUtility(page, f.frameId, "coverCheck", [f.texts, f.values])
            .catch(() => false);
        if (!held) break;
      }
      await Promise.all(
        [...drawn].map((id) => callUtility(page, id, "coverRemove").catch(() => {})),
      );
      if (held) return { result, covered };
    }
    throw new ToolError(
      "refused",
      `The page kept changing where a secret shows (${COVER_ATTEMPTS} screenshots, each with a secret moved, re-rendered or added while it was taken), so no image was returned`,
      "try again, or take an element screenshot (ref/selector) of a part without the secret",
    );
  } finally {
    await thaw(frozen);
    await Promise.all(
      [...touched].map((id) => callUtility(page, id, "coverDone").catch(() => {})),
    );
  }
}

/**
 * True when the call's results are masked and some frame of the tab shows a registered
 * secret (the scan {@link withSecretsCovered} makes): for captures that cannot be covered
 * by boxes (a PDF lays the page out again for print), so they refuse instead.
 *
 * @throws ToolError `refused` when a frame could not be checked.
 */
export async function pageShowsSecret(page: Page): Promise<boolean> {
  const masker = currentMasker();
  if (!masker) return false;
  try {
    return (await scanFrames(page, masker)).length > 0;
  } finally {
    await Promise.all(
      page.frames().map((f) => callUtility(page, f.frameId, "coverDone").catch(() => {})),
    );
  }
}
