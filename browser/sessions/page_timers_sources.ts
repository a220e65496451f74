/**
 * More of what an action starts, for the timer watch's page script (`page_timers_script.ts`):
 * an interval's first runs, a chain of animation frames, a task posted with
 * `scheduler.postTask`, a MessageChannel loop, and the short CSS transitions, CSS animations
 * and Web Animations that start after the action's input (`page_timers_animations.ts`).
 *
 * @module
 */
import { pageTimersAnimations } from "./page_timers_animations.ts";

/** An interval counts for this many runs at most (and only while they fall within the delay bound). */
export const MAX_INTERVAL_RUNS = 2;
/** A frame callback asked for again this soon after its last unarmed request is a loop the page runs, ms. */
export const LOOP_GAP_MS = 200;
/** A chain of animation frames the action started counts this many frames at most (about 0.6 s at 60 Hz). */
export const MAX_FRAMES = 36;
/** A frame asked for is due this soon, ms; one overdue by {@link FRAME_LATE_MS} is dropped (a hidden tab draws no frames). */
export const FRAME_MS = 16;
/** See {@link FRAME_MS}, ms. */
export const FRAME_LATE_MS = 500;
/** Messages a MessageChannel carries count this long after the last one was posted or delivered, ms. */
export const MESSAGE_IDLE_MS = 250;

/**
 * The script's second half, put inside its function after the timer wrappers (it uses their
 * state: `apply`, `levelNow`, `ended`, `depth`, `running`, `own`, `counted`, `pending`,
 * `firstInput`, `armedUntil`, `masked`, …) and before the page-side object is defined, which
 * calls the two functions it defines:
 *
 * - `resetSources()`: forget what an earlier arming counted;
 * - `sourcesPending(t)`: `{ n, next }`, the frames, tasks, messages and animations still to
 *   come and the ms until the soonest is due.
 *
 * Which work counts, beside timers:
 * - `setInterval` (delay at most `maxDelayMs`): as a timer, for its first
 *   {@link MAX_INTERVAL_RUNS} runs while they fall within `maxDelayMs` (in a document's start,
 *   as its timers: a delay of at most `loadMaxDelayMs`, and its first run only);
 * - `requestAnimationFrame`: as a timer due in {@link FRAME_MS}; a counted frame asking for the
 *   next is the same chain, at the same level, up to {@link MAX_FRAMES} frames. A frame the
 *   page asks for uncounted (its own loop) runs marked as its own: nothing it starts counts;
 *   a callback the page asked a frame for while unarmed at most {@link LOOP_GAP_MS} earlier is
 *   its own loop too;
 * - `scheduler.postTask` (delay at most `maxDelayMs`): as a timer;
 * - `MessagePort.postMessage` on a MessageChannel's port: the message is pending until its
 *   port's listeners run; one posted right after a counted one was delivered continues the
 *   chain at the same level, for `maxDelayMs` from the chain's first;
 * - short animations started after the action's first input (`page_timers_animations.ts`).
 */
