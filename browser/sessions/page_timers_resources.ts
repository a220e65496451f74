/**
 * Resources an action starts to load, for the timer watch's page script
 * (`page_timers_script.ts`): a click handler that creates an `<img>` (in the document or not),
 * a `<script>`, a `<link rel=stylesheet>`, an `<iframe>` or an `<audio>`/`<video>` and sets its
 * address starts a request the page sees end only through the element's `load`/`error` (or
 * media) events; a timer the handler of that event sets (a navigation 300 ms after an image
 * loaded) is the action's too. The watch counts the element's load as a request the input
 * started, and its events as the end of counted work, so what their handlers set is counted as
 * that work's continuation.
 *
 * @module
 */

/**
 * Media events that end a counted media element's load: it can play, or it failed. Not its
 * first data (`loadeddata`): Chromium's media pipeline may reach "can play" well after it
 * (a busy machine), and a page's `canplay` handler is as much the load's continuation.
 */
export const MEDIA_END_EVENTS = ["canplay", "error"] as const;
/**
 * How long a media element's network and ready states must stay put, idle, before its load
 * counts as suspended for good (preload "none" or "metadata"), ms.
 */
const MEDIA_IDLE_MS = 300;

/** Media events whose handlers' work counts as the load's continuation. */
export const MEDIA_EVENTS = [
  "loadedmetadata",
  "loadeddata",
  "canplay",
  "canplaythrough",
  "error",
] as const;

/**
 * The script's part, put inside its function after the sources (it uses `apply`, `W`,
 * `getOwn`, `defineProperty`, `masked`, `levelNow`, `requestStarted`, `answered`, `ended`,
 * `generation`, `inflight`, `direct`, `addListener`, `removeListener`, the map built-ins and
 * `mapForEach`). It wraps the `src` setters of `HTMLImageElement`, `HTMLScriptElement`,
 * `HTMLIFrameElement` and `HTMLMediaElement`, the `href` setter of `HTMLLinkElement`, and
 * `Element.prototype.setAttribute` for those attributes (masked as the natives). It defines:
 *
 * - `resetResources()`: forget the loads an earlier arming counted;
 * - `resourcesCheck()`: stop counting loads that cannot end (a script, stylesheet or iframe not
 *   in a document fetches nothing; a link that is no stylesheet or preload; an image complete,
 *   or a stylesheet with its sheet, at two questions in a row: the same address set again;
 *   a media element idle, suspended with what its `preload` asked for, its states still for
 *   {@link MEDIA_IDLE_MS}).
 *
 * An address set while new work would be the action's (`levelNow()`) counts the element's load
 * as a request at that level, until its `load` or `error` event (media: `canplay` or
 * `error`); a lazy image is not counted (it may never load). The watch listens in the capture
 * phase on the element itself, which runs before the page's own `onload` (at the target,
 * capture listeners run first), and marks counted work as just ended there, so a timer the
 * page's handler sets is the load's continuation; a media element's later events do the same
 * while the arming lasts. An element the page's HTML made (`innerHTML`) is seen only at its
 * `load`/`error` (a capture listener on the document): when the resource timing entry of its
 * address started after the arming's input, the event marks counted work as just ended (the
 * load itself is waited for by the recorder, which sees its request).
 */
