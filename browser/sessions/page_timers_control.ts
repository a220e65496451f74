/**
 * The timer watch's commands (`page_timers_script.ts`): the `control` object its way in
 * (`page_timers_channel.ts`) calls, with `soon()`, `later()`, `arm(ms)`, `disarm()` and `pending()` as
 * that script's doc describes them.
 *
 * @module
 */

/**
 * The main-world part that defines `control`, put inside the script's function after the timer
 * wrappers and the other parts (it uses their state: `pending`, `xhrs`, `counted`, `inflight`,
 * `direct`, `generation`, `armedUntil`, `startUntil`, `lastStart`, `lastDone`, `momentAt`,
 * `firstInput`, `messageMarks`, `soonDue`, `laterDue`, `resetSources`, `sourcesPending`, `resetResources`,
 * `resourcesCheck`, `resetWaits`, `waitsPending`, `resetReplies`, `repliesPending`, `childrenPending`, `resetChildren`, …) and before the channel, which calls it. `requestIdleMs` and `recentMs`:
 * the script's `REQUEST_IDLE_MS` and `RECENT_MS`.
 */
export function pageTimersControl(
  limits: { requestIdleMs: number; recentMs: number },
): string {
  return `
  // The commands (page_timers_channel.ts): reached only through the listener.
  const control = {
    // A timeout just past its due time may not have run yet (a busy page runs it late): still
    // due for 200 ms more (a not-found wait read "idle" as a button's 500 ms timer was late).
    soon() {
      const left = soonDue - now();
      return left > -200 ? max(1, ceil(left)) : 0;
    },
    later() {
      return max(0, ceil(laterDue - now()));
    },
    // What an earlier arming (here or above) counted is forgotten.
    reset() {
      apply(mapClear, pending, []);
      apply(mapClear, xhrs, []);
      counted = 0;
      inflight = direct = 0;
      generation++;
      lastStart = lastDone = momentAt = -Infinity;
      firstInput = Infinity;
      messageMarks = 0;
      resetSources();
      resetResources();
      resetWaits();
      resetReplies();
    },
    arm(ms) {
      startUntil = -Infinity;
      control.reset();
      resetChildren();
      armedUntil = now() + max(0, min(Number(ms) || 0, 120000));
    },
    disarm() {
      resetChildren();
      resetWaits();
      resetReplies();
      armedUntil = startUntil = -1;
      // Work still running from this arming is no one's now: a later unarmed watch (a history
      // move in this document) must not wait for it.
      inflight = direct = 0;
      generation++;
      lastDone = -Infinity;
      firstInput = Infinity;
      resetSources();
      resetResources();
      apply(mapClear, pending, []);
      apply(mapClear, xhrs, []);
    },
    pending() {
      resourcesCheck();
      const t = now();
      let next = Infinity;
      const late = [];
      apply(mapForEach, pending, [(due, id) => {
        // The timers past the cap (one due time): one cleared leaves it, so it goes sooner.
        if (t - due > (id === overflow ? 100 : 1000)) late[late.length] = id;
        else next = min(next, max(0, due - t));
      }]);
      for (let i = 0; i < late.length; i++) apply(mapDelete, pending, [late[i]]);
      // A request done (or aborted) whose end events the page stopped: ended now.
      const ends = [];
      apply(mapForEach, xhrs, [(end, xhr) => {
        const state = apply(readyStateOf, xhr, []);
        if (state === 4 || state === 0) ends[ends.length] = end;
      }]);
      for (let i = 0; i < ends.length; i++) ends[i]();
      // Requests nothing happened around for a while (a long-poll) are not waited for, but
      // those the input started directly are, until answered (the caller's cap bounds it).
      let mine = max(0, direct);
      const waiting = t - max(lastStart, lastDone) < ${limits.requestIdleMs} ? max(mine, inflight) : mine;
      let n = apply(mapSize, pending, []) + waiting;
      // When to look again for requests in flight and work that just ended: no timer's due time
      // (which the page may run late), so the asker need not wait past it.
      let again = Infinity;
      if (waiting > 0) again = ${limits.recentMs};
      const more = sourcesPending(t);
      n += more.n;
      next = min(next, more.next);
      // Waits (page_timers_waits.ts); held work has no due time: looked at again soon.
      const waits = waitsPending(t);
      n += waits.n + waits.held;
      next = min(next, waits.next);
      if (waits.held) again = min(again, ${limits.recentMs});
      // Replies (page_timers_replies.ts): a socket's, a service worker's, an IndexedDB chain's.
      const replyWaits = repliesPending(t);
      n += replyWaits.n + replyWaits.held;
      next = min(next, replyWaits.next);
      if (replyWaits.held) again = min(again, ${limits.recentMs});
      if (t - lastDone < ${limits.recentMs}) { n++; again = min(again, ${limits.recentMs} - (t - lastDone)); }
      // Same-origin children's, while this watch counts (page_timers_up.ts).
      if (t <= armedUntil) {
        const below = { n: 0, next: Infinity, again: Infinity, own: 0 };
        childrenPending(below);
        n += below.n;
        next = min(next, below.next);
        again = min(again, below.again);
        mine += below.own;
      }
      if (!n) return { n, nextMs: 0, own: mine };
      return again < next ? { n, nextMs: ceil(again), lookAgain: true, own: mine } : { n, nextMs: ceil(next), own: mine };
    },
  };
`;
}
