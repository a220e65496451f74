/**
 * An agent's own page script, stopped when its call is abandoned: `eval_js` of a script stuck
 * in a loop would otherwise keep the tab's main thread, and every later call on the tab would
 * queue behind it.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import { isAbortError, isTimeoutError } from "../cdp/errors.ts";
import type { Page } from "../cdp/page.ts";
import { evaluateOrCallIn } from "../cdp/page_eval.ts";
import { within } from "./poll.ts";
import { ToolError } from "./tool_error.ts";

/** How long the main thread may take to answer a trivial script before it counts as busy, ms. */
export const BUSY_PROBE_MS = 500;
/** How long a caller waits for a termination to be confirmed by default, ms. */
const TERMINATE_MS = 5000;
/**
 * How long a termination is tracked at most, ms: a script looping in dialogs stops only when
 * V8 next checks for interrupts (measured: ~550 dialogs in, 5-11 s on 2 busy cores), and a
 * navigation sent before that can leave the tab answering nothing ({@link stopSettled}).
 */
const TERMINATE_TRACK_MS = 60_000;

/**
 * Evaluates `expression` in the page's own (main) world of the tab's main frame and returns its
 * JSON value; when that value is a function, it is called with no arguments and its (awaited)
 * value returned instead, with `called: true` (see `evaluateOrCallIn`). When `signal` aborts
 * first, or the call gets no answer in time, the call is abandoned and, if the tab's main
 * thread is still busy (the script loops), the script is terminated ({@link stopBusyScript})
 * before the error is passed on.
 *
 * @param options.timeoutMs Time for the whole evaluation, ms (Chromium terminates the
 *   expression itself after this long; a called function is stopped as above).
 * @throws EvaluationError when the script throws; the CDP `AbortError` when `signal` aborted.
 */
export async function evaluateStoppable(
  page: Page,
  expression: string,
  options: { timeoutMs: number; userGesture?: boolean; signal?: AbortSignal | undefined },
): Promise<{ value: unknown; called: boolean }> {
  try {
    return await evaluateOrCallIn(page, expression, {
      world: "main",
      timeoutMs: options.timeoutMs,
      userGesture: options.userGesture ?? false,
      signal: options.signal,
    });
  } catch (e) {
    // A timeout here means no answer at all (Chromium's own timeout answers with an exception).
    if (isAbortError(e) || isTimeoutError(e)) await stopBusyScript(page.session);
    throw e;
  }
}

/**
 * Terminates the script running on a target's main thread, if one is: a trivial evaluation
 * that gets no answer within {@link BUSY_PROBE_MS} means the thread is busy, and then
 * `Runtime.terminateExecution` interrupts it (Chromium handles that command off the main
 * thread). A thread that answers is left alone: termination also applies to the *next*
 * script when none runs, which could be the page's own or the next call's.
 *
 * Best effort, never throws. CDP: `Runtime.evaluate`, `Runtime.terminateExecution`.
 *
 * @param options.confirmMs How long to wait for Chromium to confirm the termination, ms
 *   (default 5 s); the termination goes on past it.
 * @returns whether a termination was sent.
 */
export async function stopBusyScript(
  session: Pick<CdpSession, "send">,
  options: { confirmMs?: number } = {},
): Promise<boolean> {
  try {
    await session.send("Runtime.evaluate", { expression: "0" }, { timeoutMs: BUSY_PROBE_MS });
    return false;
  } catch (e) {
    // Only no answer in time means busy; a refusal or a closed target has nothing to stop.
    if (!isTimeoutError(e)) return false;
  }
  // Chromium answers once the script is interrupted, which a script that spends its time in
  // dialogs (a confirm loop) reaches only seconds later: the command is sent either way.
  const terminated = session.send("Runtime.terminateExecution", undefined, {
    timeoutMs: TERMINATE_TRACK_MS,
  }).then(() => {}, () => {}).finally(() => {
    if (terminating.get(session) === terminated) terminating.delete(session);
  });
  terminating.set(session, terminated);
  await within(terminated, options.confirmMs ?? TERMINATE_MS);
  return true;
}

