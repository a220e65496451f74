/**
 * The one poll loop of the browser model: checks a condition with a growing interval until it
 * holds, the time is up, or the call's signal aborts (the client cancelled, or the call's
 * budget is spent) — so every wait stops as soon as nobody waits for it any more.
 *
 * @module
 */
import { ToolError } from "./tool_error.ts";

/**
 * Time a check may take past the poll's deadline before the poll answers without it, ms:
 * the margin by which a wait on a page that does not answer overshoots its `timeoutMs`.
 */
export const CHECK_GRACE_MS = 1000;

/** How {@link poll} paces and bounds its checks. */
export interface PollOptions {
  /** Give up after this long, ms (resolves `false`). */
  timeoutMs: number;
  /** The call's signal: when it aborts, {@link poll} rejects with its reason at once. */
  signal?: AbortSignal | undefined;
  /** First pause between checks, ms (default 50); doubles each time up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause between checks, ms (default 250). */
  maxIntervalMs?: number;
  /**
   * What a check still unanswered at the deadline means: `false` (default: the condition was
   * not seen, as for a check that answered no), or `timeout` (throw a ToolError `timeout`:
   * the page is not responding; for waits whose `false` would say something else, like an
   * element not found).
   */
  unanswered?: "false" | "timeout";
}

/**
 * Calls `check` until it resolves `true` (resolves `true`), or `timeoutMs` passed since the
 * start (resolves `false`, after one last check at the deadline). The first check runs at
 * once. An error `check` throws ends the poll with that error. A check still running
 * {@link CHECK_GRACE_MS} past the deadline (a page whose main thread is busy does not answer)
 * is not waited for, so `timeoutMs` holds: the check goes on unobserved, and the poll
 * resolves `false` (or throws, with `unanswered: "timeout"`).
 *
 * @throws the signal's reason when `options.signal` aborts (before, during or between checks);
 *   ToolError `timeout` (the page is not responding) when a check is unanswered at the deadline
 *   and `options.unanswered` is `timeout`.
 */
export async function poll(
  check: () => Promise<boolean> | boolean,
  options: PollOptions,
): Promise<boolean> {
  const started = Date.now();
  let interval = options.intervalMs ?? 50;
  const max = options.maxIntervalMs ?? 250;
  while (true) {
    options.signal?.throwIfAborted();
    // Every check gets at least CHECK_GRACE_MS (the last one, at the deadline, too).
    const deadline = Math.max(options.timeoutMs - (Date.now() - started), CHECK_GRACE_MS);
    const seen = await within(
      Promise.resolve(check()).then((held) => ({ held })),
      deadline,
      options.signal,
    );
    if (!seen) {
      if (options.unanswered !== "timeout") return false;
      throw new ToolError(
        "timeout",
        `the page did not answer within ${options.timeoutMs} ms: it is busy (a long-running ` +
          "or stuck script, or a heavily loaded machine)",
        "wait and call again, or navigate elsewhere or reload; if the tab stays stuck, " +
          "close_session and open a new one",
      );
    }
    if (seen.held) return true;
    const left = options.timeoutMs - (Date.now() - started);
    if (left <= 0) return false;
    await pause(Math.min(interval, left), options.signal);
    interval = Math.min(interval * 2, max);
  }
}

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as soon as `signal`
 * aborts (the timer is cleared).
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * `work`'s value, or `undefined` once `ms` milliseconds passed without it (the work goes on,
 * unobserved), or a rejection with the signal's reason as soon as `signal` aborts. A
 * rejection of `work` within the time is passed on. The timer and the listener are removed
 * whichever comes first. For waits on an event (a download beginning, a file chooser
 * opening, a recorder's wake-up) bounded by time and the call's signal.
 */
export function within<T>(
  work: Promise<T>,
  ms: number,
  signal?: AbortSignal,
): Promise<T | undefined> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T | undefined>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve(undefined);
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then((value) => {
      done();
      resolve(value);
    }, (error) => {
      done();
      reject(error);
    });
  });
}
