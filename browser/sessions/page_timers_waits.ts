/**
 * Waits an action starts that end in a callback a moment later, for the timer watch's page
 * script (`page_timers_script.ts`): `AbortSignal.timeout(ms)` (and `AbortSignal.any` over it),
 * `Atomics.waitAsync(…, timeout)`, `navigator.locks.request` (the lock held, then released),
 * an `AudioScheduledSourceNode`'s end (`stop(when)`, an `AudioBufferSourceNode`'s buffer) and
 * `document.startViewTransition`. A click handler that reacts ~300 ms later through one of them
 * (a render, a navigation, a write) escaped the action window before (red team, session 13).
 *
 * @module
 */

/** Work without a due time (a lock held, a view transition) counts this long at most, ms. */
export const MAX_HOLD_MS = 2000;
/** A timed wait whose event has not come this long past its due time is dropped, ms. */
const LATE_MS = 1000;

/**
 * The script's part, put inside its function after the sources and resources (it uses `apply`,
 * `W`, `getter`, `masked`, `armed`, `levelNow`, `fromStart`, `counting`, `ended`, `counted`,
 * `pending`, `then`, `slice`, `addListener`, the map built-ins, `now`, `min`, `max`). It wraps
 * `EventTarget.prototype.addEventListener` (to note who listens for `abort`, `ended` and `message`: nothing
 * else changes), `AbortSignal.timeout`, `AbortSignal.any`, `Atomics.waitAsync`,
 * `LockManager.prototype.request`, `AudioScheduledSourceNode.prototype.start`/`stop` and
 * `Document.prototype.startViewTransition` (masked as the natives). It defines:
 *
 * - `resetWaits()`: forget what an earlier arming counted;
 * - `waitsPending(t)`: `{ n, next, held }`: timed waits still to come and the ms until the
 *   soonest, and the held work (no due time: the asker looks again soon).
 *
 * What counts, when new work would be the action's (`levelNow()`), with a delay of at most
 * `maxDelayMs` (in a document's start, `loadMaxDelayMs`):
 * - a timeout signal or an audio source's end: as a timer due then, but only while the page
 *   listens for its `abort` / `ended` (a fetch's timeout signal nobody listens to changes
 *   nothing when it fires: not waited for); its event ends counted work (a capture listener on
 *   the target, which runs before the page's own), so what the page's handler starts is its
 *   continuation;
 * - `Atomics.waitAsync` with a finite timeout, until its promise settles (the watch's reaction
 *   runs before the page's);
 * - a lock request, from the request until its promise settles (the lock released), its
 *   callback run as counted work; a view transition until its `finished` settles, its update
 *   callback run as counted work: held, {@link MAX_HOLD_MS} at most.
 */
