/**
 * The page-side half of the timer watch (`page_timers.ts`): a fixed script put in every
 * document's main world before its first script, that notes the short timers, requests,
 * intervals, animation frames, tasks, messages, animations and other waits an action starts, so
 * the action window stays open until they ran (`page_timers_sources.ts` has all but timers and
 * requests, `page_timers_waits.ts` the abort signals, locks, audio ends and view transitions).
 *
 * @module
 */

import { pageTimersChannel } from "./page_timers_channel.ts";
import { pageTimersSources } from "./page_timers_sources.ts";
import { pageTimersResources } from "./page_timers_resources.ts";
import { pageTimersUp } from "./page_timers_up.ts";
import { pageTimersControl } from "./page_timers_control.ts";
import { pageTimersWaits } from "./page_timers_waits.ts";
import { pageTimersReplies } from "./page_timers_replies.ts";

/** In a child frame, this many messages from the parent per arming count as input. */
export const MAX_MESSAGE_MARKS = 3;
/** Timers longer than this are not "a little after the input", ms. */
export const MAX_TIMER_DELAY_MS = 1000;
/**
 * A timer set this soon after an input event (or in a counted timer's callback) is the
 * action's: handlers, and the short promise chains they start, ms.
 */
export const ATTRIBUTION_MS = 50;
/** A counted timer's callback may start counted timers, this many levels deep in all. */
export const MAX_TIMER_DEPTH = 3;
/**
 * A timer that sets itself again (the same callback: a clock, a poller) counts this many
 * levels deep at most: the action's debounce re-arms once, a loop the page runs anyway stops.
 */
export const MAX_SELF_DEPTH = 2;
/** Counted timers per arming at most (a page setting timers in a loop). */
export const MAX_COUNTED = 64;
/**
 * A new document's start counts as armed until its load event and this long after: what it
 * sets to run shortly (a redirect, a render deferred by a timer, the data it fetches) belongs
 * to the navigation that loaded it, ms.
 */
export const LOAD_TAIL_MS = 50;
/** During its start, a document's own timers count up to this delay (a page's slow timers are its life, not its load), ms. */
export const LOAD_MAX_DELAY_MS = 300;

/**
 * Timeouts of at most this delay count for the `soon` command (a page building what a selector
 * looks for: the not-found wait of `browser/actions/target.ts`), ms.
 */
export const SOON_MAX_MS = 2000;

/**
 * Timeouts longer than {@link SOON_MAX_MS} and of at most this delay count for the `later`
 * command (a page that adds an element after some seconds: the not-found error says a timer is
 * still due rather than "fix the selector"), ms.
 */
export const LATER_MAX_MS = 60_000;

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
export const RECENT_MS = 25;
/**
 * Requests in flight count only until this long after the last counted request started or
 * ended, ms: a long-poll or a stalled call is the page's life, not the action's effect (the
 * recorder's PENDING_IDLE_MS for requests it sees on the network). Not for the requests an
 * input started (`pending().own`): the action's own search or save is waited for until it is
 * answered, within the recorder's cap and the call's deadline.
 */
export const REQUEST_IDLE_MS = 1000;

