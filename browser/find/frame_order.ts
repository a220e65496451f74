/**
 * The frames `find` searches, in snapshot order (`find_elements.ts`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { AbortError } from "../../cdp/errors.ts";
import { callUtility } from "../injected/mod.ts";
import { CHILD_FRAME_MS, contentFrameId } from "../snapshot/capture.ts";

/** Deeper iframe nesting is not searched (as the snapshot does not read it). */
const MAX_FRAME_DEPTH = 8;

/** Options of {@link frameOrder}. */
export interface FrameOrderOptions {
  /** The call's signal. */
  signal?: AbortSignal | undefined;
  /** Frames the navigation policy keeps out of snapshots (by URL): not searched. */
  skipFrame?: ((url: string, frameId: string) => boolean) | undefined;
}

/**
 * The tab's frames in snapshot order: each frame before the frames nested in it. A child frame
 * that does not answer within {@link CHILD_FRAME_MS} (a script busy in a loop) is left out, as
 * are those `options.skipFrame` refuses. CDP: `Runtime.evaluate` (`frameOwners`),
 * `DOM.describeNode` per iframe.
 *
 * @throws the main frame's failure, or the signal's reason when it aborts.
 */
export async function frameOrder(page: Page, options: FrameOrderOptions): Promise<string[]> {
  const out: string[] = [];
  const visit = async (frameId: string, level: number): Promise<void> => {
    out.push(frameId);
    if (level + 1 >= MAX_FRAME_DEPTH) return;
    let ids: number[];
    try {
      ({ ids } = await ask(frameId, level));
    } catch (e) {
      if (level === 0 || options.signal?.aborted) throw e;
      return;
    }
    for (const id of ids) {
      try {
        const childId = await contentFrameId(page, frameId, id);
        const child = childId ? page.frame(childId) : undefined;
        if (!child || options.skipFrame?.(child.url, child.frameId)) continue;
        await visit(child.frameId, level + 1);
      } catch (e) {
        if (e instanceof AbortError || options.signal?.aborted) throw e;
      }
    }
  };
  /** Frames that did not answer within CHILD_FRAME_MS (a script busy in a loop): left out. */
  const busy = new Set<string>();
  const ask = (frameId: string, level: number) => {
    if (level === 0) {
      return callUtility(page, frameId, "frameOwners", [], { signal: options.signal });
    }
    const timeout = AbortSignal.timeout(CHILD_FRAME_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    return callUtility(page, frameId, "frameOwners", [], { signal }).catch((e) => {
      if (timeout.aborted && !options.signal?.aborted) busy.add(frameId);
      throw e;
    });
  };
  await visit(page.mainFrameId, 0);
  if (busy.size) return out.filter((id) => !busy.has(id));
  return out;
}
