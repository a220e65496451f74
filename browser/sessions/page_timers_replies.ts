/**
 * Replies an action waits for, for the timer watch's page script (`page_timers_script.ts`): a
 * click handler that sends on a WebSocket (or opens one), opens an EventSource, runs an
 * IndexedDB transaction chain, observes an element's size (a ResizeObserver → animation frame
 * loop) or posts to a service worker reacts when the reply comes (~300 ms later: a render, a
 * navigation, a POST). Those escaped the action window before (red team, session 14).
 *
 * @module
 */

/** A reply (a socket's message, a service worker's) is waited for this long at most, ms. */
export const REPLY_MS = 1000;
/** Replies (socket opens and sends, EventSources, service worker posts) counted per arming. */
export const MAX_REPLIES = 64;
/** Messages a socket or EventSource the action sent on or opened counts, per arming. */
export const MAX_SOCKET_MESSAGES = 3;
/** IndexedDB requests and transactions a chain counts, per arming. */
export const MAX_IDB = 1000;
/** An IndexedDB chain the action started counts this long from its first request, ms. */
export const IDB_CHAIN_MS = 2000;
/** ResizeObserver callbacks an observe() the action made counts (a resize → frame loop). */
export const MAX_RESIZE_RUNS = 36;

/**
 * The script's part, put inside its function after the waits (it uses `apply`, `W`, `getter`,
 * `defineProperty`, `masked`, `armed`, `levelNow`, `counting`, `ended`, `counted`, `now`,
 * `min`, `max`, `addListener`, the map and weak-map built-ins, `heardMessage` and
 * `listenHook` of `page_timers_waits.ts`, and `CONTINUATION_MS` as `continuationMs`). It wraps
 * the `WebSocket`, `EventSource` and `ResizeObserver` constructors (proxies that keep their
 * prototype, name and length; each prototype's `constructor` is the proxy),
 * `WebSocket.prototype.send`, `IDBFactory.prototype.open`/`deleteDatabase`,
 * `IDBDatabase.prototype.transaction`, `ResizeObserver.prototype.observe` and
 * `ServiceWorker.prototype.postMessage` (masked as the natives). It defines:
 *
 * - `resetReplies()`: forget what an earlier arming counted;
 * - `repliesPending(t)`: `{ n, next, held }`: replies still to come (held: no due time, the
 *   asker looks again soon) and a first resize callback due (`next`, ms).
 *
 * What counts, when new work would be the action's (`levelNow()`):
 * - a WebSocket the action opened (until its `open`) or sent on (until its next message, while
 *   the page listens for messages), {@link REPLY_MS} at most; the first
 *   {@link MAX_SOCKET_MESSAGES} messages of such a socket end counted work, so what the page's
 *   handler starts is their continuation. A socket the page opened before and never sent on
 *   in the action (a chat pushing every second) counts nothing;
 * - an EventSource the action opened: until its first message or error, while the page listens;
 * - an IndexedDB open or transaction: until its `success`/`error` (`complete`/`abort`); what the
 *   page's handler of that event starts in the next {@link continuationMs} ms continues the
 *   chain at the same level, {@link MAX_IDB} items and {@link IDB_CHAIN_MS} at most;
 * - `ResizeObserver.observe`: its first callback is due at the next frame; the observer's
 *   callbacks run as counted work, the first {@link MAX_RESIZE_RUNS} within `maxDelayMs`;
 * - a message posted to a service worker: until a message on `navigator.serviceWorker` comes
 *   (its reply), {@link REPLY_MS} at most, whether or not the page listens (the worker's own
 *   requests then fall in the window).
 */