/**
 * The main-world script. It wraps `setTimeout`, `clearTimeout`, `fetch` and
 * `XMLHttpRequest.prototype.send`, and (`page_timers_sources.ts`) `setInterval`,
 * `clearInterval`, `requestAnimationFrame`, `cancelAnimationFrame`, `Scheduler.prototype.postTask`,
 * `MessagePort.prototype.postMessage` and the `port1`/`port2` getters of `MessageChannel` (the
 * wrappers keep the native functions' name, length and source text). It keeps its state in
 * its closure and puts nothing on the page's globals; browxai sends it these commands
 * (`page_timers_control.ts`) through an event listener whose type is `key`
 * (`page_timers_channel.ts`):
 *
 * - `arm(ms)`: count the action's work for the next `ms` (forgets an earlier arming's);
 * - `disarm()`: stop counting;
 * - `soon()`: ms until the latest due time of the timeouts of at most {@link SOON_MAX_MS} the page
 *   set, armed or not (0: none due; 1 while it is less than 200 ms past: it may run late);
 * - `later()`: the same for the longer timeouts, of at most {@link LATER_MAX_MS};
 * - `pending()`: `{ n, nextMs, lookAgain?, own }`, the counted timers not run yet and requests
 *   not answered, and the ms until it is worth asking again: the soonest timer's (or frame's,
 *   task's, message's) due time, 0 when overdue; or, with `lookAgain: true` when it comes
 *   first, {@link RECENT_MS} for a request in flight or what is left of it after work just
 *   ended (a look-again time, not a due time the page may run late); `own`: of those requests,
 *   the ones the arming's input started (counted until answered; others only until
 *   {@link REQUEST_IDLE_MS} of quiet). Timers overdue by more than a second are dropped
 *   (cleared by `clearInterval`, or the page is too busy to run them).
 *
 * Which work is the action's: work started in the task that dispatches an input event (its
 * handlers, however long they run) or within {@link ATTRIBUTION_MS} of it is level 1; work started in a counted timer's callback, or within {@link CONTINUATION_MS}
 * after counted work ended (its promise reactions, an XHR's load handlers), is one level
 * deeper; levels past {@link MAX_TIMER_DEPTH} are not counted (a loop the page runs anyway
 * stops counting), nor a timer setting itself again past {@link MAX_SELF_DEPTH}. A timer
 * counts when its delay is a number (or none) of at most {@link MAX_TIMER_DELAY_MS} and its
 * callback is a function; anything else goes to the native call untouched.
 *
 * A new document is armed from its first script until {@link LOAD_TAIL_MS} after its load
 * event: its own work then is level 1 (timers up to {@link LOAD_MAX_DELAY_MS} only), so a
 * navigation's window stays open for what the page set to run right after its load. `arm` and
 * `disarm` end that start.
 *
 * In a child frame, a `message` event from its parent counts as input (how a parent's action
 * reaches a cross-origin frame), the first {@link MAX_MESSAGE_MARKS} of an arming; a same-origin
 * child's watch (a fresh iframe's included) links to its parent's at its start and counts what
 * the parent's would count (`iframe.contentWindow.setTimeout` in the parent's click handler),
 * and the armed parent's `pending()` includes its children's (`page_timers_up.ts`).
 *
 * The built-ins the script uses are taken before the page's scripts run. Unarmed, the
 * wrappers only pass the call on (the port getters note which two ports are a channel's and
 * listen on them, which starts nothing). The page cannot reach the commands (a page that could
 * would disarm the watch in its click handler and hide what the click set to happen late).
 */
