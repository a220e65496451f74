/**
 * Selectors across frames: a CSS or `text=` selector with no match in the
 * main frame is looked for in the child frames (same-origin and
 * out-of-process iframes), in the order the snapshot shows them: each frame
 * before the frames nested in it, siblings in document order. Every frame is
 * queried through {@link queryElement}, so the masking rules hold in each.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { AbortError } from "../../cdp/errors.ts";
import { callUtility, type RemoteHandle } from "../injected/mod.ts";
import { contentFrameId } from "../snapshot/frame_owner.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { ToolError } from "../tool_error.ts";
import { queryElement, queryElementCount } from "./secret_query.ts";
import { refusePlaywrightSelector } from "./selector_forms.ts";
import type { AlikeFacts } from "../injected/page_types.ts";

/** Where a match was found when not in the main frame. */
export interface MatchFrame {
  /** The frame's URL. */
  url: string;
  /** The ref of the iframe element, when a snapshot issued one. */
  ref?: string;
  /** A selector's match: the other child frames it matches in too (`queryFrames`). */
  others?: Array<Omit<MatchFrame, "others">>;
}

/** A selector's match in some frame of the tab (see {@link queryFrames}). */
export interface FramesMatch {
  handle: RemoteHandle | undefined;
  /** How many elements match in the frame that matched. */
  matches: number;
  /** A `text=` choice note (`text_choice.ts`). */
  note?: string;
  /** Set when the match is in a child frame. */
  frame?: MatchFrame;
  /** Asked with `alike`: the matches alike the chosen one (`QueryMatch.alike`). */
  alike?: AlikeFacts[];
  /** The frame that matched (the main frame's when none did). */
  frameId?: string;
}

/** Deeper nesting than this is not searched (as the snapshot does not read it). */
const MAX_FRAME_DEPTH = 8;

/** What {@link searchFrames} found: the value, the frame it was found in, and where that is. */
export interface FrameFind<T> {
  value: T;
  /** The frame's id (the main frame's when found there). */
  frameId: string;
  /** Set when found in a child frame. */
  frame?: MatchFrame;
}

/**
 * Looks for something in the tab's frames: `look(frameId)` in the main frame,
 * then in each child frame in snapshot order (each frame before the frames
 * nested in it), until it returns a value (not undefined). Frames `skip`
 * refuses (the navigation policy's blocked frames, which the snapshot does not
 * read) and frames that cannot be read (detached, navigating) are passed over.
 * CDP: what `look` sends, `Runtime.evaluate` (the frame owners) and
 * `DOM.describeNode` per iframe.
 *
 * @returns the first find, or undefined when no frame had one.
 * @throws what `look` throws for the main frame; ToolError and the signal's abort from any
 *   frame (a refusal or the call's end; any other error of a child frame passes it over).
 */
export async function searchFrames<T>(
  page: Page,
  registry: RefRegistry,
  look: (frameId: string) => Promise<T | undefined>,
  options: {
    signal?: AbortSignal | undefined;
    skip?: (url: string, frameId: string) => boolean;
    /** Every child frame's find, in snapshot order (the first is returned too); no early stop. */
    every?: Array<FrameFind<T>> | undefined;
  },
): Promise<FrameFind<T> | undefined> {
  const { signal, every } = options;
  const main = await look(page.mainFrameId);
  if (main !== undefined) return { value: main, frameId: page.mainFrameId };
  const search = async (frameId: string, level: number): Promise<FrameFind<T> | undefined> => {
    if (level >= MAX_FRAME_DEPTH) return undefined;
    const { instance, ids } = await callUtility(page, frameId, "frameOwners", [], { signal });
    for (const id of ids) {
      try {
        const childId = await contentFrameId(page, frameId, id);
        const child = childId ? page.frame(childId) : undefined;
        if (!child || options.skip?.(child.url, child.frameId)) continue;
        const found = await look(child.frameId);
        if (found !== undefined) {
          const parent = page.frame(frameId);
          const ref = parent && registry.lookup({
            targetId: page.target.targetId,
            frameId,
            loaderId: parent.loaderId,
            instance,
            localId: id,
          });
          const find = {
            value: found,
            frameId: child.frameId,
            frame: { url: child.url, ...(ref ? { ref } : {}) },
          };
          if (!every) return find;
          every.push(find);
        }
        const deeper = await search(child.frameId, level + 1);
        if (deeper) return deeper;
      } catch (e) {
        // A frame going away is not the search's fault; a refusal or the call's end is.
        if (e instanceof ToolError || e instanceof AbortError || signal?.aborted) throw e;
      }
    }
    return undefined;
  };
  return await search(page.mainFrameId, 0);
}

/**
 * The element `selector` designates in the tab: the main frame's match, else
 * the first child frame's (snapshot order) with its {@link MatchFrame} (see
 * {@link searchFrames}). Every frame is queried through {@link queryElement}.
 *
 * @throws ToolError `invalid-argument` for a Playwright selector (`selector_forms.ts`); what
 *   {@link queryElement} throws for the main frame (an invalid selector); ToolError `refused`
 *   (masking) from any frame; the signal's abort.
 */
export async function queryFrames(
  page: Page,
  registry: RefRegistry,
  selector: string,
  options: {
    signal?: AbortSignal | undefined;
    skip?: (url: string, frameId: string) => boolean;
    /** Describe the matches alike the chosen one (`queryElement`'s `alike`). */
    alike?: boolean | undefined;
  },
): Promise<FramesMatch> {
  // At once, not after a wait for a match that cannot come.
  refusePlaywrightSelector(selector);
  const { signal, alike } = options;
  let main: FramesMatch | undefined;
  const found = await searchFrames(page, registry, async (frameId) => {
    const r: FramesMatch = {
      ...await queryElement(page, frameId, selector, { signal, alike }),
      frameId,
    };
    if (frameId === page.mainFrameId) main = r;
    return r.handle ? r : undefined;
  }, { signal, ...(options.skip ? { skip: options.skip } : {}) });
  if (!found) return main!;
  if (!found.frame) return found.value;
  // Card fields in two frames: which one was meant is the agent's call, so say the others.
  const every: Array<FrameFind<true>> = [];
  await searchFrames(
    page,
    registry,
    async (frameId) =>
      frameId !== page.mainFrameId && frameId !== found.frameId &&
        (await queryElementCount(page, frameId, selector)) > 0
        ? true
        : undefined,
    { signal, ...(options.skip ? { skip: options.skip } : {}), every },
  ).catch(
    (e) => {
      if (signal?.aborted) throw e;
    },
  );
  const others = every.flatMap((f) => f.frame ? [f.frame] : []);
  return { ...found.value, frame: { ...found.frame, ...(others.length ? { others } : {}) } };
}

/**
 * The warning of a match found in a child frame, naming the other child frames it matches in
 * too (`others`), so the agent can tell the match was ambiguous.
 */
export function frameMatchWarning(frame: MatchFrame): string {
  const shown = (f: MatchFrame) => `the iframe${f.ref ? ` [ref=${f.ref}]` : ""} showing ${f.url}`;
  const others = frame.others ?? [];
  const also = others.length
    ? `; it matches in ${others.map(shown).join(", ")} too: to act there, use a ref from the ` +
      "snapshot (the frame's elements are in place under its iframe)"
    : "";
  return `no match in the main frame; acted on the match inside ${shown(frame)}${also}`;
}
