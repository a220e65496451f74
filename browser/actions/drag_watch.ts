/**
 * The page side of a drag (drag_sequence.ts), in the utility world of the source's frame:
 * whether the page started an HTML5 drag, and whether the drag did anything (a drop the page
 * took, a change to the frame's DOM). Sent as source text (`Page.call`): self-contained.
 *
 * @module
 */

// Page-side (utility world of the source's frame), sent as source text: self-contained.
// Listeners of an isolated world see the page's events; the world's first listeners
// (first_listeners.ts) run before the page's own on window (which could stop a listener added
// now), and by the time `dragStarted` is asked the event's dispatch has ended, so
// `defaultPrevented` says whether the page cancelled the drag.

/**
 * Starts the watch (`globalThis.__browxDrag`, replacing an earlier one): trusted `dragstart`
 * and `drop` events, and a MutationObserver on the document.
 */
export function watchDragStart(): void {
  type Hub = { on(t: string, f: (e: Event) => void): boolean; off(t: string, f: unknown): void };
  type State = {
    off(): void;
    ev?: Event;
    dropped: boolean;
    changed: boolean;
    changes: MutationObserver;
  };
  const g = globalThis as unknown as Record<string, State | undefined>;
  const hub = (globalThis as unknown as Record<string, Hub | undefined>)["__browxaiFirst"];
  g.__browxDrag?.off();
  // Whether the drag did anything: a drop the page accepted (the browser fires none when the
  // last dragover was not cancelled), or any change to the frame's DOM meanwhile.
  // (Records the observer's callback took are gone from takeRecords: it notes them.)
  const changes = new MutationObserver(() => state.changed = true);
  const state: State = { off: () => {}, dropped: false, changed: false, changes };
  changes.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  const on = (ev: Event) => {
    if (!ev.isTrusted) return;
    if (ev.type === "drop") state.dropped = true;
    else state.ev = ev;
  };
  for (const t of ["dragstart", "drop"]) if (!hub?.on(t, on)) addEventListener(t, on, true);
  state.off = () => {
    for (const t of ["dragstart", "drop"]) {
      hub?.off(t, on);
      removeEventListener(t, on, true);
    }
    changes.disconnect();
  };
  g.__browxDrag = state;
}

/** Whether a trusted `dragstart` came since the watch began and the page did not cancel it. */
export function dragStarted(): boolean {
  const g = globalThis as unknown as Record<string, { ev?: Event } | undefined>;
  const ev = g.__browxDrag?.ev;
  return ev !== undefined && !ev.defaultPrevented;
}

/** Ends the watch; whether nothing was dropped and the frame's DOM did not change. */
export function forgetDragStart(): boolean {
  type State = { off(): void; dropped: boolean; changed: boolean; changes: MutationObserver };
  const g = globalThis as unknown as Record<string, State | undefined>;
  const state = g.__browxDrag;
  const quiet = !!state && !state.dropped && !state.changed &&
    state.changes.takeRecords().length === 0;
  state?.off();
  delete g.__browxDrag;
  return quiet;
}
