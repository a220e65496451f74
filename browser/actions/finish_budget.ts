/**
 * The time an action's result may still take once the action ran: the steps after
 * `perform` (a frame, the element probe, the after-snapshot) answer by the call's deadline
 * plus {@link RESULT_MARGIN_MS}, or are skipped and named, so that `timeoutMs` holds even
 * on a page too big or too busy to snapshot in time.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

/** How long past its deadline an action may take to put its result together, ms. */
export const RESULT_MARGIN_MS = 1000;

/**
 * A deadline for the finishing steps of one action. {@link step} runs one with a signal that
 * aborts when the call's signal does or when the time is up; a step the time cut short is
 * recorded in {@link skipped} and answers its fallback.
 */
export class FinishBudget {
  /** What was skipped or left partial because the time ran out, in order (e.g. "the snapshot"). */
  readonly skipped: string[] = [];
  readonly #call: AbortSignal | undefined;
  readonly #finishAt: number;

  /**
   * @param finishAt Epoch ms by which the result must be ready.
   * @param call The call's signal (the client's cancel and the call's budget).
   */
  constructor(finishAt: number, call: AbortSignal | undefined) {
    this.#call = call;
    this.#finishAt = finishAt;
  }

  /**
   * Runs `work` with a signal bound to the finish deadline (and to `capMs` from now, when
   * given). Answers `fallback` and records `what` in {@link skipped} when the time ran out
   * first; the work is abandoned (it sees its signal abort).
   *
   * @throws the call's signal's reason when the call was cancelled or its budget spent;
   *   `work`'s own errors otherwise.
   */
  async step<T>(
    what: string,
    work: (signal: AbortSignal) => Promise<T>,
    fallback: T,
    options: { capMs?: number } = {},
  ): Promise<T> {
    this.#call?.throwIfAborted();
    const left = this.#finishAt - Date.now();
    const capMs = Math.min(left, options.capMs ?? Infinity);
    if (capMs <= 0) return this.#skip(what, fallback);
    const stop = new AbortController();
    // The step's own cap, when it comes first, is no cut: the step was only allowed that long.
    let cut = false;
    const timer = setTimeout(() => {
      cut = capMs >= left;
      stop.abort(timeUp());
    }, capMs);
    const onCall = () => stop.abort(this.#call!.reason);
    this.#call?.addEventListener("abort", onCall, { once: true });
    try {
      return await new Promise<T>((resolve, reject) => {
        // The work may not watch its signal everywhere: the step ends when it aborts anyway.
        stop.signal.addEventListener("abort", () => reject(stop.signal.reason), { once: true });
        Promise.resolve().then(() => work(stop.signal)).then(resolve, reject);
      });
    } catch (e) {
      this.#call?.throwIfAborted();
      if (stop.signal.aborted) return cut ? this.#skip(what, fallback) : fallback;
      throw e;
    } finally {
      clearTimeout(timer);
      this.#call?.removeEventListener("abort", onCall);
      // Ends the work still running, if any (its late answer is dropped).
      if (!stop.signal.aborted) stop.abort(timeUp());
    }
  }

  #skip<T>(what: string, fallback: T): T {
    this.skipped.push(what);
    return fallback;
  }
}

function timeUp(): DOMException {
  return new DOMException("the result's time ran out", "TimeoutError");
}

/**
 * A signal that aborts at `deadline` (epoch ms; `Infinity`: never) with a `timeout` ToolError for `tool` (a
 * call that did nothing yet), or with `call`'s reason when that aborts first. For the
 * steps before an action acts: a page too busy to answer (a huge document still parsing)
 * then fails the call in its time instead of holding it. Dispose to clear the timer.
 */
export function untilDeadline(
  deadline: number,
  tool: string,
  call: AbortSignal | undefined,
): { signal: AbortSignal; expired(): boolean } & Disposable {
  const stop = new AbortController();
  // An infinite deadline: only the call's own signal (a timer that long would fire at once).
  const timer = Number.isFinite(deadline)
    ? setTimeout(() => {
      stop.abort(
        new ToolError(
          "timeout",
          `"${tool}" did not act within its timeoutMs: the page did not answer in time`,
          "wait for the page to finish loading (wait_for), or call again with a larger timeoutMs",
        ),
      );
    }, Math.max(0, deadline - Date.now()))
    : undefined;
  const onCall = () => stop.abort(call!.reason);
  if (call?.aborted) onCall();
  else call?.addEventListener("abort", onCall, { once: true });
  return {
    signal: stop.signal,
    expired: () => stop.signal.aborted && !call?.aborted,
    [Symbol.dispose]() {
      clearTimeout(timer);
      call?.removeEventListener("abort", onCall);
    },
  };
}