export function pageTimersResources(): string {
  return `
  // ---- Resources an action starts to load (page_timers_resources.ts).
  const resources = new Map();
  const IMG = W.HTMLImageElement, SCRIPT = W.HTMLScriptElement, LINK = W.HTMLLinkElement;
  const IFRAME = W.HTMLIFrameElement, MEDIA = W.HTMLMediaElement;
  const tagOf = getter(Element.prototype, "localName");
  const connectedOf = getter(Node.prototype, "isConnected");
  const loadingOf = IMG && getter(IMG.prototype, "loading");
  const relOf = LINK && getter(LINK.prototype, "rel");
  const networkStateOf = MEDIA && getter(MEDIA.prototype, "networkState");
  const mediaReadyOf = MEDIA && getter(MEDIA.prototype, "readyState");
  const preloadOf = MEDIA && getter(MEDIA.prototype, "preload");
  const completeOf = IMG && getter(IMG.prototype, "complete");
  const sheetOf = LINK && getter(LINK.prototype, "sheet");
  const typeOf = getter(Event.prototype, "type"), indexOf = String.prototype.indexOf;
  const isMedia = (el) => { const t = apply(tagOf, el, []); return t === "video" || t === "audio"; };
  const dropResource = (entry) => {
    if (!entry.open) return;
    entry.open = false;
    for (let i = 0; i < entry.types.length; i++) {
      apply(removeListener, entry.el, [entry.types[i], entry.end, { capture: true }]);
    }
    apply(mapDelete, resources, [entry.el]);
  };
  const resetResources = () => {
    const all = [];
    apply(mapForEach, resources, [(entry) => { all[all.length] = entry; }]);
    for (let i = 0; i < all.length; i++) dropResource(all[i]);
  };
  // A load the action starts: counted as its request until the element's end event.
  const watchLoad = (el) => {
    const prior = apply(mapGet, resources, [el]);
    // A new address replaces the load counted before (its request is cancelled).
    if (prior) {
      if (prior.counted && prior.g === generation) { inflight--; if (prior.byInput) direct--; }
      prior.counted = false;
      dropResource(prior);
    }
    const level = levelNow();
    if (!level) return;
    try { if (loadingOf && apply(loadingOf, el, []) === "lazy") return; } catch {}
    const media = isMedia(el);
    const g = generation;
    const byInput = requestStarted(level);
    const entry = {
      __proto__: null, el, g, byInput, open: true, types: null, end: null, doneSeen: false,
      state: -1, stateAt: 0,
    };
    const ends = media ? ${JSON.stringify(MEDIA_END_EVENTS)} : ["load", "error"];
    entry.types = media ? ${JSON.stringify(MEDIA_EVENTS)} : ends;
    entry.end = (event) => {
      if (g !== generation) return dropResource(entry);
      let type = "";
      try { type = apply(typeOf, event, []); } catch {}
      let isEnd = false;
      for (let i = 0; i < ends.length; i++) if (ends[i] === type) isEnd = true;
      if (isEnd && entry.counted) {
        entry.counted = false;
        answered(g, level, byInput);
      } else ended(level);
      if (!media || !armed()) dropResource(entry);
    };
    entry.counted = true;
    for (let i = 0; i < entry.types.length; i++) {
      apply(addListener, el, [entry.types[i], entry.end, { capture: true }]);
    }
    apply(mapSet, resources, [el, entry]);
  };
  // Loads that cannot end stop counting (not as work that ended: nothing ran).
  const resourcesCheck = () => {
    const stuck = [];
    apply(mapForEach, resources, [(entry, el) => {
      if (!entry.counted) return;
      const tag = apply(tagOf, el, []);
      let fetches = true, done = false;
      if (tag === "video" || tag === "audio") {
        // Idle: suspended with what its preload asked for (metadata, or nothing): no data
        // comes until it plays. Its events still mark the work they start. The network idles
        // as soon as a small file is in, while the decoder is still on its way to "can play"
        // (tens of ms, far more on a busy machine): idle counts only once neither state has
        // moved for MEDIA_IDLE_MS (at once with preload "none": nothing is decoding).
        const state = apply(networkStateOf, el, []) * 8 + apply(mediaReadyOf, el, []);
        const at = now();
        if (state !== entry.state) { entry.state = state; entry.stateAt = at; }
        let none = false;
        try { none = apply(preloadOf, el, []) === "none"; } catch {}
        const idle = apply(networkStateOf, el, []) === 1 &&
          (none || at - entry.stateAt >= ${MEDIA_IDLE_MS});
        if (idle && entry.doneSeen) { entry.counted = false; stuck[stuck.length] = entry; }
        entry.doneSeen = idle;
        return;
      } else if (tag === "img") {
        // Complete at two questions: the same address again, whose load does not come.
        done = apply(completeOf, el, []);
      } else {
        let rel = "";
        try { if (tag === "link") rel = "" + apply(relOf, el, []); } catch {}
        // "preload" matches "modulepreload" too.
        fetches = apply(connectedOf, el, []) && (tag !== "link" ||
          apply(indexOf, rel, ["stylesheet"]) >= 0 || apply(indexOf, rel, ["preload"]) >= 0);
        if (tag === "link") done = !!apply(sheetOf, el, []);
      }
      if (!fetches || (done && entry.doneSeen)) stuck[stuck.length] = entry;
      entry.doneSeen = done;
    }]);
    for (let i = 0; i < stuck.length; i++) {
      const entry = stuck[i];
      if (entry.g === generation) { inflight--; if (entry.byInput) direct--; }
      if (entry.counted) { entry.counted = false; dropResource(entry); }
    }
  };
  const wrapSetter = (C, name) => {
    const d = C && getOwn(C.prototype, name);
    if (!d || typeof d.set !== "function") return;
    const nativeSetter = d.set;
    const more = {
      set [name](value) {
        apply(nativeSetter, this, [value]);
        if (armed()) watchLoad(this);
      },
    };
    d.set = masked(getOwn(more, name).set, nativeSetter);
    defineProperty(C.prototype, name, d);
  };
  wrapSetter(IMG, "src");
  wrapSetter(SCRIPT, "src");
  wrapSetter(IFRAME, "src");
  wrapSetter(MEDIA, "src");
  wrapSetter(LINK, "href");
  const nativeSetAttribute = Element.prototype.setAttribute;
  const loads = (el, name) => {
    if (name === "src") {
      const t = apply(tagOf, el, []);
      return t === "img" || t === "script" || t === "iframe" || t === "video" || t === "audio";
    }
    return name === "href" && apply(tagOf, el, []) === "link";
  };
  Element.prototype.setAttribute = masked({
    setAttribute(name) {
      const result = apply(nativeSetAttribute, this, arguments);
      if (armed() && (name === "src" || name === "href") && loads(this, name)) {
        watchLoad(this);
      }
      return result;
    },
  }.setAttribute, nativeSetAttribute);
  // Elements the page's HTML made (innerHTML, a parsed template) load without a setter: their
  // load counts as the action's work ending when its request started after the input (the
  // resource timing entry of its address), so what their handler sets is the action's too.
  // The document's capture listener runs before the element's own handlers.
  const entriesByName = W.Performance && W.Performance.prototype.getEntriesByName;
  const startOf = W.PerformanceEntry && getter(W.PerformanceEntry.prototype, "startTime");
  const urlOf = {
    __proto__: null,
    img: IMG && getter(IMG.prototype, "currentSrc"),
    script: SCRIPT && getter(SCRIPT.prototype, "src"),
    iframe: IFRAME && getter(IFRAME.prototype, "src"),
    link: LINK && getter(LINK.prototype, "href"),
  };
  const parsedLoad = (event) => {
    if (now() > armedUntil || firstInput === Infinity || own || !entriesByName || !startOf) return;
    try {
      const el = apply(targetOf, event, []);
      if (!el || el === doc || el === W || apply(mapGet, resources, [el])) return;
      const read = urlOf[apply(tagOf, el, [])];
      if (!read) return;
      const list = apply(entriesByName, perf, ["" + apply(read, el, [])]);
      for (let i = 0; i < list.length; i++) {
        if (apply(startOf, list[i], []) >= firstInput) { ended(1); return; }
      }
    } catch {}
  };
  // On the document: a load event's path stops there (it never reaches the window).
  if (doc) {
    apply(addListener, doc, ["load", parsedLoad, { capture: true }]);
    apply(addListener, doc, ["error", parsedLoad, { capture: true }]);
  }
`;
}
