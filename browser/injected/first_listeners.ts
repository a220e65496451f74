/// <reference lib="dom" />
/**
 * browxai's first listeners: a script put in browxai's utility world of every document before
 * the document's first script (`Page.addScriptToEvaluateOnNewDocument` with `worldName`, sent by
 * `cdp/page.ts` when a target attaches), that listens on `window` in the capture phase for the
 * events the library's checks read (the press guard, where typed text went, what a press
 * reached, edits, submits). The library, installed later on demand, subscribes through it
 * ({@link installFirstLib}: `api.onFirst`).
 *
 * Why: the listeners of one event target run in the order they were added, whatever world
 * added them (measured, Chromium 14x: an isolated world's capture listener on `window` added at
 * document start ran before a main-world one the page's script added, and that one's
 * `stopImmediatePropagation()` did not stop it). A listener the library added when it was
 * installed came after the page's: a page stopping the events at `window` kept them from the
 * press guard (a press going to a cover was not stopped) and from the typing check (Enter went
 * where the page moved the focus), and a click the page swallowed read as done.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** The utility world's global the library finds the first listeners under. */
export const FIRST_HUB = "__browxaiFirst";

/** The events the first listeners take (what the library's checks subscribe to). */
export const FIRST_EVENTS: readonly string[] = [
  // The press guard and what a press reached (hit_lib.ts).
  "pointerdown mousedown pointerup mouseup click auxclick dblclick contextmenu",
  // Where typed text went (typing_lib.ts), edits (context_lib.ts), what changed (mutation_lib.ts).
  "beforeinput input change focusin focusout toggle mouseover mouseout",
  "transitionend animationend resize",
  // The submit watch (form_publish_lib.ts); whether a drag started (drag_sequence.ts).
  "submit invalid keydown keypress dragstart",
].join(" ").split(" ");

/** What the first listeners offer the library (the world's {@link FIRST_HUB}). */
export interface FirstHub {
  /** Adds `fn` for `type` (true), or false when `type` is not one of {@link FIRST_EVENTS}. */
  on(type: string, fn: (ev: Event) => void): boolean;
  /** Removes `fn` for `type`. */
  off(type: string, fn: (ev: Event) => void): void;
}

/**
 * The page-side script (self-contained: its source is sent). Once per world: a document's world
 * that has them already (a target attached again) keeps its own.
 */
function installFirstListeners(hubName: string, types: string[]): void {
  const g = globalThis as unknown as Record<string, unknown>;
  if (g[hubName]) return;
  const subs = new Map<string, Set<(ev: Event) => void>>();
  const dispatch = (ev: Event) => {
    const list = subs.get(ev.type);
    if (!list || !list.size) return;
    for (const fn of [...list]) {
      try {
        fn(ev);
      } catch {
        // One check failing must not keep the event from the others.
      }
    }
  };
  for (const t of types) addEventListener(t, dispatch, true);
  const hub: FirstHub = {
    on(type, fn) {
      if (!types.includes(type)) return false;
      let list = subs.get(type);
      if (!list) subs.set(type, list = new Set());
      list.add(fn);
      return true;
    },
    off(type, fn) {
      subs.get(type)?.delete(fn);
    },
  };
  Object.defineProperty(g, hubName, { value: Object.freeze(hub) });
}

/** The document-start script of the utility world (see the module doc). */
export const FIRST_LISTENERS_SOURCE = `(${installFirstListeners.toString()})(${
  JSON.stringify(FIRST_HUB)
}, ${JSON.stringify(FIRST_EVENTS)});`;

/**
 * Adds `onFirst` / `offFirst` to the utility api (a core part, installed first): a capture
 * listener on `window` through the first listeners when the world has them (a document that
 * started after the target attached), else an ordinary one (after the page's own).
 */
export function installFirstLib(api: PageApi): void {
  const hub = (globalThis as unknown as Record<string, FirstHub | undefined>)["__browxaiFirst"];
  api.onFirst = (type: string, fn: (ev: Event) => void) => {
    if (!hub?.on(type, fn)) addEventListener(type, fn, true);
  };
  api.offFirst = (type: string, fn: (ev: Event) => void) => {
    hub?.off(type, fn);
    removeEventListener(type, fn, true);
  };
}
