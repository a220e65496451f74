/// <reference lib="dom" />
/**
 * Page-side snapshot walker (placeholder until the real walker lands).
 *
 * @module
 */

/** Adds `snapshot`, `element`, `idOf`, `describe` to the utility api. */
export function installSnapshotLib(api: Record<string, unknown>): void {
  const ids = new WeakMap<Element, number>();
  const elements = new Map<number, WeakRef<Element>>();
  let next = 1;
  api.idOf = (el: Element) => {
    let id = ids.get(el);
    if (id === undefined) {
      id = next++;
      ids.set(el, id);
      elements.set(id, new WeakRef(el));
    }
    return id;
  };
  api.element = (id: number) => {
    const el = elements.get(id)?.deref();
    return el && el.isConnected ? el : null;
  };
}