export function pageTimersReplies(limits: { maxDelayMs: number; continuationMs: number }): string {
  return `
  // ---- Replies an action waits for (page_timers_replies.ts).
  const construct = Reflect.construct, ProxyC = Proxy;
  // Held replies (key -> { until, level, live }): no due time; gone at until.
  const replies = new Map(), sockets = new WeakMap();
  let replyCount = 0, idbCount = 0, idbChainStart = -Infinity, idbAt = -Infinity, idbLevel = 0;
  const resizes = new Map();
  const resetReplies = () => {
    apply(mapClear, replies, []);
    apply(mapClear, resizes, []);
    replyCount = idbCount = 0;
    idbChainStart = idbAt = -Infinity;
  };
  // counts: false for a chain's next item (only its first counts toward the watch's cap).
  const awaitReply = (key, level, ms, live, counts = true) => {
    if (counts) { counted++; replyCount++; }
    apply(mapSet, replies, [key, { __proto__: null, until: now() + ms, level, live }]);
  };
  // The reply came: counted work ends (a capture listener on the target runs before the page's).
  const replied = (key) => {
    const k = apply(mapGet, replies, [key]);
    if (!k) return false;
    apply(mapDelete, replies, [key]);
    ended(k.level);
    return true;
  };
  const repliesPending = (t) => {
    const out = { n: 0, next: Infinity, held: 0 };
    const gone = [];
    apply(mapForEach, replies, [(k, key) => {
      if (t > k.until) gone[gone.length] = key;
      else if (!k.live || k.live()) out.held++;
    }]);
    apply(mapForEach, resizes, [(due, key) => {
      if (t - due > 500) gone[gone.length] = key;
      else { out.n++; out.next = min(out.next, max(0, due - t)); }
    }]);
    for (let i = 0; i < gone.length; i++) {
      apply(mapDelete, replies, [gone[i]]);
      apply(mapDelete, resizes, [gone[i]]);
    }
    return out;
  };
  // A constructor the page calls through a proxy: before(args) may replace the arguments,
  // after(made) notes the object made. The prototype's constructor is the proxy too.
  const wrapClass = (name, before, after) => {
    const C = W[name];
    if (typeof C !== "function" || !C.prototype) return;
    const P = new ProxyC(C, {
      __proto__: null,
      construct(target, args, newTarget) {
        const made = construct(target, before ? before(args) : args, newTarget === P ? target : newTarget);
        try { after(made); } catch {}
        return made;
      },
    });
    defineProperty(C.prototype, "constructor", { value: P, writable: true, configurable: true });
    W[name] = P;
  };
  const listensFor = (target, handlerOf) => () => {
    if (apply(wsHas, heardMessage, [target])) return true;
    try { return !!handlerOf && apply(handlerOf, target, []) != null; } catch { return false; }
  };

  // WebSocket and EventSource: a socket's state, { level, messages, key }, while armed.
  const socketState = (s, level, kind) => {
    let st = apply(wmGet, sockets, [s]);
    // One state (and one set of listeners) per socket, started over by a new arming.
    if (st && st.g !== generation) {
      st.g = generation;
      st.level = level;
      st.messages = 0;
      st.key = {};
    }
    if (!st) {
      st = { __proto__: null, level, messages: 0, g: generation, key: {}, heard: null };
      apply(wmSet, sockets, [s, st]);
      const heard = () => {
        if (st.g !== generation || !armed() || st.messages >= ${MAX_SOCKET_MESSAGES}) return;
        st.messages++;
        if (!replied(st.key)) ended(st.level);
      };
      const opened = () => { if (st.g === generation && kind === "ws") replied(st.key); };
      apply(addListener, s, ["message", heard, { capture: true }]);
      apply(addListener, s, ["open", opened, { capture: true }]);
      apply(addListener, s, ["error", () => { if (st.g === generation) replied(st.key); }, { capture: true }]);
      apply(addListener, s, ["close", () => { if (st.g === generation) replied(st.key); }, { capture: true }]);
      st.heard = heard;
    }
    return st;
  };
  const WSP0 = W.WebSocket && W.WebSocket.prototype;
  const onmessageWs = getter(WSP0, "onmessage"), nativeWsSend = WSP0 && WSP0.send;
  if (typeof nativeWsSend === "function") {
    wrapClass("WebSocket", null, (s) => {
      const level = armed() && replyCount < ${MAX_REPLIES} ? levelNow() : 0;
      if (level) awaitReply(socketState(s, level, "ws").key, level, ${REPLY_MS}, null);
    });
    WSP0.send = masked({
      send() {
        const r = apply(nativeWsSend, this, arguments);
        const level = armed() && replyCount < ${MAX_REPLIES} ? levelNow() : 0;
        if (level) {
          const st = socketState(this, level, "ws");
          st.level = level;
          awaitReply(st.key, level, ${REPLY_MS}, listensFor(this, onmessageWs));
        }
        return r;
      },
    }.send, nativeWsSend);
  }
  const ESP = W.EventSource && W.EventSource.prototype;
  const onmessageEs = getter(ESP, "onmessage");
  const typed = new WeakMap();
  wrapClass("EventSource", null, (s) => {
    const level = armed() && replyCount < ${MAX_REPLIES} ? levelNow() : 0;
    if (!level) return;
    const st = socketState(s, level, "es");
    apply(wmSet, typed, [s, st]);
    awaitReply(st.key, level, ${REPLY_MS}, listensFor(s, onmessageEs));
  });
  // A named event type the page listens for on a counted EventSource: its events are messages.
  listenHook = (target, type) => {
    const st = apply(wmGet, typed, [target]);
    if (!st || type === "message" || typeof type !== "string") return;
    apply(wsAdd, heardMessage, [target]);
    apply(addListener, target, [type, st.heard, { capture: true }]);
  };

  // IndexedDB: an open or a transaction, until its end event; the chain keeps its level.
  // The level of an IndexedDB item starting now, and whether it continues a chain.
  let idbChained = false;
  const idbLevelNow = () => {
    idbChained = false;
    if (!armed()) return 0;
    const t = now();
    if (t - idbAt <= ${limits.continuationMs} && t - idbChainStart <= ${IDB_CHAIN_MS} && idbCount < ${MAX_IDB}) {
      idbChained = true;
      return idbLevel;
    }
    const level = levelNow();
    if (level) { idbChainStart = t; idbLevel = level; }
    return level;
  };
  // Ends at one of types; an upgrade on the way (its handler makes the stores) continues it.
  const idbWait = (target, level, types) => {
    idbCount++;
    const key = {};
    awaitReply(key, level, ${IDB_CHAIN_MS}, null, !idbChained);
    const step = () => {
      if (!apply(mapGet, replies, [key])) return false;
      idbAt = now();
      idbLevel = level;
      return true;
    };
    const done = () => { if (step()) replied(key); };
    for (let i = 0; i < types.length; i++) {
      apply(addListener, target, [types[i], done, { capture: true, once: true }]);
    }
    apply(addListener, target, ["upgradeneeded", step, { capture: true }]);
  };
  const wrapIdb = (C, name, types) => {
    const proto = W[C] && W[C].prototype, native = proto && proto[name];
    if (typeof native !== "function") return;
    proto[name] = masked({
      [name]() {
        const made = apply(native, this, arguments);
        const level = idbCount < ${MAX_IDB} ? idbLevelNow() : 0;
        if (level && made && typeof made === "object") idbWait(made, level, types);
        return made;
      },
    }[name], native);
  };
  wrapIdb("IDBFactory", "open", ["success", "error"]);
  wrapIdb("IDBFactory", "deleteDatabase", ["success", "error"]);
  // Not a request's error (it reaches the transaction too): the transaction aborts after it.
  wrapIdb("IDBDatabase", "transaction", ["complete", "abort"]);

  // ResizeObserver: callbacks of an observation the action made run as counted work.
  const ROP = W.ResizeObserver && W.ResizeObserver.prototype;
  const nativeObserve = ROP && ROP.observe;
  const observing = new WeakMap();
  // The state the constructor's callback wrapper made, for the observer made next.
  let pendingObserver = null;
  if (typeof nativeObserve === "function") {
    wrapClass("ResizeObserver", (args) => {
      pendingObserver = null;
      const callback = args[0];
      if (typeof callback !== "function") return args;
      const st = { __proto__: null, level: 0, until: -Infinity, runs: 0, g: -1 };
      const more = [function () {
        apply(mapDelete, resizes, [st]);
        if (st.g !== generation || !armed() || now() > st.until || st.runs >= ${MAX_RESIZE_RUNS}) {
          return apply(callback, this, arguments);
        }
        st.runs++;
        return counting(st.level, callback, this, arguments);
      }];
      for (let i = 1; i < args.length; i++) more[i] = args[i];
      pendingObserver = st;
      return more;
    }, (o) => { if (pendingObserver) apply(wmSet, observing, [o, pendingObserver]); pendingObserver = null; });
    ROP.observe = masked({
      observe() {
        const r = apply(nativeObserve, this, arguments);
        const st = apply(wmGet, observing, [this]);
        const level = st && armed() ? levelNow() : 0;
        if (level) {
          counted++;
          if (st.g !== generation) { st.g = generation; st.runs = 0; }
          st.level = level;
          st.until = now() + ${limits.maxDelayMs};
          apply(mapSet, resizes, [st, now() + 16]);
        }
        return r;
      },
    }.observe, nativeObserve);
  }

  // A service worker's reply (or its own requests): held until a message on the container.
  const SWP = W.ServiceWorker && W.ServiceWorker.prototype;
  const nativeSwPost = SWP && SWP.postMessage;
  // Throws in an opaque origin (a sandboxed frame): none there.
  let container = null;
  try { container = W.navigator && W.navigator.serviceWorker; } catch {}
  const swKey = {};
  if (typeof nativeSwPost === "function" && container) {
    apply(addListener, container, ["message", () => replied(swKey), { capture: true }]);
    SWP.postMessage = masked({
      postMessage() {
        const r = apply(nativeSwPost, this, arguments);
        const level = armed() && replyCount < ${MAX_REPLIES} ? levelNow() : 0;
        if (level) awaitReply(swKey, level, ${REPLY_MS}, null);
        return r;
      },
    }.postMessage, nativeSwPost);
  }
`;
}
