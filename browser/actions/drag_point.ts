/**
 * Where on a drag's destination element the drop goes (drag_sequence.ts): not its exact
 * center but past it in the direction of travel, as a person drags an item onto another's
 * place. Sortable lists insert the dragged item before or after the item under the drop by the
 * half the drop lands in (a new user's "D onto C", moving up, dropped on C's center, landed
 * after C again: nothing moved; "A onto B" went after B), so the item takes the destination's
 * place whichever way it moves.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, type RemoteHandle } from "../injected/mod.ts";
import { type ActionPoint, coveredAt, type Point } from "./actionability.ts";
import { elementSteps } from "./element_steps.ts";

/** How far past its center the drop goes, as a share of the destination's size on an axis. */
export const PAST_CENTER = 0.25;

/**
 * The drop point on the destination `to`, whose center `center` was just found actionable:
 * on each axis the travel from `from` crosses by more than half the destination's size, a
 * quarter of its size past the center in the direction of travel (a list moved up: its upper
 * half; down: its lower half); the center when the travel is shorter (a drop zone reached
 * sideways), when the point is not the destination's (hit test: a child is), or when its box
 * cannot be read. CDP: `Runtime.callFunctionOn` (`probe`, `hitTest`; the frame chain's calls in
 * a subframe).
 */
export async function dropPointToward(
  page: Page,
  to: RemoteHandle,
  points: { center: ActionPoint; from: Point },
  signal?: AbortSignal,
): Promise<ActionPoint> {
  const { center, from } = points;
  const probe = await callOnHandle(to, "probe", [{}]).catch(() => undefined);
  if (probe?.state !== "ok") return center;
  const el = elementSteps(page, to, signal);
  const off = await el.frameOffset();
  const w = probe.box.width * off.scaleX, h = probe.box.height * off.scaleY;
  const step = (travel: number, size: number) =>
    Math.abs(travel) > size / 2 ? Math.sign(travel) * size * PAST_CENTER : 0;
  const dx = step(center.x - from.x, w), dy = step(center.y - from.y, h);
  if (!dx && !dy) return center;
  const point: ActionPoint = {
    x: center.x + dx,
    y: center.y + dy,
    frameX: center.frameX + dx / off.scaleX,
    frameY: center.frameY + dy / off.scaleY,
  };
  const covered = await coveredAt(el, point, { stage: "before" }).catch(() => "failed" as const);
  return covered ? center : point;
}
