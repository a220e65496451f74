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
  const { shadowRootOf, matchesOf } = api.dom;
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
  const checked = new WeakSet<Element>();
  api.shadowOf = (el: Element) => shadowRootOf(el) ?? closed.get(el) ?? null;
  api.addClosedRoot = (root: ShadowRoot) => {
    if (!(root instanceof ShadowRoot)) return false;
    if (!closed.has(root.host)) generation++;
    closed.set(root.host, root);
    checked.add(root.host);
    api.observeRoot(root);
    return true;
  };
  api.hostsChecked = (ids: number[]) => {
    for (const id of ids) {
      const el = api.element(id);
      if (el) checked.add(el);
    }
    return true;
  };
  // A custom element not defined yet has no root yet: it is listed once it is upgraded.
  api.hostUnchecked = (el: Element) =>
    shadowRootOf(el) === null && !checked.has(el) && matchesOf(el, ":defined");
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
