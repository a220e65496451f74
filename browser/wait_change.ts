/**
 * `wait_for` with what changed while it waited, in one call: the before-picture is taken
 * when the wait starts (the session's cached outline when no frame changed since, as an
 * action's is), the after-picture when the condition holds or the time is up, and the
 * result carries the `snapshotDelta` an action's would (`actions/action_delta.ts`).
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import type { BrowserSession } from "./sessions/browser_session.ts";
import type { SnapshotDelta } from "./actions/action_result.ts";
import { type WaitCondition, waitLooking, type WaitOutcome } from "./wait_condition.ts";
import { beforePicture, skippedDelta, snapshotChange } from "./actions/action_delta.ts";
import { FinishBudget, RESULT_MARGIN_MS } from "./actions/finish_budget.ts";

/** A wait's outcome, with what changed on the page meanwhile (absent with `snapshot: "none"`). */
export interface WaitChange extends WaitOutcome {
  snapshotDelta?: SnapshotDelta;
}

/** How {@link waitForChange} waits and what it shows. */
export interface WaitChangeOptions {
  /** The whole call's time, ms: the before-picture, the wait and (past it, 1 s) the after. */
  timeoutMs: number;
  /**
   * `delta` (default of the tool): the lines that changed since the wait began; `full`: the
   * page whole at the end; `none`: no picture at all (the wait alone, as fast as it gets).
   */
  snapshot: "delta" | "full" | "none";
  /** The call's signal. */
  signal: AbortSignal | undefined;
}

/**
 * Waits until `cond` holds in `page` (or the time is up: `ok: false`), then says what changed
 * meanwhile. A wait already met at its first look takes the after-picture from the session's
 * cache when no frame changed (no second capture). A new document in the tab meanwhile shows
 * the page whole (`mode: "full"`); an after-picture the time did not allow says so in
 * `snapshotDelta.error`.
 *
 * CDP: as `wait_condition.ts` and `snapshot/capture.ts`.
 *
 * @throws as `waitFor` (page-crashed / page-closed, invalid-argument, the signal's reason).
 */
export async function waitForChange(
  session: BrowserSession,
  page: Page,
  cond: WaitCondition,
  options: WaitChangeOptions,
): Promise<WaitChange> {
  const { snapshot: mode, signal, timeoutMs } = options;
  if (mode === "none") {
    return (await waitLooking(session, page, cond, { timeoutMs, signal })).outcome;
  }
  const deadline = Date.now() + timeoutMs;
  const loader = page.frame(page.mainFrameId)?.loaderId;
  // The before-picture may take half the time: the wait needs the rest (without one, the
  // result shows the page whole).
  const before = mode === "delta"
    ? await beforePicture(session, page, deadline, signal, "the snapshot before the wait")
    : undefined;
  const { outcome, atOnce } = await waitLooking(session, page, cond, {
    timeoutMs: Math.max(1, deadline - Date.now()),
    signal,
  });
  if (page.isClosed) return outcome;
  // A wait that ran out may still say what changed: a little past its end (the call's budget
  // has seconds of grace), or the snapshot is skipped and named.
  const finish = new FinishBudget(Math.max(deadline, Date.now()) + RESULT_MARGIN_MS, signal);
  const change = await finish.step(
    "the snapshot",
    (s) =>
      snapshotChange(session, page, {
        mode,
        before,
        whole: page.frame(page.mainFrameId)?.loaderId !== loader,
        reuse: atOnce,
      }, s),
    skippedDelta(mode),
  );
  return { ...outcome, snapshotDelta: change.delta };
}
