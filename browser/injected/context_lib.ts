/// <reference lib="dom" />
/**
 * The page-side ref fingerprint: where an element sits. Installed after `snapshot_lib.ts`'s
 * element part (it uses `isEditableRoot`) and `context_text_lib.ts`; whether the element of a
 * ref is still what the agent was shown is `ref_check_lib.ts`'s, installed next.
 *
 * Adds to the utility api:
 * - `contextOf(el, role, name) → [kind, text]`: where an element sits, the
 *   fingerprint a ref keeps to notice a recycled node (see below).
 *
 * The context of an element (`contextOf`): frameworks re-render lists by
 * re-using DOM nodes for other items, so a "Delete" button keeps its role and
 * name while its row now shows another item. A context's text is what its container reads
 * (`context_text_lib.ts`: its text, labels, fields' values as the page set them, cut and
 * hashed past 80 characters). In order:
 * 1. the element is an item container itself (`li`, `tr`, `option`, `article`,
 *    `label`, or role `row`, `listitem`, `option`, `article`): `[kind, its text]`
 *    (`""` when it is editable); or, not editable, a row of plain elements (below) whose text
 *    no element of its tag and class reads (a card among cards, a sortable list's entry):
 *    `["content", its text]` (its column or list holds other items, which may come and go);
 * 2. the nearest such ancestor (flat tree), or a row of plain elements (a `div` or `section`
 *    with a class, or a custom element, beside a sibling of the same tag and class, at most 400
 *    characters of text, kind `item`; once seen so, one still when its siblings are gone):
 *    `[kind, its text]` without the element's own subtree (the element is checked by its role
 *    and name); one holding nothing else passes to the next one up;
 * 3. up to the nearest named structure (`dialog`, `region`, `form`, `group`,
 *    `toolbar`, `table`, …), none: for an element without a name (a clickable
 *    card), not editable, `["content", its own text]` when not empty;
 * 4. else `[role, name]` of that structure (the line the element sits under);
 * 5. else `["", ""]`.
 * A scroll box (content larger than its `overflow: auto` box) is told by itself,
 * never by its content: scrolling a virtual list renders other rows in it, and the same box
 * must keep its ref (step 1 gives `[kind, ""]`, steps 1 and 3 no `"content"`).
 * States (checked, focus, classes, shown or hidden parts) do not change a context.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds the ref fingerprint (see the module doc) to the utility api. */
export function installContextLib(api: PageApi): void {
  const { nodeTypeOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const TEXT_ENTRY = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
  const containerKind = api.containerKind as Fn<[Element], string | undefined>;
  const itemKind = api.itemKind as Fn<[Element], string | undefined>;
  const ownItem = api.ownItem as Fn<[Element], boolean>;
  const contextText = api.contextText as Fn<[Element, Element | null, boolean?], string>;

  // Named structures: outside any item container, the name of the nearest one is the context.
  const CONTEXT_STRUCTS = new Set(
    ("dialog alertdialog region form group tabpanel menu menubar toolbar listbox tree grid " +
      "treegrid table radiogroup tablist navigation complementary").split(" "),
  );
  // Refs that are never scoped by their own content (their content changes with their state).
  const NO_CONTENT_CONTEXT = new Set(["dialog", "alertdialog", "iframe"]);
  // A structure's name is shown as at most this many characters, as a context text is
  // (context_text_lib.ts).
  const CONTEXT_MAX = 80;
  const SCROLLS = new Set(["auto", "scroll", "overlay"]);
  // A box that scrolls its content (as scroll_box_lib.ts's `scrolls`, either axis); the style
  // is read only for a box whose content overflows it.
  function isScrollBox(el: Element): boolean {
    const h = el as HTMLElement;
    const y = h.scrollHeight > h.clientHeight + 1 && h.clientHeight > 0;
    const x = h.scrollWidth > h.clientWidth + 1 && h.clientWidth > 0;
    const root = el === document.scrollingElement || el === document.documentElement ||
      el === document.body;
    if (root || !x && !y) return false;
    const cs = getComputedStyle(el);
    return y && SCROLLS.has(cs.overflowY) || x && SCROLLS.has(cs.overflowX);
  }
  // See the module doc. `role` and `name` are the element's own (as its ref line shows them).
  function contextOf(el: Element, role: string, name: string): [string, string] {
    const editable = TEXT_ENTRY.has(role) || isEditableRoot(el);
    const own = containerKind(el);
    const box = isScrollBox(el);
    if (own) return [own, editable || box ? "" : contextText(el, null)];
    if (!editable && !box && !NO_CONTENT_CONTEXT.has(role) && ownItem(el)) {
      const text = contextText(el, null);
      // Told by its own text, as a card without a name is (step 3): its messages say so.
      if (text) return ["content", text];
    }
    let struct: [string, string] = ["", ""];
    // An item that holds nothing but the element (a card's action list item, a bare label
    // around a checkbox) does not tell items apart: the next one up may.
    let empty: [string, string] | undefined;
    for (let a = flatParent(el); a && nodeTypeOf(a) === 1; a = flatParent(a)) {
      if (a === document.body || a === document.documentElement) break;
      const kind = itemKind(a);
      if (kind) {
        // A text field's own value is its row's item in an editable grid (a list or table row
        // in no form), not a form's field (in a label, a div group, a form laid out as a
        // table), whose value the page may fill in or format.
        const own = editable && (kind === "row" || kind === "list item") &&
          !(el as HTMLInputElement).form;
        const text = contextText(a, el, own);
        if (text) return [kind, text];
        empty ??= [kind, ""];
        continue;
      }
      const r = roleOf(a);
      if (CONTEXT_STRUCTS.has(r)) {
        const n = nameOf(a);
        if (n) {
          struct = [r, n.slice(0, CONTEXT_MAX)];
          break;
        }
      }
    }
    if (empty) return empty;
    // A clickable without a name (a card, a row of divs) is told by its own text.
    if (!name && !editable && !box && !NO_CONTENT_CONTEXT.has(role)) {
      const text = contextText(el, null);
      if (text) return ["content", text];
    }
    return struct;
  }

  api.contextOf = contextOf;
}
