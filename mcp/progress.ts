/**
 * MCP progress notifications (`notifications/progress`) for one request that carried
 * `_meta.progressToken`. Every source of progress in the call (the tool's handler, a browser
 * install the call waits for) reports through a lane of the call's one {@link CallProgress},
 * in its own scale; what the client receives is increasing, as MCP requires, and throttled.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import type { Progress } from "../browser/call_context.ts";

/** How a notification leaves (the SDK's `extra.sendNotification`, tied to the request). */
export type SendNotification = (n: ServerNotification) => Promise<void>;

/** A notification with the same message as the previous one waits at least this long, ms. */
export const PROGRESS_INTERVAL_MS = 100;
/**
 * How long an answer waits after its call's last notification, ms (see
 * {@link CallProgress.settled}).
 */
export const ANSWER_GAP_MS = 15;

/** A lane that reports nothing (no progress token). */
const NOOP: Progress = () => {};

/**
 * The progress of one request. Without a token every lane is a no-op.
 *
 * Rules: a lane's reports must increase in its own scale (others are dropped); a lane whose
 * values fall at or below what was already sent (the tool's phases after a download's bytes)
 * is moved up to continue from there, its total moved with it; a report with the same message
 * as the last one sent within {@link PROGRESS_INTERVAL_MS} is dropped unless it completes its
 * total. Nothing is sent after {@link close}.
 */
export class CallProgress {
  #token: string | number | undefined;
  #send: SendNotification;
  #now: () => number;
  #last = Number.NEGATIVE_INFINITY;
  #lastAt = Number.NEGATIVE_INFINITY;
  #lastMessage: string | undefined;
  #closed = false;
  /** When the last notification left (the clock of `now`), ms. */
  #sentAt = Number.NEGATIVE_INFINITY;
  #sleep: (ms: number) => Promise<void>;

  /** `token`: the request's `_meta.progressToken`; `now`: the clock (tests), ms. */
  constructor(
    token: string | number | undefined,
    send: SendNotification,
    options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.#token = token;
    this.#send = send;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** True when the client asked for progress. */
  get wanted(): boolean {
    return this.#token !== undefined;
  }

  /** A new reporting source with its own scale (see the class rules). */
  lane(): Progress {
    if (this.#token === undefined) return NOOP;
    let base = 0;
    let lastRaw: number | undefined;
    return (progress, total, message) => {
      if (this.#closed || !Number.isFinite(progress)) return;
      if (lastRaw !== undefined && progress <= lastRaw) return;
      // Continue above what another lane already sent.
      if (base + progress <= this.#last) base = this.#last - (lastRaw ?? 0);
      lastRaw = progress;
      const sent = base + progress;
      if (sent <= this.#last) return;
      const done = total !== undefined && progress >= total;
      const now = this.#now();
      if (!done && message === this.#lastMessage && now - this.#lastAt < PROGRESS_INTERVAL_MS) {
        return;
      }
      this.#last = sent;
      this.#lastAt = now;
      this.#sentAt = now;
      this.#lastMessage = message;
      this.#send({
        method: "notifications/progress",
        params: {
          progressToken: this.#token!,
          progress: sent,
          ...(total !== undefined && Number.isFinite(total) ? { total: base + total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      }).catch(() => {});
    };
  }

  /** The request is answered: later reports are dropped (the client forgot the token). */
  close(): void {
    this.#closed = true;
  }

  /**
   * Resolves once {@link ANSWER_GAP_MS} passed since the last notification (at once when none
   * went out lately): the answer then does not travel in the same read as that notification.
   * The SDK's client handles a notification a microtask late but an answer at once, so a
   * notification read together with its call's answer reached it after the answer ("Received
   * a progress notification for an unknown token", its error).
   */
  async settled(): Promise<void> {
    const left = this.#sentAt + ANSWER_GAP_MS - this.#now();
    if (left > 0) await this.#sleep(left);
  }
}
