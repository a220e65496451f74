/**
 * The page-side half of the timer watch (`page_timers.ts`): a fixed script put in every
 * document's main world before its first script, that notes the short timers an action
 * starts, so the action window stays open until they ran.
 *
 * @module
 */

/** Timers longer than this are not "a little after the input", ms. */
export const MAX_TIMER_DELAY_MS = 1000;
/**
 * A timer set this soon after an input event (or in a counted timer's callback) is the
 * action's: handlers, and the short promise chains they start, ms.
 */
export const ATTRIBUTION_MS = 150;
/** A counted timer's callback may start counted timers, this many levels deep in all. */
export const MAX_TIMER_DEPTH = 3;
/** Counted timers per arming at most (a page setting timers in a loop). */
export const MAX_COUNTED = 64;

/** Events that mark input (capture listeners on the window, so shadow trees are seen too). */
const INPUT_EVENTS = [
  "pointerdown",
  "pointerup",
  "pointermove",
  "pointerover",
  "mousedown",
  "mouseup",
  "mousemove",
  "mouseover",
  "click",
  "dblclick",
  "contextmenu",
  "keydown",
  "keypress",
  "keyup",
  "beforeinput",
  "input",
  "change",
  "submit",
  "focusin",
  "focusout",
  "scroll",
  "wheel",
];

/**
 * After a counted timer ran or a counted request ended, work started this soon is its
 * continuation (the promise reactions that follow it), ms.
 */
export const CONTINUATION_MS = 20;
/** Right after counted work ended, `pending()` says to look again this much later, ms. */
export const RECENT_MS = 50;

/**
 * The main-world script. It wraps `setTimeout`, `clearTimeout`, `fetch` and
 * `XMLHttpRequest.prototype.send` (the wrappers keep the native functions' name, length and
 * source text) and defines `globalThis[key]`, a frozen object that is neither enumerable nor
 * writable:
 *
 * - `arm(ms)`: count the action's work for the next `ms` (forgets an earlier arming's);
 * - `disarm()`: stop counting;
 * - `pending()`: `{ n, nextMs }`, the counted timers not run yet and requests not answered,
 *   and the ms until it is worth asking again (a timer's due time, 0 when overdue; 50 for a
 *   request in flight or work that just ended). Timers overdue by more than a second are
 *   dropped (cleared by `clearInterval`, or the page is too busy to run them).
 *
 * Which work is the action's: work started within {@link ATTRIBUTION_MS} of an input event
 * is level 1; work started in a counted timer's callback, or within {@link CONTINUATION_MS}
 * after counted work ended (its promise reactions), is one level deeper; levels past
 * {@link MAX_TIMER_DEPTH} are not counted (a loop the page runs anyway stops counting). A
 * timer counts when its delay is at most {@link MAX_TIMER_DELAY_MS} and its callback is a
 * function. Unarmed, the wrappers only pass the call on. The page can reach the object (it is
 * its world): what it could do with it is make an action wait for its own work, which it can
 * do anyway.
 */