export function pageTimersScript(key: string): string {
  return compact(`(() => {
  const KEY = ${JSON.stringify(key)};
  const W = globalThis;
  const apply = Reflect.apply, defineProperty = Object.defineProperty;
  const addListener = EventTarget.prototype.addEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent, NativeCustomEvent = W.CustomEvent;
  const detailOf = Object.getOwnPropertyDescriptor(NativeCustomEvent.prototype, "detail").get;
  const startsWith = String.prototype.startsWith, strSlice = String.prototype.slice;
  // Installed already in this document (a target's script sent twice): its listener answers.
  let present = false;
  const probe = { __proto__: null, detail: () => { present = true; } };
  apply(dispatch, W, [new NativeCustomEvent(KEY, probe)]);
  if (present) return;
  const nativeSet = W.setTimeout, nativeClear = W.clearTimeout, nativeFetch = W.fetch;
  const XHRC = W.XMLHttpRequest, XHR = XHRC && XHRC.prototype;
  const nativeSend = XHR && XHR.send;
  const readyStateOf = XHR && Object.getOwnPropertyDescriptor(XHR, "readyState").get;
  if (typeof nativeSet !== "function" || typeof nativeClear !== "function") return;
  // Built-ins the page may replace later: taken now, called through Reflect.apply.
  const M = Map.prototype, mapSet = M.set, mapDelete = M.delete, mapGet = M.get;
  const mapClear = M.clear, mapForEach = M.forEach;
  const mapSize = Object.getOwnPropertyDescriptor(M, "size").get;
  const slice = Array.prototype.slice, then = Promise.prototype.then;
  const removeListener = EventTarget.prototype.removeEventListener;
  const targetOf = Object.getOwnPropertyDescriptor(Event.prototype, "target").get;
  const ceil = Math.ceil, min = Math.min, max = Math.max;
  const perf = W.performance, perfNow = perf.now;
  const now = () => apply(perfNow, perf, []);
  const toSource = Function.prototype.toString;
  const pending = new Map();
  // The latest due time of any short timeout the page set, counted or not (a clearTimeout
  // does not take it back): while one is due, the page may still be building what a selector
  // looks for (the \`soon\` command).
  let soonDue = -Infinity, laterDue = -Infinity;
  // Counted requests of XMLHttpRequest in flight, each with its end: pending() ends those the
  // page kept the end events from (a listener of its own that stops them).
  const xhrs = new Map();
  let armedUntil = -1, depth = 0, running, counted = 0, inflight = 0;
  // Of those in flight, the requests the input's work started (its handlers, their timers and
  // continuations; not a document's own start): waited for until answered, however quiet the
  // page is meanwhile (a long-poll the page restarts stops counting past MAX_TIMER_DEPTH).
  let direct = 0;
  // Requests counted under an earlier arming end uncounted: arm and disarm start a new one.
  let generation = 0;

  let momentAt = -Infinity, momentLevel = 0, momentSpan = 0, lastDone = -Infinity;
  let lastStart = -Infinity;
  // The arming's first input (performance.now() ms; Infinity before it): what starts later
  // (an animation) can be the action's. \`own\`: running a callback of the page's own that the
  // watch wrapped to know it is not the action's (a frame loop): nothing it starts counts.
  let firstInput = Infinity, own = false, messageMarks = 0;
  // The document's start: until its load event (and a moment after), its own work is level 1.
  const doc = W.document;
  let startUntil = doc && doc.readyState !== "complete" ? Infinity : -Infinity;
  if (startUntil > 0) {
    armedUntil = Infinity;
    const loaded = (event) => {
      if (apply(targetOf, event, []) !== doc || startUntil !== Infinity) return;
      startUntil = armedUntil = now() + ${LOAD_TAIL_MS};
    };
    apply(addListener, W, ["load", loaded, { capture: true }]);
  }
  const starting = () => now() <= startUntil;
  const moment = (level, span) => { momentAt = now(); momentLevel = level; momentSpan = span; };
  // Whether the level levelNow() last gave came from the parent's watch (\`page_timers_up.ts\`):
  // then this document's start rules do not apply to it.
  let fromUp = false;
  // The level new work would have, 0 when it is not the action's: this watch's, or (none, or
  // only this document's start) the parent's.
  const levelNow = () => (counted >= ${MAX_COUNTED} ? 0 : levelAny());
  // The level ignoring the cap on counted work (a timer past it still holds the window).
  const levelAny = () => {
    fromUp = false;
    if (own) return 0;
    const mine = ownLevel();
    if (!up || (mine && !startOnly())) return mine;
    const above = upLevel();
    if (!above) return mine;
    fromUp = true;
    return above;
  };
  const ownLevel = () => {
    if (now() > armedUntil) return 0;
    const level = depth > 0
      ? depth + 1
      : inInput
      ? 1
      : now() - momentAt <= momentSpan
      ? momentLevel + 1
      : starting()
      ? 1
      : 0;
    return level <= ${MAX_TIMER_DEPTH} ? level : 0;
  };
  // New work would count only as the document's start (not the input's, nor counted work's).
  const startOnly = () =>
    depth === 0 && !inInput && !(now() - momentAt <= momentSpan) && starting();
  const fromStart = () => !fromUp && startOnly();
  // Counted work ended: what starts right after is its continuation (here and up).
  const ended = (level) => { lastDone = now(); moment(level, ${CONTINUATION_MS}); upEnded(level); };
  // A counted request ended: counted only under the arming that started it.
  const answered = (g, level, byInput) => {
    if (g !== generation) return;
    inflight--;
    if (byInput) direct--;
    ended(level);
  };
  // A request starting now: counted (its level), and whether the input started it directly.
  const requestStarted = (level) => {
    counted++;
    inflight++;
    lastStart = now();
    // After this arming's input (a document's own start has none): the chain the input began.
    const byInput = firstInput !== Infinity && !fromStart();
    if (byInput) direct++;
    return byInput;
  };
  // The task that dispatches an input event is the input's however long its handlers run (a
  // handler that works 60 ms before it sets its timer escaped the ATTRIBUTION_MS moment); the
  // moment then starts again when the task ends (a timeout queued now runs after it).
  let inInput = false;
  const inputEnded = () => { inInput = false; moment(0, ${ATTRIBUTION_MS}); };
  const mark = () => {
    if (now() > armedUntil) return;
    moment(0, ${ATTRIBUTION_MS});
    if (firstInput === Infinity && startUntil < 0) firstInput = now();
    if (!inInput) { inInput = true; apply(nativeSet, W, [inputEnded, 0]); }
  };
  for (const type of ${JSON.stringify(INPUT_EVENTS)}) {
    apply(addListener, W, [type, mark, { capture: true, passive: true }]);
  }
  // In a child frame, a message from its parent is how the parent's action reaches it (a
  // cross-origin frame asked to raise a dialog, open a tab, move the top page): the first few
  // of an arming count as input (a parent's heartbeat does not hold the window).
  const sourceOf = W.MessageEvent && Object.getOwnPropertyDescriptor(W.MessageEvent.prototype, "source").get;
  if (W.top !== W && sourceOf) {
    const parentWindow = W.parent;
    const heard = (event) => {
      if (messageMarks >= ${MAX_MESSAGE_MARKS} || apply(sourceOf, event, []) !== parentWindow) return;
      messageMarks++;
      mark();
    };
    apply(addListener, W, ["message", heard, { capture: true, passive: true }]);
  }
  // Methods, as the natives: no prototype, not constructible, their name and length.
  const masked = (fn, native) => {
    defineProperty(fn, "toString", {
      value: { toString() { return apply(toSource, native, []); } }.toString,
    });
    defineProperty(fn, "length", { value: native.length });
    return fn;
  };
${pageTimersUp()}
  // A timeout the action set, counted here; its id, or undefined when it is not the action's.
  const countTimeout = (native, self, args) => {
    const handler = args[0], delay = args[1];
    if (
      !armed() || typeof handler !== "function" ||
      (delay !== undefined && typeof delay !== "number")
    ) return undefined;
    // As WebIDL's long: wrapped to 32 bits, negative is 0.
    const ms = max(0, (delay || 0) | 0);
    const again = handler === running;
    let level = ms <= ${MAX_TIMER_DELAY_MS} ? levelAny() : 0;
    // The document's own start: only its short timers (a deferred render, a redirect).
    if (level === 1 && !fromUp && depth === 0 && ms > ${LOAD_MAX_DELAY_MS} && starting()) level = 0;
    if (again && level > ${MAX_SELF_DEPTH}) level = 0;
    if (!level) return undefined;
    // Past the cap (64 dummy timers first, then the real one): not each, but the latest due
    // time still holds the window, and what runs then is still the action's.
    const capped = counted >= ${MAX_COUNTED};
    if (!capped) counted++;
    const rest = apply(slice, args, [2]);
    const due = now() + ms;
    let id;
    // \`counting\` (page_timers_sources.ts): defined further down, there when a timer runs.
    const run = function () {
      if (!capped) apply(mapDelete, pending, [id]);
      else if (now() >= apply(mapGet, pending, [overflow]) - 1) apply(mapDelete, pending, [overflow]);
      return counting(level, handler, this, rest);
    };
    id = apply(native, self, [run, ms]);
    if (!capped) apply(mapSet, pending, [id, due]);
    else if (!(apply(mapGet, pending, [overflow]) >= due)) apply(mapSet, pending, [overflow, due]);
    return id;
  };
  // The key of the latest due time of the timers past the cap in \`pending\`.
  const overflow = {};
  const wrappers = {
    setTimeout() {
      const delay = arguments[1];
      if (typeof arguments[0] === "function" && (delay === undefined || typeof delay === "number")) {
        const ms = max(0, (delay || 0) | 0);
        if (ms <= ${SOON_MAX_MS}) soonDue = max(soonDue, now() + ms);
        else if (ms <= ${LATER_MAX_MS}) laterDue = max(laterDue, now() + ms);
      }
      const id = countTimeout(nativeSet, this, arguments);
      return id !== undefined ? id : apply(nativeSet, this, arguments);
    },
    clearTimeout(id) {
      apply(mapDelete, pending, [id]);
      return apply(nativeClear, this, arguments);
    },
    fetch() {
      const level = levelNow();
      const p = apply(nativeFetch, this, arguments);
      if (!level) return p;
      const byInput = requestStarted(level);
      const g = generation;
      // The page gets the promise that settles after the count: a failure it does not handle
      // is still its own unhandled rejection.
      return apply(then, p, [
        (r) => { answered(g, level, byInput); return r; },
        (e) => { answered(g, level, byInput); throw e; },
      ]);
    },
    send() {
      const level = levelNow();
      // An XMLHttpRequest by its brand (the native getter), not by instanceof, which the page can
      // redefine (Symbol.hasInstance).
      let isXhr = !!level;
      try { if (isXhr) apply(readyStateOf, this, []); } catch { isXhr = false; }
      if (!isXhr) return apply(nativeSend, this, arguments);
      const byInput = requestStarted(level);
      const g = generation;
      let open = true;
      const xhr = this;
      // readystatechange (DONE) comes before load: timers the page's load handler sets are
      // the request's continuation.
      const onState = () => { if (apply(readyStateOf, xhr, []) === 4) done(); };
      const done = () => {
        if (!open) return;
        open = false;
        apply(mapDelete, xhrs, [xhr]);
        apply(removeListener, xhr, ["readystatechange", onState]);
        answered(g, level, byInput);
      };
      apply(mapSet, xhrs, [xhr, done]);
      apply(addListener, xhr, ["readystatechange", onState]);
      apply(addListener, xhr, ["loadend", done, { once: true }]);
      try { return apply(nativeSend, this, arguments); } catch (e) { done(); throw e; }
    },
  };
  W.setTimeout = masked(wrappers.setTimeout, nativeSet);
  W.clearTimeout = masked(wrappers.clearTimeout, nativeClear);
  if (typeof nativeFetch === "function") W.fetch = masked(wrappers.fetch, nativeFetch);
  if (typeof nativeSend === "function") XHR.send = masked(wrappers.send, nativeSend);
${
    pageTimersSources({
      maxDelayMs: MAX_TIMER_DELAY_MS,
      continuationMs: CONTINUATION_MS,
      loadMaxDelayMs: LOAD_MAX_DELAY_MS,
    })
  }
${pageTimersResources()}
${pageTimersWaits({ maxDelayMs: MAX_TIMER_DELAY_MS, loadMaxDelayMs: LOAD_MAX_DELAY_MS })}
${pageTimersReplies({ maxDelayMs: MAX_TIMER_DELAY_MS, continuationMs: CONTINUATION_MS })}
${pageTimersControl({ requestIdleMs: REQUEST_IDLE_MS, recentMs: RECENT_MS })}
${pageTimersChannel()}})();`);
}

/**
 * The script without its indentation and whole-line comments (sent once per target, parsed in
 * every document): line breaks stay, so what it means does not change.
 */
function compact(source: string): string {
  return source.split("\n").map((line) => line.trim())
    .filter((line) => line && !line.startsWith("//")).join("\n");
}
