/// <reference lib="dom" />
/**
 * Page-side checks of where typed keys go: what has the focus and whether it takes text
 * (`focusInfo`), and one turn of the page's task queue before a key that acts on what was
 * typed (`taskTurn`), installed in browxai's isolated world with the acting group.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds `focusInfo`, `taskTurn` and `taskTurnOn` to the utility api. */
export function installTypingLib(api: PageApi): void {
  const describeEl = (el: Element): string => api.describeElement(el);
  /** Whether the focused element takes typing, and what it is. */
  api.focusInfo = () => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return { editable: false, what: "nothing (the page body)" };
    const editable = (el instanceof HTMLInputElement && !el.readOnly && !el.disabled) ||
      (el instanceof HTMLTextAreaElement && !el.readOnly && !el.disabled) ||
      (el as HTMLElement).isContentEditable;
    return { editable, what: describeEl(el) };
  };
  /**
   * Resolves after one turn of the page's task queue (a zero-delay timer of this isolated
   * world, which the page cannot replace): what the last input's handlers scheduled with
   * `setTimeout(…, 0)` runs first. Vue 0.10 unlocks its model→view sync that way after an
   * `input` event; an Enter sent before it left the typed text in the field.
   * Resolves to null, or to what has the focus when it is no longer on `field` (or, without
   * it, on the element the last `input` event went to): the page moved it, the key would go
   * there.
   */
  // The element the page's last `input` event went to (typed text, inserted text): where a
  // key that acts on that text (Enter) must still find the focus. One of this isolated world's
  // first listeners (first_listeners.ts): the page can neither remove it nor stop it (a window
  // listener of its own that stops input events runs after it).
  let lastInput: WeakRef<Element> | undefined;
  api.onFirst("input", (e) => {
    const t = e.composedPath()[0];
    if (t instanceof Element) lastInput = new WeakRef(t);
  });
  api.taskTurn = (field?: Element | null) =>
    new Promise<string | null>((resolve) =>
      setTimeout(() => {
        let a: Element | null = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        // The field filled, when known (a page stopping input events cannot hide it then).
        const typed = field ?? lastInput?.deref();
        // The focus left the element the text went to (the page moved it): say where it is.
        const home = !typed || !typed.isConnected || a === typed ||
          (a !== null && (typed.contains(a) || a.contains(typed)));
        resolve(home ? null : a ? describeEl(a) : "nothing");
      }, 0)
    );
  /** {@link api.taskTurn} for a known field (called on its handle). */
  api.taskTurnOn = (field: Element) =>
    (api.taskTurn as (f: Element) => Promise<string | null>)(field);
}
