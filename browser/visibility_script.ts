/**
 * The synthetic layer of tab visibility (`visibility.ts`): the fixed main-world script that
 * overrides `document.visibilityState`, `hidden` and `hasFocus()` and sends the events of a
 * transition the browser did not send itself.
 *
 * @module
 */

/**
 * The fixed main-world script, source of a function `(action) => result`:
 *
 * - `begin-hidden` → `{ already }`: installs the override (still reporting the
 *   real state) and starts the hidden transition; `already` when the page
 *   sees hidden already (then it is forced hidden, no events will be sent).
 * - `begin-visible` → `{ had, already }`: starts the visible transition,
 *   reporting the real state again; when the browser shows the tab already
 *   (synthetic-only background) sends visibilitychange + focus at once.
 *   `had`: the document had the override (false after a navigation).
 * - `flush` → `{ dispatched }`: sends the transition's events the browser did
 *   not (hidden: visibilitychange, blur; visible: visibilitychange, focus),
 *   forces hidden or removes every trace (visible).
 *
 * State lives on a non-enumerable `window.__browxaiTabVisibility`; the getters
 * are own properties of `document` (deleting them restores the prototype's).
 * Exported for tests.
 */
export const VISIBILITY_SCRIPT = String.raw`(action) => {
  const KEY = "__browxaiTabVisibility";
  const ORDER = { hidden: ["visibilitychange", "blur"], visible: ["visibilitychange", "focus"] };
  const doc = document;
  let g = window[KEY];
  const realVisibility = () => (g ? g.get.visibilityState : Object.getOwnPropertyDescriptor(
    Document.prototype, "visibilityState").get).call(doc);
  const fire = (type) => {
    const target = type === "visibilitychange" ? doc : window;
    const event = type === "visibilitychange"
      ? new Event(type, { bubbles: true })
      : new FocusEvent(type);
    g.dispatch.call(target, event);
  };
  const uninstall = () => {
    for (const t of ["visibilitychange", "blur", "focus"]) {
      removeEventListener(t, g.listener, true);
    }
    for (const p of Object.keys(g.get)) delete doc[p];
    delete doc.hasFocus;
    delete window[KEY];
  };
  const install = () => {
    const get = {};
    const forcedValue = {
      visibilityState: "hidden", hidden: true, webkitVisibilityState: "hidden", webkitHidden: true,
    };
    for (const p of Object.keys(forcedValue)) {
      const d = Object.getOwnPropertyDescriptor(Document.prototype, p);
      if (d && d.get) get[p] = d.get;
    }
    g = {
      get,
      hasFocus: Document.prototype.hasFocus,
      dispatch: EventTarget.prototype.dispatchEvent,
      forced: false,
      current: null,
      shown: get.visibilityState.call(doc),
    };
    // Notes which of the transition's events the browser delivered itself,
    // so flush sends only the missing ones. A late duplicate is stopped: before
    // every page listener for visibilitychange (dispatched at document), after
    // window listeners the page added earlier for blur/focus (at-target order).
    g.listener = (e) => {
      const c = g.current;
      if (!e.isTrusted || !c) return;
      const t = e.type;
      if (t !== "visibilitychange" && e.target !== window) return;
      if (!ORDER[c.to].includes(t)) return;
      if (t === "visibilitychange" && realVisibility() !== c.to) return;
      if (c.seen.has(t)) e.stopImmediatePropagation();
      else c.seen.add(t);
    };
    for (const t of ["visibilitychange", "blur", "focus"]) {
      addEventListener(t, g.listener, true);
    }
    for (const p of Object.keys(get)) {
      Object.defineProperty(doc, p, {
        configurable: true,
        enumerable: true,
        get() {
          return g.forced ? forcedValue[p] : g.get[p].call(doc);
        },
      });
    }
    Object.defineProperty(doc, "hasFocus", {
      configurable: true,
      writable: true,
      value: function hasFocus() {
        return g.forced ? false : g.hasFocus.call(doc);
      },
    });
    Object.defineProperty(window, KEY, { configurable: true, value: g });
  };
  if (action === "begin-hidden") {
    if (!g) install();
    if (g.shown === "hidden") {
      g.forced = true;
      g.current = { to: "hidden", seen: new Set(ORDER.hidden) };
      return { already: true };
    }
    g.current = { to: "hidden", seen: new Set() };
    return { already: false };
  }
  if (action === "begin-visible") {
    const had = !!g;
    if (!g) {
      if (realVisibility() === "visible") return { had, already: true };
      install();
    }
    if (g.shown === "visible" && !g.forced) {
      uninstall();
      return { had, already: true };
    }
    g.forced = false;
    g.current = { to: "visible", seen: new Set() };
    // The browser already shows the tab (synthetic-only background): flip now,
    // in one task, so no page code reads "visible" before the event.
    if (realVisibility() === "visible") {
      for (const t of ORDER.visible) {
        g.current.seen.add(t);
        fire(t);
      }
      g.shown = "visible";
    }
    return { had, already: false };
  }
  if (action === "flush") {
    const c = g && g.current;
    if (!c) return { dispatched: [] };
    const dispatched = [];
    if (c.to === "hidden") g.forced = true;
    for (const t of ORDER[c.to]) {
      if (c.seen.has(t)) continue;
      c.seen.add(t);
      dispatched.push(t);
      fire(t);
    }
    g.shown = c.to;
    if (c.to === "visible") uninstall();
    return { dispatched };
  }
  throw new Error("unknown action " + action);
}`;
