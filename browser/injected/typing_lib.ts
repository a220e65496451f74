/// <reference lib="dom" />
/**
 * Page-side checks of where typed keys go: what has the focus and whether it takes text
 * (`focusInfo`), and one turn of the page's task queue before a key that acts on what was
 * typed (`taskTurn`), installed in browxai's isolated world with the acting group.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds `focusInfo`, `typeStart`, `typeEnd`, `taskTurn` and `taskTurnOn` to the utility api.
 */
export function installTypingLib(api: PageApi): void {
  const { shadowRootOf, containsOf } = api.dom;
  const describeEl = (el: Element): string => api.describeElement(el);
  const NOTHING = "nothing (the page body)";
  const deepActive = (): Element | null => {
    let el: Element | null = document.activeElement;
    while (el && shadowRootOf(el)?.activeElement) el = shadowRootOf(el)!.activeElement;
    return el;
  };
  /**
   * Whether the focused element takes typing, and what it is; `none` when nothing is focused
   * (the body), `frame` (its page-local id) when the focus is inside an iframe.
   */
  api.focusInfo = () => {
    const el = deepActive();
    if (!el || el === document.body || el === document.documentElement) {
      return { editable: false, what: NOTHING, none: true };
    }
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
      return { editable: false, what: describeEl(el), frame: api.idOf(el) };
    }
    const editable = (el instanceof HTMLInputElement && !el.readOnly && !el.disabled) ||
      (el instanceof HTMLTextAreaElement && !el.readOnly && !el.disabled) ||
      (el as HTMLElement).isContentEditable;
    return { editable, what: describeEl(el) };
  };

  /**
   * The typing watched (`typeStart` to `typeEnd`): the field that had the focus, the text
   * characters each element's `input` events carried, whether the focus left the field.
   */
  let watch: { field: Element; chars: Map<Element, number>; left: boolean } | undefined;
  // First listeners (first_listeners.ts): a page stopping the events cannot hide them.
  api.onFirst("input", (e) => {
    const t = e.composedPath()[0];
    const data = (e as InputEvent).data;
    if (!watch || !(t instanceof Element) || !data) return;
    watch.chars.set(t, (watch.chars.get(t) ?? 0) + [...data].length);
  });
  api.onFirst("focusout", (e) => {
    const to = (e as FocusEvent).relatedTarget;
    const field = watch?.field;
    if (!field || e.composedPath()[0] !== field) return;
    if (!(to instanceof Node && containsOf(field, to))) watch!.left = true;
  });
  /**
   * {@link api.focusInfo}, and when the focused element takes text (an iframe's does not:
   * keys go into its own document), starts watching where the keys typed next go.
   */
  api.typeStart = () => {
    const info = (api.focusInfo as () => { editable: boolean; what: string })();
    const field = deepActive();
    watch = info.editable && field ? { field, chars: new Map(), left: false } : undefined;
    return { ...info, ...(watch ? { watching: true as const } : {}) };
  };
  /**
   * Ends the watch `typeStart` began: the text characters the field took (its `input` events'
   * data), whether the focus left it, where the focus is now, and the elements that took the
   * rest (the first 3, and their characters in all); null when nothing was watched.
   */
  api.typeEnd = () => {
    const w = watch;
    watch = undefined;
    if (!w) return null;
    let into = 0;
    let elsewhereChars = 0;
    const elsewhere: Array<{ what: string; chars: number }> = [];
    for (const [el, n] of w.chars) {
      if (el === w.field || w.field.contains(el)) into += n;
      else {
        elsewhereChars += n;
        if (elsewhere.length < 3) elsewhere.push({ what: describeEl(el), chars: n });
      }
    }
    const now = deepActive();
    return {
      into,
      field: describeEl(w.field),
      left: w.left,
      now: now && now !== document.body ? describeEl(now) : NOTHING,
      elsewhere,
      elsewhereChars,
    };
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
        while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
        // The field filled, when known (a page stopping input events cannot hide it then).
        const typed = field ?? lastInput?.deref();
        // The focus left the element the text went to (the page moved it): say where it is.
        const home = !typed || !typed.isConnected || a === typed ||
          (a !== null && (containsOf(typed, a) || containsOf(a, typed)));
        resolve(home ? null : a ? describeEl(a) : "nothing");
      }, 0)
    );
  /** {@link api.taskTurn} for a known field (called on its handle). */
  api.taskTurnOn = (field: Element) =>
    (api.taskTurn as (f: Element) => Promise<string | null>)(field);
}