export function pageTimersSources(
  limits: { maxDelayMs: number; continuationMs: number; loadMaxDelayMs: number },
): string {
  const MAX = limits.maxDelayMs;
  return `
  // ---- More sources (page_timers_sources.ts).
  const getOwn = Object.getOwnPropertyDescriptor, nativeHas = Map.prototype.has;
  const WM = WeakMap.prototype, wmGet = WM.get, wmSet = WM.set;
  const getter = (proto, name) => {
    const d = proto && getOwn(proto, name);
    return d && d.get;
  };
  // Counted frames (id -> due) and tasks (key -> due), and the chain of frames running now.
  const frames = new Map(), tasks = new Map();
  // Frame callbacks the page asked for while unarmed, with when (its loops).
  const unarmedFrames = new WeakMap();
  let frameCount = 0, inFrame = 0;
  // Counted messages not delivered yet, by receiving port: { n, level }.
  const portQueues = new WeakMap(), partners = new WeakMap();
  let inMessages = 0, lastMessage = -Infinity, messageAt = -Infinity, messageLevel = 0;
  let chainStart = -Infinity;
  const resetSources = () => {
    apply(mapClear, frames, []);
    apply(mapClear, tasks, []);
    frameCount = inFrame = inMessages = 0;
    lastMessage = messageAt = chainStart = -Infinity;
    resetAnimations();
  };
  // Runs a counted callback at its level: what it starts is one level deeper (in the parent's
  // watch too: a callback of the parent's realm run through this window).
  const counting = (level, handler, self, args) =>
    upRun(level, () => countingHere(level, handler, self, args));
  const countingHere = (level, handler, self, args) => {
    const outer = depth, outerRunning = running;
    depth = level;
    running = handler;
    try { return apply(handler, self, args); } finally {
      depth = outer;
      running = outerRunning;
      ended(level);
    }
  };

  const nativeInterval = W.setInterval, nativeClearInterval = W.clearInterval;
  if (typeof nativeInterval === "function" && typeof nativeClearInterval === "function") {
    const more = {
      setInterval(handler) {
        const delay = arguments[1];
        if (
          !armed() || typeof handler !== "function" ||
          (delay !== undefined && typeof delay !== "number")
        ) return apply(nativeInterval, this, arguments);
        const ms = max(0, (delay || 0) | 0);
        let level = ms <= ${MAX} ? levelNow() : 0;
        // The document's own start: its first run only, and only a short one (a poll it
        // starts at load is its life).
        const loading = level === 1 && fromStart();
        if (loading && ms > ${limits.loadMaxDelayMs}) level = 0;
        if (!level) return apply(nativeInterval, this, arguments);
        counted++;
        const args = apply(slice, arguments, [2]);
        const maxRuns = loading ? 1 : ${MAX_INTERVAL_RUNS};
        let id, runs = 0;
        const run = function () {
          if (runs >= maxRuns) return apply(handler, this, args);
          runs++;
          // The next run counts too while the runs stay within the bound (and this arming's).
          const again = runs < maxRuns && (runs + 1) * ms <= ${MAX} &&
            apply(nativeHas, pending, [id]);
          if (again) apply(mapSet, pending, [id, now() + ms]);
          else apply(mapDelete, pending, [id]);
          return counting(level, handler, this, args);
        };
        id = apply(nativeInterval, this, [run, ms]);
        apply(mapSet, pending, [id, now() + ms]);
        return id;
      },
      clearInterval(id) {
        apply(mapDelete, pending, [id]);
        return apply(nativeClearInterval, this, arguments);
      },
    };
    W.setInterval = masked(more.setInterval, nativeInterval);
    W.clearInterval = masked(more.clearInterval, nativeClearInterval);
  }

  const nativeFrame = W.requestAnimationFrame, nativeCancelFrame = W.cancelAnimationFrame;
  if (typeof nativeFrame === "function" && typeof nativeCancelFrame === "function") {
    const more = {
      requestAnimationFrame(callback) {
        if (!armed() || typeof callback !== "function") {
          // Noted: the same callback asked for again soon after the arming is a loop the page
          // ran before (a callback the page merely re-uses, a render, is not).
          if (typeof callback === "function") apply(wmSet, unarmedFrames, [callback, now()]);
          return apply(nativeFrame, this, arguments);
        }
        // A counted frame asking for the next continues its chain; else as a timer, unless
        // it is a loop the page ran before the arming (its first frame since runs unmarked).
        const chained = inFrame > 0 && !own;
        const unarmedAt = chained ? undefined : apply(wmGet, unarmedFrames, [callback]);
        const level = chained
          ? (frameCount < ${MAX_FRAMES} ? inFrame : 0)
          : unarmedAt !== undefined && now() - unarmedAt <= ${LOOP_GAP_MS}
          ? 0
          : levelNow();
        if (!level) {
          // The page's own (a loop it runs anyway): marked, so what it starts is not counted
          // as the input's even when it runs right after it.
          return apply(nativeFrame, this, [function () {
            const outer = own, outerFrame = inFrame;
            own = true;
            inFrame = 0;
            try { return apply(callback, this, arguments); } finally {
              own = outer;
              inFrame = outerFrame;
            }
          }]);
        }
        if (!chained) counted++;
        frameCount++;
        let id;
        const run = function () {
          apply(mapDelete, frames, [id]);
          const outerFrame = inFrame;
          inFrame = level;
          try { return counting(level, callback, this, arguments); } finally {
            inFrame = outerFrame;
          }
        };
        id = apply(nativeFrame, this, [run]);
        apply(mapSet, frames, [id, now() + ${FRAME_MS}]);
        return id;
      },
      cancelAnimationFrame(id) {
        apply(mapDelete, frames, [id]);
        return apply(nativeCancelFrame, this, arguments);
      },
    };
    W.requestAnimationFrame = masked(more.requestAnimationFrame, nativeFrame);
    W.cancelAnimationFrame = masked(more.cancelAnimationFrame, nativeCancelFrame);
  }

  const SP = W.Scheduler && W.Scheduler.prototype;
  const nativePost = SP && SP.postTask;
  if (typeof nativePost === "function") {
    const more = {
      postTask(callback) {
        const options = arguments[1];
        if (!armed() || typeof callback !== "function") {
          return apply(nativePost, this, arguments);
        }
        let ms = 0;
        try {
          const delay = options && options.delay;
          if (delay !== undefined && typeof delay !== "number") {
            return apply(nativePost, this, arguments);
          }
          ms = max(0, delay || 0);
        } catch { return apply(nativePost, this, arguments); }
        let level = ms <= ${MAX} ? levelNow() : 0;
        if (level === 1 && ms > ${limits.loadMaxDelayMs} && fromStart()) level = 0;
        if (!level) return apply(nativePost, this, arguments);
        counted++;
        const key = {};
        const run = function () {
          apply(mapDelete, tasks, [key]);
          return counting(level, callback, this, arguments);
        };
        const args = [run];
        for (let i = 1; i < arguments.length; i++) args[i] = arguments[i];
        apply(mapSet, tasks, [key, now() + ms]);
        const drop = () => apply(mapDelete, tasks, [key]);
        let p;
        try { p = apply(nativePost, this, args); } catch (e) { drop(); throw e; }
        // Aborted or failed: no longer to come. The page gets a promise that settles as its own.
        return apply(then, p, [(r) => { drop(); return r; }, (e) => { drop(); throw e; }]);
      },
    };
    SP.postTask = masked(more.postTask, nativePost);
  }

  // MessageChannel: a port's partner is known when the page takes the ports from the channel.
  const MCP = W.MessageChannel && W.MessageChannel.prototype;
  const MPP = W.MessagePort && W.MessagePort.prototype;
  const port1Of = getter(MCP, "port1"), port2Of = getter(MCP, "port2");
  const nativePortPost = MPP && MPP.postMessage;
  // The event being dispatched (window.event): a post from a counted message's own handler is
  // the chain's, however long the machine took to get there (2 busy cores: past 20 ms).
  const eventOf = getter(W, "event");
  let deliveredEvent = null;
  if (port1Of && port2Of && typeof nativePortPost === "function") {
    // Before the page's listeners (added first): a counted message arrives.
    const delivered = function (ev) {
      const q = apply(wmGet, portQueues, [this]);
      if (!q || q.n <= 0) return;
      q.n--;
      inMessages--;
      deliveredEvent = ev;
      lastMessage = messageAt = now();
      messageLevel = q.level;
      ended(q.level);
    };
    const pair = (channel) => {
      const a = apply(port1Of, channel, []), b = apply(port2Of, channel, []);
      if (apply(wmGet, partners, [a])) return;
      apply(wmSet, partners, [a, b]);
      apply(wmSet, partners, [b, a]);
      apply(addListener, a, ["message", delivered]);
      apply(addListener, b, ["message", delivered]);
    };
    const ports = {
      get port1() { pair(this); return apply(port1Of, this, []); },
      get port2() { pair(this); return apply(port2Of, this, []); },
    };
    for (const [name, native] of [["port1", port1Of], ["port2", port2Of]]) {
      const d = getOwn(MCP, name);
      d.get = masked(getOwn(ports, name).get, native);
      defineProperty(MCP, name, d);
    }
    const more = {
      postMessage(message) {
        if (!armed()) return apply(nativePortPost, this, arguments);
        const partner = apply(wmGet, partners, [this]);
        if (!partner) return apply(nativePortPost, this, arguments);
        // Posted by the handler of a counted message: the same chain, for a bounded time.
        const inHandler = deliveredEvent !== null && !!eventOf &&
          apply(eventOf, W, []) === deliveredEvent;
        const chained = (inHandler || now() - messageAt <= ${limits.continuationMs}) && !own;
        const level = chained
          ? (now() - chainStart <= ${MAX} ? messageLevel : 0)
          : levelNow();
        if (!level) return apply(nativePortPost, this, arguments);
        const result = apply(nativePortPost, this, arguments);
        if (!chained) { counted++; chainStart = now(); }
        let q = apply(wmGet, portQueues, [partner]);
        if (!q) apply(wmSet, portQueues, [partner, q = { n: 0, level }]);
        q.n++;
        q.level = level;
        inMessages++;
        lastMessage = now();
        return result;
      },
    };
    MPP.postMessage = masked(more.postMessage, nativePortPost);
  }

${pageTimersAnimations()}
  const sourcesPending = (t) => {
    const out = { n: 0, next: Infinity };
    const late = [];
    apply(mapForEach, frames, [(due, id) => {
      if (t - due > ${FRAME_LATE_MS}) late[late.length] = id;
      else { out.n++; out.next = min(out.next, max(0, due - t)); }
    }]);
    for (let i = 0; i < late.length; i++) apply(mapDelete, frames, [late[i]]);
    const lateTasks = [];
    apply(mapForEach, tasks, [(due, key) => {
      if (t - due > 1000) lateTasks[lateTasks.length] = key;
      else { out.n++; out.next = min(out.next, max(0, due - t)); }
    }]);
    for (let i = 0; i < lateTasks.length; i++) apply(mapDelete, tasks, [lateTasks[i]]);
    // Messages never delivered (a port never started) stop counting after a moment.
    if (inMessages > 0 && t - lastMessage < ${MESSAGE_IDLE_MS}) {
      out.n += inMessages;
      out.next = min(out.next, ${FRAME_MS});
    }
    animationsPending(t, out);
    return out;
  };
`;
}