export function pageTimersScript(key: string): string {
  return `(() => {
  const KEY = ${JSON.stringify(key)};
  const W = globalThis;
  if (Object.prototype.hasOwnProperty.call(W, KEY)) return;
  const nativeSet = W.setTimeout, nativeClear = W.clearTimeout, nativeFetch = W.fetch;
  const XHR = W.XMLHttpRequest && W.XMLHttpRequest.prototype;
  const nativeSend = XHR && XHR.send;
  if (typeof nativeSet !== "function" || typeof nativeClear !== "function") return;
  const apply = Reflect.apply;
  const perf = W.performance, perfNow = perf.now;
  const now = () => apply(perfNow, perf, []);
  const toSource = Function.prototype.toString;
  const pending = new Map();
  let armedUntil = -1, depth = 0, counted = 0, inflight = 0;
  let momentAt = -Infinity, momentLevel = 0, momentSpan = 0, lastDone = -Infinity;
  const moment = (level, span) => { momentAt = now(); momentLevel = level; momentSpan = span; };
  // The level new work would have, 0 when it is not the action's.
  const levelNow = () => {
    if (now() > armedUntil || counted >= ${MAX_COUNTED}) return 0;
    const level = depth > 0 ? depth + 1 : now() - momentAt <= momentSpan ? momentLevel + 1 : 0;
    return level <= ${MAX_TIMER_DEPTH} ? level : 0;
  };
  const ended = (level) => { lastDone = now(); moment(level, ${CONTINUATION_MS}); };
  const mark = () => { if (now() <= armedUntil) moment(0, ${ATTRIBUTION_MS}); };
  for (const type of ${JSON.stringify(INPUT_EVENTS)}) {
    W.addEventListener(type, mark, { capture: true, passive: true });
  }
  const masked = (fn, native) => {
    Object.defineProperty(fn, "toString", {
      value: function toString() { return apply(toSource, native, []); },
    });
    Object.defineProperty(fn, "length", { value: native.length });
    return fn;
  };
  W.setTimeout = masked(function setTimeout(handler) {
    if (now() > armedUntil || typeof handler !== "function") return apply(nativeSet, this, arguments);
    const delay = Math.max(0, Number(arguments[1]) || 0);
    const level = delay <= ${MAX_TIMER_DELAY_MS} ? levelNow() : 0;
    if (!level) return apply(nativeSet, this, arguments);
    counted++;
    const args = Array.prototype.slice.call(arguments, 2);
    let id;
    const run = function () {
      pending.delete(id);
      const outer = depth;
      depth = level;
      try { return apply(handler, this, args); } finally { depth = outer; ended(level); }
    };
    id = apply(nativeSet, this, [run, delay]);
    pending.set(id, now() + delay);
    return id;
  }, nativeSet);
  W.clearTimeout = masked(function clearTimeout(id) {
    pending.delete(id);
    return apply(nativeClear, this, arguments);
  }, nativeClear);
  if (typeof nativeFetch === "function") {
    W.fetch = masked(function fetch() {
      const level = levelNow();
      const p = apply(nativeFetch, this, arguments);
      if (level) {
        counted++;
        inflight++;
        const done = () => { inflight--; ended(level); };
        p.then(done, done);
      }
      return p;
    }, nativeFetch);
  }
  if (typeof nativeSend === "function") {
    XHR.send = masked(function send() {
      const level = levelNow();
      if (level && this instanceof W.XMLHttpRequest) {
        counted++;
        inflight++;
        const done = () => { inflight--; ended(level); };
        this.addEventListener("loadend", done, { once: true });
        try { return apply(nativeSend, this, arguments); } catch (e) { this.removeEventListener("loadend", done); inflight--; throw e; }
      }
      return apply(nativeSend, this, arguments);
    }, nativeSend);
  }
  Object.defineProperty(W, KEY, {
    value: Object.freeze({
      arm(ms) {
        pending.clear();
        counted = 0;
        inflight = 0;
        lastDone = momentAt = -Infinity;
        armedUntil = now() + Math.max(0, Math.min(Number(ms) || 0, 120000));
      },
      disarm() {
        armedUntil = -1;
        pending.clear();
      },
      pending() {
        const t = now();
        let next = Infinity;
        for (const [id, due] of pending) {
          if (t - due > 1000) pending.delete(id);
          else next = Math.min(next, Math.max(0, due - t));
        }
        let n = pending.size + Math.max(0, inflight);
        if (inflight > 0) next = Math.min(next, ${RECENT_MS});
        if (t - lastDone < ${RECENT_MS}) { n++; next = Math.min(next, ${RECENT_MS} - (t - lastDone)); }
        return { n, nextMs: n ? Math.ceil(next) : 0 };
      },
    }),
  });
})();`;
}
