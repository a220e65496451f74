/**
 * The frames `find` searches, in snapshot order (`find_elements.ts`).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { AbortError } from "../../cdp/errors.ts";
import { callUtility } from "../injected/mod.ts";
import { CHILD_FRAME_MS } from "../snapshot/capture.ts";
import { frameOwner } from "../snapshot/frame_owner.ts";

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
 * The tab's frames in snapshot order: each frame before the frames nested in it, with what its
 * `<iframe>` and those above it are called (`frame`: their titles, names, aria-labels, innermost
 * first; "" for the main frame). A child frame
 * that does not answer within {@link CHILD_FRAME_MS} (a script busy in a loop) is left out, as
 * are those `options.skipFrame` refuses. CDP: `Runtime.evaluate` (`frameOwners`),
 * `DOM.describeNode` per iframe.
 *
 * @throws the main frame's failure, or the signal's reason when it aborts.
 */
export async function frameOrder(
  page: Page,
  options: FrameOrderOptions,
): Promise<Array<{ frameId: string; frame: string }>> {
  const out: Array<{ frameId: string; frame: string }> = [];
  const visit = async (frameId: string, level: number, frame: string): Promise<void> => {
    out.push({ frameId, frame });
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
        const owner = await frameOwner(page, frameId, id);
        const child = owner?.frameId ? page.frame(owner.frameId) : undefined;
        if (!child || options.skipFrame?.(child.url, child.frameId)) continue;
        await visit(child.frameId, level + 1, `${ownerName(owner!.attributes)} ${frame}`.trim());
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
  await visit(page.mainFrameId, 0, "");
  if (busy.size) return out.filter((f) => !busy.has(f.frameId));
  return out;
}

/** An `<iframe>`'s title, name and aria-label, from `DOM.describeNode`'s `[name, value, …]`. */
function ownerName(attributes: string[]): string {
  const said: string[] = [];
  for (let i = 0; i + 1 < attributes.length; i += 2) {
    if (/^(title|name|aria-label)$/.test(attributes[i]!)) {
      said.push(attributes[i + 1]!.slice(0, 80));
    }
  }
  return said.join(" ");
}
