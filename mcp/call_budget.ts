/**
 * A call's one clock and cancel: {@link CallBudget} combines the client's cancel
 * (`notifications/cancelled`, the MCP SDK's request signal) with the call's time budget into
 * one `AbortSignal` that the handler, every wait and every CDP send of the call take, and
 * answers for a call that does not stop in time.
 *
 * @module
 */
import { ToolError } from "../browser/tool_error.ts";

/** Budget of a call without `timeoutMs`, ms (CDP's own per-command timeout is 30 s). */
export const DEFAULT_CALL_BUDGET_MS = 30_000;
/** Slack past a call's `timeoutMs` before the budget runs out, ms. */
export const BUDGET_GRACE_MS = 5_000;

/**
 * One call's budget and cancel. `signal` aborts when the client cancels the call (reason: a
 * `cancelled` ToolError) or when the budget is spent (reason: a `timeout` ToolError: a page
 * stuck in a script loop keeps CDP input commands pending, and the agent gets a way out
 * instead of a call that never returns). The clock stops while a human answers a confirm
 * ({@link CallBudget.pausedWhile}).
 */
export class CallBudget {
  /** Aborted on the client's cancel or when the budget is spent; its reason is a ToolError. */
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #budgetMs: number;
  readonly #tool: string;
  #remaining: number;
  #armedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pauses = 0;
  readonly #startedAt = Date.now();
  /** Time spent paused (a human answering), ms; and when the current pause began. */
  #pausedMs = 0;
  #pausedAt = 0;
  #client: AbortSignal | undefined;
  readonly #onClientAbort = () => this.#abort(this.#cancelled());

  /**
   * @param tool The tool called (for messages).
   * @param timeoutMs The call's `timeoutMs`, when it takes one; the budget is that (or
   *   {@link DEFAULT_CALL_BUDGET_MS}) plus {@link BUDGET_GRACE_MS}, in ms.
   * @param client The client's cancel signal, when the transport gives one.
   * @param graceMs Slack past `timeoutMs`, ms (default {@link BUDGET_GRACE_MS}); `Infinity`:
   *   no budget, only the client's cancel ends the call (a call of calls, each with its own).
   */
  constructor(
    tool: string,
    timeoutMs: number | undefined,
    client?: AbortSignal,
    graceMs = BUDGET_GRACE_MS,
  ) {
    this.#tool = tool;
    this.#budgetMs = (timeoutMs ?? DEFAULT_CALL_BUDGET_MS) + graceMs;
    this.#remaining = this.#budgetMs;
    this.signal = this.#controller.signal;
    if (client?.aborted) this.#abort(this.#cancelled());
    else if (client) {
      this.#client = client;
      client.addEventListener("abort", this.#onClientAbort, { once: true });
    }
    if (!this.signal.aborted) this.#arm();
  }

  /**
   * `work`'s result, or a rejection with the signal's reason as soon as it aborts (the work
   * is abandoned; it sees the same signal and is expected to stop).
   */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.signal.reason);
      this.signal.addEventListener("abort", onAbort, { once: true });
      work.then(resolve, reject).finally(() => this.signal.removeEventListener("abort", onAbort));
    });
  }

  /**
   * Ends the call now with `reason` (its session was closed under it): the signal aborts, and
   * {@link race} rejects with `reason`. No-op once aborted.
   */
  abort(reason: ToolError): void {
    this.#abort(reason);
  }

  /** Runs `work` with the clock stopped: time a human takes to answer is not the page's. */
  async pausedWhile<T>(work: () => Promise<T>): Promise<T> {
    if (this.#pauses++ === 0) {
      this.#pausedAt = Date.now();
      if (this.#timer !== undefined) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#remaining -= Date.now() - this.#armedAt;
      }
    }
    try {
      return await work();
    } finally {
      if (--this.#pauses === 0) {
        this.#pausedMs += Date.now() - this.#pausedAt;
        if (!this.signal.aborted) this.#arm();
      }
    }
  }

  /**
   * The call's time so far with the clock running, ms: since the call began, less the time a
   * human took to answer (a budget-less call counts its time too).
   */
  get elapsedMs(): number {
    const pausedNow = this.#pauses > 0 ? Date.now() - this.#pausedAt : 0;
    return Math.max(0, Date.now() - this.#startedAt - this.#pausedMs - pausedNow);
  }

  /** True when the budget ran out (not the client's cancel). */
  get spent(): boolean {
    return this.signal.aborted && (this.signal.reason as ToolError | undefined)?.code === "timeout";
  }

  /** Stops the clock and lets go of the client's signal (the call is over). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#client?.removeEventListener("abort", this.#onClientAbort);
    this.#client = undefined;
  }

  #arm(): void {
    if (!Number.isFinite(this.#remaining)) return;
    this.#armedAt = Date.now();
    this.#timer = setTimeout(() => this.#abort(this.#spent()), Math.max(0, this.#remaining));
  }

  #abort(reason: ToolError): void {
    if (this.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#controller.abort(reason);
  }

  #spent(): ToolError {
    return new ToolError(
      "timeout",
      `"${this.#tool}" did not finish within ${
        Math.round(this.#budgetMs / 1000)
      } s: the page is not responding (a script may be stuck in a loop)`,
      "navigate elsewhere or reload; if the tab stays stuck, close_session and open a new one",
    );
  }

  #cancelled(): ToolError {
    return new ToolError(
      "cancelled",
      `"${this.#tool}" was cancelled by the client`,
      "the session is free for the next call; call again if the cancel was a mistake",
    );
  }
}
