/// <reference lib="dom" />
/**
 * What counts as one item of a list, on the page side: the rows whose text is a ref's context
 * (`context_lib.ts`, which is installed after this part and uses it). Adds to the utility api:
 * - `containerKind(el) → kind | undefined`: an item container by its tag or role (`li`, `tr`,
 *   `option`, `article`, `label`; role `row`, `listitem`, `option`, `article`).
 * - `itemKind(el) → kind | undefined`: such a container, or a row of plain elements (a `div` or
 *   `section` with a class, or a custom element, beside a sibling of the same tag and class, at
 *   most 400 characters of text: `"item"`; once seen so, still one when its siblings are gone).
 * - `ownItem(el) → boolean`: whether an element is itself a plain row told by its own text (a
 *   card among cards: no element of its tag and class reads the same), decided once per element.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds `containerKind`, `itemKind` and `ownItem` (see the module doc) to the utility api. */
export function installRowKindLib(api: PageApi): void {
  const { localOf, attrOf, textContentOf, rootNodeOf, qsaOf } = api.dom;
  // Item containers: their text tells one item from another (context_lib.ts).
  const CONTAINER_TAGS = new Map([
    ["li", "list item"],
    ["tr", "row"],
    ["option", "option"],
    ["article", "article"],
    ["label", "label"],
  ]);
  const CONTAINER_ROLES = new Map([
    ["row", "row"],
    ["listitem", "list item"],
    ["option", "option"],
    ["article", "article"],
  ]);

  // Rows built of plain elements (no li, tr or role): a div or section with a class, or a
  // custom element, with a sibling of the same tag and class beside it, short enough to be a
  // row (not a page section). Classless divs side by side are layout, not rows.
  const REPEATED_TAGS = new Set(["div", "section"]);
  const REPEATED_MAX = 400;
  // A node once seen as such a row stays one: the list's other rows deleted, or a card dragged
  // away from its neighbours, leave the last one alone, and its refs' context must not move up
  // to the list (a false ref-gone). Rows seen so only: a row first met alone (a list still
  // rendering) becomes one once it has a sibling.
  const seenRows = new WeakSet<Element>();
  const plainRow = (a: Element) =>
    localOf(a).includes("-") ||
    (REPEATED_TAGS.has(localOf(a)) && !!attrOf(a, "class")?.trim());
  function repeatedKind(a: Element): string | undefined {
    if (!plainRow(a) || (textContentOf(a) ?? "").length > REPEATED_MAX) return undefined;
    if (seenRows.has(a)) return "item";
    const cls = attrOf(a, "class");
    const same = (s: Element | null) =>
      !!s && localOf(s) === localOf(a) && attrOf(s, "class") === cls;
    if (!same(a.previousElementSibling) && !same(a.nextElementSibling)) return undefined;
    seenRows.add(a);
    return "item";
  }

  // Whether a ref's element is itself one of a group's items (a card among cards, a sortable
  // list's entry) told by its own text: a plain row (above) whose text no other element of its
  // tag and class in its document or shadow root reads (at most KIN_MAX of them). Its container
  // (a board's column, the list) holds other items: one of them moved away or dropped in is no
  // re-use of this one. A cell whose text other rows' cells share too ("Open"), a card's action
  // ("Delete" in every card) keeps its row's text, which tells the rows apart. Decided once per
  // element: a card left alone in its column, or joined by another, keeps what it was shown
  // with.
  const KIN_MAX = 200;
  const ownItems = new WeakMap<Element, boolean>();
  const flat = (e: Element) => (textContentOf(e) ?? "").replace(/\s+/g, " ").trim();
  // How often each text occurs among one tag and class of a root, counted once per read (a
  // snapshot's walk is one task; the counts go at its end): a list of 3000 clickable div rows
  // costs one pass, not one per row. Over KIN_MAX look-alikes: none is its own item.
  let kinCounts: Map<string, Map<string, number> | null> | undefined;
  const roots = new WeakMap<Node, number>();
  let rootIds = 0;
  function kinOf(el: Element, cls: string | null): Map<string, number> | null {
    if (!kinCounts) {
      kinCounts = new Map();
      queueMicrotask(() => (kinCounts = undefined));
    }
    const root = rootNodeOf(el) as Document | ShadowRoot;
    let id = roots.get(root);
    if (id === undefined) roots.set(root, id = ++rootIds);
    const key = `${id} ${localOf(el)} ${cls ?? ""}`;
    if (kinCounts.has(key)) return kinCounts.get(key)!;
    const first = cls?.trim().split(/\s+/)[0];
    const counts = new Map<string, number>();
    let seen = 0;
    for (const k of qsaOf(root, first ? `.${CSS.escape(first)}` : localOf(el))) {
      if (localOf(k) !== localOf(el) || attrOf(k, "class") !== cls) continue;
      if (++seen > KIN_MAX + 1) {
        kinCounts.set(key, null);
        return null;
      }
      const t = flat(k);
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    kinCounts.set(key, counts);
    return counts;
  }
  function ownItem(el: Element): boolean {
    let own = ownItems.get(el);
    if (own !== undefined) return own;
    own = !!repeatedKind(el);
    if (own) {
      const counts = kinOf(el, attrOf(el, "class"));
      own = !!counts && (counts.get(flat(el)) ?? 0) <= 1;
    }
    ownItems.set(el, own);
    return own;
  }

  function containerKind(el: Element): string | undefined {
    const explicit = attrOf(el, "role");
    const kind = explicit ? CONTAINER_ROLES.get(explicit.trim().split(/\s/)[0]!) : undefined;
    return kind ?? CONTAINER_TAGS.get(localOf(el));
  }

  api.containerKind = containerKind;
  api.itemKind = (el: Element) => containerKind(el) ?? repeatedKind(el);
  api.ownItem = ownItem;
}
