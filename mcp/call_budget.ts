/**
 * A call's time budget: the watchdog that answers for a call that outlives it.
 *
 * @module
 */
import { ToolError } from "../browser/errors.ts";

/** Budget of a call without `timeoutMs`, ms (CDP's own per-command timeout is 30 s). */
export const DEFAULT_CALL_BUDGET_MS = 30_000;
/** Slack past a call's `timeoutMs` before the watchdog answers for it, ms. */
export const WATCHDOG_GRACE_MS = 5_000;

/** A call's watchdog: fails {@link Watchdog.promise} when the call outlives its budget. */
export interface Watchdog {
  /** Rejects with a `timeout` ToolError once the budget is spent (never resolves). */
  promise: Promise<never>;
  /** Runs `work` with the clock stopped: time a human takes to answer is not the page's. */
  pausedWhile<T>(work: () => Promise<T>): Promise<T>;
  stop(): void;
}

/**
 * Answers for a call that outlives its budget (a page stuck in a script
 * loop keeps CDP input commands pending): the agent gets a timeout with a
 * way out instead of a call that never returns.
 */
export function startWatchdog(budgetMs: number, name: string): Watchdog {
  let remaining = budgetMs;
  let armedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pauses = 0;
  let fail: (e: ToolError) => void = () => {};
  const promise = new Promise<never>((_, reject) => fail = reject);
  promise.catch(() => {});
  const arm = () => {
    armedAt = Date.now();
    timer = setTimeout(() => {
      fail(
        new ToolError(
          "timeout",
          `"${name}" did not finish within ${
            Math.round(budgetMs / 1000)
          } s: the page is not responding (a script may be stuck in a loop)`,
          "navigate elsewhere or reload; if the tab stays stuck, close_session and open a new one",
        ),
      );
    }, Math.max(0, remaining));
  };
  arm();
  return {
    promise,
    async pausedWhile(work) {
      if (pauses++ === 0) {
        clearTimeout(timer);
        remaining -= Date.now() - armedAt;
      }
      try {
        return await work();
      } finally {
        if (--pauses === 0) arm();
      }
    },
    stop: () => clearTimeout(timer),
  };
}
