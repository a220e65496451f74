/// <reference lib="dom" />
/**
 * Page-side change counter: a MutationObserver over the document (and every
 * open shadow root the walker enters) bumps a generation number, so the
 * Deno side can tell whether a frame changed since its last snapshot
 * without taking a new one.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { SnapshotOptions } from "./page_types.ts";

/**
 * Adds `generation`, `domGeneration`, `pageQuiet`, `observeRoot`, `snapshotWithGeneration` and the closed
 * shadow roots' table (`shadowOf`, `addClosedRoot`, `hostsChecked`, `hostUnchecked`) to the
 * utility api.
 */
export function installMutationLib(api: PageApi): void {
  const { shadowRootOf, matchesOf, rectOf, firstOf, nextOf, nodeTypeOf, textContentOf } = api.dom;
  const { clientRectsOf } = api.dom;
  let generation = 0;
  // Changes of the DOM alone (no event below): what a key's own `change` event does not bump.
  let domGeneration = 0;
  // When the observed DOM (or what a snapshot shows) last changed, performance.now() ms.
  let changedAt = performance.now();
  const observer = new MutationObserver(() => {
    generation++;
    domGeneration++;
    changedAt = performance.now();
  });
  const options = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(document, options);
  // What the DOM does not record but a snapshot shows: typed values, focus,
  // opened <details>, hover-driven CSS, finished transitions.
  const bump = () => {
    generation++;
    changedAt = performance.now();
  };
  for (
    const type of [
      "input",
      "change",
      "focusin",
      "focusout",
      "toggle",
      "mouseover",
      "mouseout",
      "transitionend",
      "animationend",
      "resize",
    ]
  ) api.onFirst(type, bump);
  const observed = new WeakSet<ShadowRoot>();
  /** Starts observing an open shadow root (document observers do not see inside them). */
  api.observeRoot = (root: ShadowRoot) => {
    if (observed.has(root)) return;
    observed.add(root);
    observer.observe(root, options);
  };
  // Closed shadow roots CDP found (snapshot/closed_hosts.ts), by host: page scripts and this
  // world cannot reach them through `shadowRoot`.
  const closed = new WeakMap<Element, ShadowRoot>();
  // Built-in elements `attachShadow` accepts (DOM standard).
  const HOST_TAGS = new Set(
    "article aside blockquote body div footer h1 h2 h3 h4 h5 h6 header main nav p section span"
      .split(" "),
  );
  // Hosts checked, and whether the element was defined then: an upgrade may attach a root.
  const checked = new WeakMap<Element, boolean>();
  api.shadowOf = (el: Element) => shadowRootOf(el) ?? closed.get(el) ?? null;
  api.addClosedRoot = (root: ShadowRoot) => {
    if (!(root instanceof ShadowRoot)) return false;
    if (!closed.has(root.host)) generation++;
    closed.set(root.host, root);
    checked.set(root.host, true);
    api.observeRoot(root);
    return true;
  };
  api.hostsChecked = (ids: number[]) => {
    for (const id of ids) {
      const el = api.element(id);
      if (el) checked.set(el, matchesOf(el, ":defined"));
    }
    return true;
  };
  // Whether an element draws something while its light children draw nothing: what a shadow
  // root without a slot for them does (a closed root on an undefined custom element or a
  // `div` a script attached). Text children are measured through a range.
  function drawsOnlyShadow(el: Element): boolean {
    const r = rectOf(el);
    if (!(r.width > 0 && r.height > 0)) return false;
    let range: Range | undefined;
    for (let n = firstOf(el); n; n = nextOf(n)) {
      const type = nodeTypeOf(n);
      if (type === 1 && clientRectsOf(n as Element).length) return false;
      if (type === 3 && /\S/.test(textContentOf(n) ?? "")) {
        range ??= document.createRange();
        range.selectNodeContents(n);
        if (range.getClientRects().length) return false;
      }
    }
    return true;
  }
  // A defined custom element is checked once (again after an upgrade); any other element (an
  // undefined custom element, a built-in host such as `div`) only while it draws only what a
  // shadow root would: a script may attach a root to it at any time, and checking every one
  // would cost a CDP call per element of a framework's undefined custom tags.
  api.hostUnchecked = (el: Element, tag: string) => {
    const custom = tag.includes("-");
    // Only an empty built-in host is checked: one with children draws them, unless they are
    // all hidden, which is not worth measuring on every element.
    if (!custom && !(HOST_TAGS.has(tag) && !firstOf(el))) return false;
    if (shadowRootOf(el) !== null) return false;
    const defined = custom && matchesOf(el, ":defined");
    const was = checked.get(el);
    if (defined) return was !== true;
    return was === undefined && drawsOnlyShadow(el);
  };
  /** The current generation: it changes whenever the observed DOM changed. */
  api.generation = () => generation;
  /** Bumped by DOM mutations only (not by input, change or focus events). */
  api.domGeneration = () => domGeneration;
  api.pageQuiet = () => ({
    loaded: document.readyState === "complete",
    quietMs: Math.round(performance.now() - changedAt),
  });
  /**
   * A snapshot, the generation it reflects and the document's title. The walk is
   * synchronous, so no observer callback runs between the reads.
   */
  api.snapshotWithGeneration = (options?: SnapshotOptions) => {
    const g = generation;
    const snap = api.snapshot(options);
    return { ...snap, generation: g, title: document.title };
  };
}
