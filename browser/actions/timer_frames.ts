/**
 * The frames an action's timer watch is armed in (`PageTimers.arm`, the action window's
 * `timers`): the main frame and the element's, which hold the action, and up to
 * {@link MAX_TIMER_CHILD_FRAMES} others, watched without holding it.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { ResolvedTarget } from "./target.ts";

/** Child frames the timer watch is armed in beside the main frame and the element's, at most. */
const MAX_TIMER_CHILD_FRAMES = 8;

/** The frames an action's timer watch is armed in: the main frame, and the element's. */
export function timerFrames(page: Page, target: ResolvedTarget | undefined): string[] {
  return [page.mainFrameId, ...(target?.kind === "element" ? [target.handle.frameId] : [])];
}

/**
 * The page's other frames (the first {@link MAX_TIMER_CHILD_FRAMES}, parents first), where the
 * watch is armed too without holding the action: a child frame the action reaches (a message
 * to a cross-origin frame) may raise a dialog, open a tab or move the top page a moment later.
 */
export function otherFrames(page: Page, target: ResolvedTarget | undefined): string[] {
  const own = timerFrames(page, target);
  return page.frames().map((f) => f.frameId).filter((id) => !own.includes(id))
    .slice(0, MAX_TIMER_CHILD_FRAMES);
}
