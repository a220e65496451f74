/**
 * What an acting call's result waits for from the navigation guard: the navigations the page
 * requested in the call's window that the guard has not judged yet, and the tabs it is moving
 * back off a refused back/forward-cache restore (`history_return.ts`).
 *
 * @module
 */
import { poll } from "../poll.ts";

/** Longest wait for the request of a navigation the page asked for (none: it was cancelled), ms. */
const JUDGE_MS = 1_000;

/** The guard's verdicts and returns still pending, for one session's tabs. */
export class GuardPending {
  /** Frames whose navigation the page requested in this window, not judged yet → when (ms). */
  #requested = new Map<string, number>();
  /** Tabs being moved back off a refused back/forward-cache restore. */
  #returns = new Set<Promise<void>>();

  /** The page asked frame `frameId` to navigate now (`Page.frameRequestedNavigation`). */
  requested(frameId: string): void {
    this.#requested.set(frameId, Date.now());
  }

  /** Frame `frameId`'s requested navigation was judged, committed or given up. */
  judged(frameId: string): void {
    this.#requested.delete(frameId);
  }

  /** Forgets every requested navigation (a window begins or ends). */
  clear(): void {
    this.#requested.clear();
  }

  /** Counts `back` (a tab moving back, never rejecting) in until it settles. */
  returning(back: Promise<void>): void {
    this.#returns.add(back);
    back.finally(() => this.#returns.delete(back));
  }

  /**
   * Resolves once the guard has judged every navigation the page requested
   * in the current window (each waited for at most {@link JUDGE_MS}) and
   * every tab it is moving back off a refused back/forward-cache restore is
   * back, or at `deadline` (ms since the epoch): an action's result then
   * says what the guard stopped and shows where the tab stands. True when
   * there was something to wait for (the page may have changed: settle again).
   *
   * @throws the signal's reason as soon as `signal` (the call's) aborts.
   */
  async settled(deadline: number, signal?: AbortSignal): Promise<boolean> {
    let waited = false;
    // Only what was asked before this wait: a page that keeps asking cannot hold the call.
    const asOf = Date.now();
    if (deadline <= asOf) return false;
    await poll(() => {
      const now = Date.now();
      for (const [frameId, at] of this.#requested) {
        if (now - at > JUDGE_MS) this.#requested.delete(frameId);
      }
      const pending = [...this.#requested.values()].some((at) => at <= asOf);
      if (!pending && !this.#returns.size) return true;
      waited = true;
      return false;
    }, { timeoutMs: deadline - asOf, intervalMs: 20, maxIntervalMs: 20, signal });
    return waited;
  }
}
