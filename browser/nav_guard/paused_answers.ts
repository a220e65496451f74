/**
 * The navigation guard's answers in flight, per target: which paused requests
 * (`Fetch.requestPaused`) are still being answered and when the last one was paused, so a tab
 * about to close can wait until what its unloading page sent was judged
 * (`leave_before_close.ts`).
 *
 * @module
 */
import { poll } from "../poll.ts";

/** Paused requests being answered, per target id. */
export class PausedAnswers {
  /** Per target: the paused requests being answered. */
  #answering = new Map<string, Set<Promise<void>>>();
  /** Per target: when its last request was paused (ms since the epoch). */
  #pausedAt = new Map<string, number>();

  /** Notes that a request of `targetId` was paused now. */
  paused(targetId: string): void {
    this.#pausedAt.set(targetId, Date.now());
  }

  /** Counts `answer` (a paused request's answer, never rejecting) in until it settles. */
  track(targetId: string, answer: Promise<void>): void {
    let set = this.#answering.get(targetId);
    if (!set) this.#answering.set(targetId, set = new Set());
    set.add(answer);
    answer.finally(() => set.delete(answer));
  }

  /**
   * Resolves once no request of `targetId` has been paused for `quietMs` and every one the
   * guard paused is answered, or at `deadline` (ms since the epoch). A page left for
   * `about:blank` may unload in its old renderer after the new document commits (a
   * cross-process navigation), so its `pagehide` requests can come later than any round trip.
   */
  async answered(targetId: string, quietMs: number, deadline: number): Promise<void> {
    const set = this.#answering.get(targetId);
    const since = Date.now();
    await poll(() => {
      const last = Math.max(since, this.#pausedAt.get(targetId) ?? 0);
      return !set?.size && Date.now() - last >= quietMs;
    }, { timeoutMs: Math.max(0, deadline - since), intervalMs: 25, maxIntervalMs: 25 })
      .catch(() => {});
    while (set?.size) await Promise.allSettled([...set]);
  }

  /** Forgets a closed tab. */
  forget(targetId: string): void {
    this.#answering.delete(targetId);
    this.#pausedAt.delete(targetId);
  }
}
