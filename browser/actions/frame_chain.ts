/**
 * An element's frame chain: the `<iframe>` elements that hold its frame, up to
 * the top-level page. A point in the element's frame maps into each ancestor
 * through the `<iframe>`'s real box (its content origin and scale, CSS
 * transforms included), and a pointer meant for the element must land, at
 * every ancestor, on the `<iframe>` holding the next frame: a parent page's
 * overlay above an iframe takes the click otherwise. Rotated or skewed frames
 * (no plain offset + scale) are refused, not guessed at.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, type RemoteHandle, withSignal } from "../injected/mod.ts";
import type { FrameMap } from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";

/** The identity mapping (the top-level frame). */
export const IDENTITY: FrameMap = { x: 0, y: 0, scaleX: 1, scaleY: 1 };

/**
 * The `<iframe>` elements holding a frame, innermost first, each a handle in
 * its parent frame's utility world (its page calls bound to `signal`); empty
 * for the top-level frame. CDP: `DOM.getFrameOwner`, `DOM.resolveNode`.
 */
export async function ownerChain(
  page: Page,
  frameId: string,
  signal?: AbortSignal,
): Promise<RemoteHandle[]> {
  const out: RemoteHandle[] = [];
  let frame = page.frame(frameId);
  while (frame && frame.parentId) {
    const parent = page.frame(frame.parentId);
    if (!parent) break;
    const { backendNodeId } = await parent.session.send("DOM.getFrameOwner", {
      frameId: frame.frameId,
    }, { signal });
    const { contextId } = await page.utilityContext(parent.frameId);
    const { object } = await parent.session.send("DOM.resolveNode", {
      backendNodeId,
      executionContextId: contextId,
    }, { signal });
    out.push(withSignal(
      { session: parent.session, frameId: parent.frameId, objectId: object.objectId! },
      signal,
    ));
    frame = parent;
  }
  return out;
}

/** Whether a quad (8 numbers, clockwise from top-left) is an upright rectangle. */
export function isUpright(q: readonly number[]): boolean {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = q as [number, number, number, number, ...number[]];
  const near = (a: number | undefined, b: number | undefined) => Math.abs(a! - b!) < 0.5;
  return near(y1, y2) && near(x2, x3) && near(y3, y4) && near(x4, x1) && x2 > x1 && y4! > y1;
}

/**
 * Composes the chain's mappings: the element frame's points in the top-level
 * viewport = x + frame point × scale. CDP: `Runtime.callFunctionOn`
 * (`frameMap`), `DOM.getContentQuads` (the shape check).
 *
 * @throws ToolError not-actionable when a frame is rotated or skewed.
 */
export async function chainMap(owners: readonly RemoteHandle[]): Promise<FrameMap> {
  let total = IDENTITY;
  for (const owner of owners) {
    const [m, quads] = await Promise.all([
      callOnHandle(owner, "frameMap"),
      owner.session.send("DOM.getContentQuads", { objectId: owner.objectId }, {
        signal: owner.signal,
      }).then((r) => r.quads, () => [] as number[][]),
    ]);
    if (quads.length > 0 && !quads.every(isUpright)) {
      throw new ToolError(
        "not-actionable",
        "The element is inside a rotated or skewed frame: its click point cannot be computed safely",
        "act inside the frame another way (e.g. press keys after focusing, or eval_js)",
      );
    }
    total = {
      x: m.x + total.x * m.scaleX,
      y: m.y + total.y * m.scaleY,
      scaleX: total.scaleX * m.scaleX,
      scaleY: total.scaleY * m.scaleY,
    };
  }
  return total;
}

/**
 * Offset and scale of a frame's viewport inside the top-level viewport:
 * top-level point = (x, y) + frame point × (scaleX, scaleY).
 *
 * @throws ToolError not-actionable when a frame of the chain is rotated or skewed.
 */
export async function frameOffset(page: Page, frameId: string): Promise<FrameMap> {
  if (frameId === page.mainFrameId) return IDENTITY;
  return await chainMap(await ownerChain(page, frameId));
}

/**
 * The hit test up the chain: the element frame's point, mapped into each
 * ancestor, must land on the `<iframe>` holding the frame below. With `arm`,
 * each passing level arms its press guard (see `hit_lib.ts`); when a level
 * fails, the guards armed below it are removed.
 *
 * @returns "ok", or what is at the point instead (naming the frame level).
 */
export async function chainHit(
  owners: readonly RemoteHandle[],
  frameX: number,
  frameY: number,
  arm: boolean,
): Promise<"ok" | { coveredBy: string }> {
  let x = frameX, y = frameY;
  for (let i = 0; i < owners.length; i++) {
    const r = await callOnHandle(owners[i]!, "frameHit", [x, y, arm]);
    if (r.hit !== "ok") {
      if (arm) await Promise.all(owners.slice(0, i).map((o) => clearGuard(o)));
      return { coveredBy: `${r.hit.coveredBy} (in the page around the element's frame)` };
    }
    x = r.x;
    y = r.y;
  }
  return "ok";
}

/** Removes a guard (its verdict unread); never throws. */
export async function clearGuard(handle: RemoteHandle): Promise<void> {
  await callOnHandle(handle, "pressVerdict").catch(() => undefined);
}