/** Terminations sent and not yet confirmed, by target session (see {@link stopSettled}). */
const terminating = new WeakMap<object, Promise<void>>();

/**
 * Waits (until `deadline`, epoch ms) for a termination {@link stopBusyScript} sent on `page`'s
 * main thread and did not see confirmed. A navigation sent while it is still under way can
 * leave the tab answering nothing at all (measured: a confirm loop stopped at a click's
 * deadline, then `Page.navigate`: every later command of the tab timed out), so navigations
 * wait for it first. No round trip.
 *
 * @returns false when the termination is still under way at the deadline.
 */
export async function stopSettled(page: Page, deadline: number): Promise<boolean> {
  const under = terminating.get(page.session);
  if (!under) return true;
  // A crashed renderer runs no script and never answers the termination sent to it (one sent
  // after the crash waited its whole 60 s): the navigation that recovers the tab goes at once.
  if (page.crashed) {
    terminating.delete(page.session);
    return true;
  }
  let off: (() => void) | undefined;
  const crashed = new Promise<boolean>((resolve) => {
    off = page.onEvent("Inspector.targetCrashed", () => resolve(true));
  });
  try {
    return await within(Promise.race([under.then(() => true), crashed]), deadline - Date.now()) ??
      false;
  } finally {
    off?.();
  }
}

/** Tabs whose last navigation was still loading at its deadline (see {@link freeStuckTab}). */
const unfinished = new WeakSet<Page>();

/**
 * Notes that a navigation of `page` was still loading when its call answered: the page may be
 * stuck in its own script (a load handler that never returns).
 */
export function markLoadUnfinished(page: Page): void {
  unfinished.add(page);
}

/**
 * Before a navigation: when the tab's main thread is held by a page script
 * ({@link stopBusyScript}: its last navigation still loading at its deadline, or a loop the
 * page itself entered after its load), stops it. Chromium answers `Page.navigate` only once
 * the new document commits, and the commit waits for that thread: every later navigation
 * would fail within its own time, so no call's budget would run out to free the tab. One
 * round trip when the thread answers.
 *
 * @param deadline Epoch ms: the stop is not waited for past it (it goes on; the navigation
 *   then goes through once the script is stopped).
 * @returns whether a termination was sent (or is under way at the deadline).
 */
export async function freeStuckTab(page: Page, deadline = Infinity): Promise<boolean> {
  unfinished.delete(page);
  if (page.isClosed) return false;
  return (await within(stopBusyScript(page.session), deadline - Date.now())) ?? true;
}

/**
 * How long the tab's main thread may leave a trivial script unanswered before a read of the
 * page says the page is busy, ms (a read otherwise waits its whole budget, 30 s).
 */
export const READ_BUSY_MS = 3000;

/**
 * Watches a read of the page: a trivial evaluation sent now (before the read's own, which the
 * main thread answers after it, so the read's own work never delays it) that gets no answer
 * within {@link READ_BUSY_MS} means the page's own script holds the thread (a loop): the
 * returned promise then rejects with a `timeout` ToolError saying so. It never settles
 * otherwise (answered, refused, or `signal` aborted). CDP: `Runtime.evaluate`.
 */
export function busyPageWatch(
  session: Pick<CdpSession, "send">,
  signal?: AbortSignal,
): Promise<never> {
  return new Promise<never>((_, reject) => {
    session.send("Runtime.evaluate", { expression: "0" }, {
      timeoutMs: READ_BUSY_MS,
      ...(signal ? { signal } : {}),
    }).catch((e) => {
      if (!isTimeoutError(e) || signal?.aborted) return;
      reject(
        new ToolError(
          "timeout",
          `The page is busy: its own script has held the tab's main thread for over ${
            READ_BUSY_MS / 1000
          } s (a loop, or long work), so nothing in it can be read now`,
          "navigate elsewhere or reload (they stop the script first), or call again later; " +
            "close_session drops the tab",
        ),
      );
    });
  });
}
