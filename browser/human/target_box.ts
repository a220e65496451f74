/**
 * Where an element the agent named is on screen, for a person: the web console outlines it
 * over the live view (a pending approval's target, a highlight, an ask's element). Read-only:
 * it never scrolls and waits at most {@link BOX_BUDGET_MS} for the page.
 *
 * @module
 */
import type { Box } from "../injected/page_types.ts";
import { callOnHandle, releaseHandle, type RemoteHandle, withSignal } from "../injected/mod.ts";
import { frameOffset } from "../actions/frame_chain.ts";
import { resolveTarget, type TargetSpec } from "../actions/target.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";

export type { Box };

/** An element's box on screen, and the ref it was named by (when by a ref or a name). */
export interface TargetBox {
  /** The ref (`eN`, `pN`; a `name_ref` alias resolved), when the target was one. */
  ref?: string;
  /** Top-level viewport CSS px: what the screencast frame shows (scroll applied). */
  box: Box;
}

/** Longest a box is looked for (a selector that matches nothing yet is not waited for), ms. */
const BOX_BUDGET_MS = 1500;

/**
 * The box of `target` in `session`'s active tab, in top-level viewport CSS px (an element in
 * an iframe is mapped through its frames' offsets and scales). With `outline`, also runs
 * `outline(handle)` on the element before its handle is released (the in-page highlight).
 *
 * CDP: `Runtime.evaluate`/`Runtime.callFunctionOn` in the utility world (ref check,
 * `getBoundingClientRect`), `DOM.getFrameOwner`/`DOM.getContentQuads` for subframes.
 *
 * @throws ToolError as the target fails in any action (`ref-gone`, `not-found`,
 *   `invalid-argument`), `page-closed` without a tab.
 */
export async function locateTarget(
  session: BrowserSession,
  target: TargetSpec,
  options: { signal?: AbortSignal | undefined; outline?: (h: RemoteHandle) => Promise<void> } = {},
): Promise<TargetBox> {
  const page = await session.page();
  const budget = AbortSignal.timeout(BOX_BUDGET_MS);
  const bounded = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  const found = await resolveTarget(session, page, { ...target, coords: undefined }, {
    deadline: Date.now() + BOX_BUDGET_MS / 2,
    signal: bounded,
  });
  if (found.kind !== "element") throw new Error("a point is no element");
  try {
    const handle = withSignal(found.handle, bounded);
    const [{ box }, map] = await Promise.all([
      callOnHandle(handle, "stableBox"),
      frameOffset(page, handle.frameId),
      options.outline?.(found.handle),
    ]);
    return {
      ...(found.ref ? { ref: found.ref } : {}),
      box: {
        x: map.x + box.x * map.scaleX,
        y: map.y + box.y * map.scaleY,
        width: box.width * map.scaleX,
        height: box.height * map.scaleY,
      },
    };
  } finally {
    releaseHandle(found.handle);
  }
}

/**
 * {@link locateTarget} at its best effort: never opens a tab, never rejects.
 *
 * @returns The box, or undefined when the session has no tab, the target is gone, or the
 *   page does not answer within {@link BOX_BUDGET_MS}.
 */
export async function targetBox(
  session: BrowserSession,
  target: TargetSpec,
  signal?: AbortSignal,
): Promise<TargetBox | undefined> {
  const page = session.activePage;
  if (!page || page.isClosed || session.closed) return undefined;
  try {
    return await locateTarget(session, target, { signal });
  } catch {
    return undefined;
  }
}