export function pageTimersWaits(limits: { maxDelayMs: number; loadMaxDelayMs: number }): string {
  const MAX = limits.maxDelayMs, LOAD = limits.loadMaxDelayMs;
  return `
  // ---- Waits an action starts (page_timers_waits.ts).
  const timed = new Map(), holds = new Map(), timedOf = new WeakMap();
  const WSP = WeakSet.prototype, wsAdd = WSP.add, wsHas = WSP.has;
  // One pair for the linked same-origin frames (page_timers_up.ts): a page may listen on one
  // realm's signal with another realm's addEventListener.
  const sharedHeard = up ? upSide.heard() : null;
  const heardAbort = sharedHeard ? sharedHeard.abort : new WeakSet();
  const heardEnded = sharedHeard ? sharedHeard.ended : new WeakSet();
  const heardMessage = sharedHeard ? sharedHeard.message : new WeakSet();
  const waitsHeard = { __proto__: null, abort: heardAbort, ended: heardEnded, message: heardMessage };
  // Told of the page's listeners (page_timers_replies.ts: an EventSource's named events).
  let listenHook = null;
  const isArray = Array.isArray;
  const resetWaits = () => { apply(mapClear, timed, []); apply(mapClear, holds, []); };
  // The level of a wait of ms, 0 when it is not the action's.
  const waitLevel = (ms) => {
    if (!armed() || !(ms <= ${MAX})) return 0;
    const level = levelNow();
    return level === 1 && ms > ${LOAD} && fromStart() ? 0 : level;
  };
  const listened = (k) => {
    if (apply(wsHas, k.heard, [k.target])) return true;
    try { return !!k.handlerOf && apply(k.handlerOf, k.target, []) != null; } catch { return false; }
  };
  // A timed wait on target's event of type, due in ms.
  const waitFor = (target, type, ms, level, heard, handlerOf) => {
    const prior = apply(wmGet, timedOf, [target]);
    if (prior) apply(mapDelete, timed, [prior]);
    counted++;
    const k = {
      __proto__: null, target, due: now() + ms, level, heard, handlerOf, abort: type === "abort",
    };
    apply(mapSet, timed, [k, k]);
    apply(wmSet, timedOf, [target, k]);
    apply(addListener, target, [type, () => {
      if (apply(mapGet, timed, [k]) !== k) return;
      apply(mapDelete, timed, [k]);
      if (listened(k)) ended(level);
    }, { capture: true, once: true }]);
  };
  const hold = (level) => {
    counted++;
    const k = { __proto__: null, until: now() + ${MAX_HOLD_MS}, level };
    apply(mapSet, holds, [k, k]);
    return k;
  };
  const release = (k) => {
    if (apply(mapGet, holds, [k]) !== k) return;
    apply(mapDelete, holds, [k]);
    ended(k.level);
  };
  // Released when p settles. A page that makes then() throw here (a Promise.prototype.constructor
  // getter) leaves the work held until its bound, not released early.
  const settled = (p, k) => {
    try { apply(then, p, [() => release(k), () => release(k)]); } catch {}
  };
  const waitsPending = (t) => {
    const out = { n: 0, next: Infinity, held: 0 };
    const gone = [];
    apply(mapForEach, timed, [(k) => {
      if (t - k.due > ${LATE_MS}) gone[gone.length] = k;
      else if (listened(k)) { out.n++; out.next = min(out.next, max(0, k.due - t)); }
    }]);
    apply(mapForEach, holds, [(k) => {
      if (t > k.until) gone[gone.length] = k;
      else out.held++;
    }]);
    for (let i = 0; i < gone.length; i++) {
      apply(mapDelete, timed, [gone[i]]);
      apply(mapDelete, holds, [gone[i]]);
    }
    return out;
  };

  // Who listens for abort and ended (the page's own listeners: nothing else changes).
  const ETP = W.EventTarget && W.EventTarget.prototype;
  if (ETP && typeof addListener === "function") {
    ETP.addEventListener = masked({
      addEventListener(type) {
        // A type that is no string (an object the browser turns into one) may be either.
        const other = typeof type !== "string";
        if (this !== null && typeof this === "object") {
          try {
            if (other || type === "abort") apply(wsAdd, heardAbort, [this]);
            if (other || type === "ended") apply(wsAdd, heardEnded, [this]);
            if (other || type === "message") apply(wsAdd, heardMessage, [this]);
            if (listenHook) listenHook(this, type);
          } catch {}
        }
        return apply(addListener, this, arguments);
      },
    }.addEventListener, addListener);
  }

  const AS = W.AbortSignal;
  const nativeAbortTimeout = AS && AS.timeout, nativeAny = AS && AS.any;
  const onabortOf = AS && getter(AS.prototype, "onabort");
  if (typeof nativeAbortTimeout === "function") {
    AS.timeout = masked({
      timeout(ms) {
        const signal = apply(nativeAbortTimeout, this, arguments);
        // The native took it: a whole number of ms, not negative.
        const level = typeof ms === "number" ? waitLevel(ms) : 0;
        if (level) waitFor(signal, "abort", ms, level, heardAbort, onabortOf);
        return signal;
      },
    }.timeout, nativeAbortTimeout);
  }
  // A counted abort wait still to come on target: this watch's, or one above (a signal of the
  // parent's realm passed to a child realm's AbortSignal.any).
  const waitOf = (target) => {
    const k = apply(wmGet, timedOf, [target]);
    if (k && apply(mapGet, timed, [k]) === k) return k;
    return up ? upSide.waitOf(target) : undefined;
  };
  if (typeof nativeAny === "function") {
    AS.any = masked({
      any(signals) {
        const signal = apply(nativeAny, this, arguments);
        if (!armed()) return signal;
        // Aborted by its soonest counted timeout signal, at that one's level; for a list that is
        // no array (an iterable the native used up), the soonest of this watch's.
        let soonest;
        const take = (k) => { if (k && (!soonest || k.due < soonest.due)) soonest = k; };
        if (isArray(signals)) {
          for (let i = 0; i < signals.length && i < 64; i++) take(waitOf(signals[i]));
        } else {
          apply(mapForEach, timed, [(k) => { if (k.abort) take(k); }]);
        }
        if (soonest) {
          waitFor(signal, "abort", max(0, soonest.due - now()), soonest.level, heardAbort, onabortOf);
        }
        return signal;
      },
    }.any, nativeAny);
  }

  const AT = W.Atomics, nativeWaitAsync = AT && AT.waitAsync;
  if (typeof nativeWaitAsync === "function") {
    AT.waitAsync = masked({
      waitAsync(array, index, value, timeout) {
        const r = apply(nativeWaitAsync, this, arguments);
        const level = typeof timeout === "number" ? waitLevel(timeout) : 0;
        if (!level || !r || r.async !== true) return r;
        counted++;
        const k = {};
        apply(mapSet, pending, [k, now() + max(0, timeout)]);
        // Registered before the page's reactions: they run as its continuation.
        apply(then, r.value, [() => { apply(mapDelete, pending, [k]); ended(level); }]);
        return r;
      },
    }.waitAsync, nativeWaitAsync);
  }

  const LMP = W.LockManager && W.LockManager.prototype;
  const nativeRequest = LMP && LMP.request;
  if (typeof nativeRequest === "function") {
    LMP.request = masked({
      request(name) {
        const last = arguments.length - 1, callback = arguments[last];
        const level = last >= 1 && typeof callback === "function" && armed() ? levelNow() : 0;
        if (!level) return apply(nativeRequest, this, arguments);
        const args = apply(slice, arguments, []);
        args[last] = function () { return counting(level, callback, this, arguments); };
        const k = hold(level);
        let p;
        try { p = apply(nativeRequest, this, args); } catch (e) { release(k); throw e; }
        settled(p, k);
        return p;
      },
    }.request, nativeRequest);
  }

  const SSP = W.AudioScheduledSourceNode && W.AudioScheduledSourceNode.prototype;
  const nativeStart = SSP && SSP.start, nativeStop = SSP && SSP.stop;
  const onendedOf = getter(SSP, "onended");
  const contextOf = getter(W.AudioNode && W.AudioNode.prototype, "context");
  const timeOf = getter(W.BaseAudioContext && W.BaseAudioContext.prototype, "currentTime");
  const BSP = W.AudioBufferSourceNode && W.AudioBufferSourceNode.prototype;
  const bufferOf = getter(BSP, "buffer"), loopOf = getter(BSP, "loop");
  const durationOf = getter(W.AudioBuffer && W.AudioBuffer.prototype, "duration");
  // The node's end, when, in its context's seconds: ms from now.
  const audioWait = (node, when) => {
    if (!armed() || !contextOf || !timeOf) return;
    try {
      const ms = max(0, (when - apply(timeOf, apply(contextOf, node, []), [])) * 1000);
      const level = waitLevel(ms);
      if (level) waitFor(node, "ended", ms, level, heardEnded, onendedOf);
    } catch {}
  };
  if (typeof nativeStop === "function" && typeof nativeStart === "function") {
    SSP.stop = masked({
      stop(when) {
        const r = apply(nativeStop, this, arguments);
        audioWait(this, typeof when === "number" ? when : 0);
        return r;
      },
    }.stop, nativeStop);
    SSP.start = masked({
      start(when, offset, duration) {
        const r = apply(nativeStart, this, arguments);
        // A buffer source that plays its (short) buffer once ends by itself.
        if (armed() && bufferOf && durationOf) {
          try {
            const buffer = apply(bufferOf, this, []);
            if (buffer && !apply(loopOf, this, [])) {
              const t = apply(timeOf, apply(contextOf, this, []), []);
              const from = typeof offset === "number" ? max(0, offset) : 0;
              let length = max(0, apply(durationOf, buffer, []) - from);
              if (typeof duration === "number") length = min(length, max(0, duration));
              audioWait(this, max(t, typeof when === "number" ? when : 0) + length);
            }
          } catch {}
        }
        return r;
      },
    }.start, nativeStart);
  }

  const DocP = W.Document && W.Document.prototype;
  const nativeTransition = DocP && DocP.startViewTransition;
  const finishedOf = getter(W.ViewTransition && W.ViewTransition.prototype, "finished");
  if (typeof nativeTransition === "function" && finishedOf) {
    DocP.startViewTransition = masked({
      startViewTransition(update) {
        const level = armed() ? levelNow() : 0;
        if (!level) return apply(nativeTransition, this, arguments);
        const args = apply(slice, arguments, []);
        if (typeof update === "function") {
          args[0] = function () { return counting(level, update, this, arguments); };
        }
        const k = hold(level);
        let transition;
        try { transition = apply(nativeTransition, this, args); } catch (e) { release(k); throw e; }
        try { settled(apply(finishedOf, transition, []), k); } catch {}
        return transition;
      },
    }.startViewTransition, nativeTransition);
  }
`;
}
