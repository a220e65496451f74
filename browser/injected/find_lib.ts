/// <reference lib="dom" />
/**
 * Page-side ranking for `find`: one walk over a frame's flat tree (open shadow roots in place,
 * slots by assignment, the snapshot's own visibility decision `shownStep`) that scores every
 * element an agent could mean against a parsed query (`FindQuery`, made by
 * `browser/find/query.ts`). Deterministic: words against the accessible name (`nameOf`, the
 * snapshot's names), the shown text, placeholder, title, alt, test ids, id, name and class, and
 * for a control with none of the words (a todo's checkbox) the text of the row or list item it
 * sits in; the role against the role words; the context words against the element's ancestors
 * (their roles, names, ids and classes), its row or list item and the nearest heading before it.
 * Short plain text (a label, a text-only row) is a candidate too, matched by that text alone.
 *
 * This file holds the walk and the choice of candidates; `find_score_lib.ts` scores each one.
 * Words and texts are compared by `find_words_lib.ts`, places ("in the …", "next to …") by
 * `find_place_lib.ts`; the selector hints live in `find_hint_lib.ts`.
 *
 * Sent as source text: {@link installFindLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { FindQuery, FindScan, FindScorer } from "./page_types.ts";

/**
 * Adds to the utility api:
 * - `findScan(query) → { instance, items, scanned }`: the frame's elements scored 0..1 against
 *   the query, the best `query.max` first, plus every element matching a remembered one
 *   (`query.remember`). Candidates are the snapshot's targets (widgets, editable regions,
 *   clickables), headings, named images and dialogs, elements of a role the query names (a
 *   row, a list item), hidden ones included (scored lower: a visible match beats a hidden one),
 *   and shown elements holding short text of their own (under 100 characters without the
 *   controls in it, most of it the query's words; ranked below a widget as good).
 * - `findStable(el) → { testId, idAttr }`: an element's stable features (feedback keys).
 *
 * @throws Error from `findScan` when `query.rootId` names an element that is gone.
 */
export function installFindLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, firstOf, nextOf, visibleEl } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Walk = { skippingParent: Node | null };
  const refRole = api.refRole as Fn<[Element], string>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const contextOf = api.contextOf as Fn<[Element, string, string], [string, string]>;
  const shownStep = api.shownStep as Fn<[Element, number, Walk], number>;
  const setStaticOnly = api.setStaticOnly as Fn<[boolean], void>;
  const shadowOf = api.shadowOf as Fn<[Element], ShadowRoot | null>;
  const element = api.element as Fn<[number], Element | null>;
  const cacheLabels = api.cacheLabels as Fn<[boolean], void>;
  const placeCache = api.findPlaceCache as Fn<[boolean], void>;
  const textOf = api.findTextOf as Fn<
    [Element, number, (Element | null)?, ((e: Element) => boolean)?],
    string
  >;
  const testIdOf = api.findTestId as Fn<[Element], string>;
  const isItem = api.findIsItem as Fn<[Element], boolean>;
  const scorer = api.findScorer as Fn<[FindQuery], FindScorer>;

  const HID = 4, SKIP = 16;
  const SKIP_TAGS = new Set(
    ("script style template noscript head meta link title datalist option optgroup param " +
      "source track base area map iframe frame").split(" "),
  );
  const WIDGETS = new Set(
    ("button link checkbox radio textbox searchbox combobox listbox slider spinbutton switch " +
      "tab menuitem menuitemcheckbox menuitemradio option treeitem").split(" "),
  );
  const NO_CURSOR_TAGS = new Set(
    "label code em strong b small sub sup abbr kbd var samp cite q mark pre br wbr".split(" "),
  );
  // Plain text is a candidate when short: a label, a text-only row, not a paragraph.
  const TEXT_MAX = 100;
  // The controls in it are candidates of their own: "Walk dog <button>edit</button>" is the
  // text "Walk dog", and "edit Walk dog" is its button, not the item that holds all the words.
  const isControl = (e: Element) => WIDGETS.has(refRole(e)) || isEditableRoot(e);
  const shortText = (el: Element) => {
    let own = false;
    for (let n = firstOf(el); n && !own; n = nextOf(n)) {
      own = nodeTypeOf(n) === 3 && /\S/.test((n as Text).data);
    }
    const t = own ? textOf(el, TEXT_MAX, null, isControl) : "";
    return t.length < TEXT_MAX ? t : "";
  };
  function scan(q: FindQuery): FindScan {
    const found = scorer(q);
    const { words, exact, roles, items, els, score, heading } = found;
    const walk: Walk = { skippingParent: null };

    function clickHandler(el: Element): boolean {
      const tab = attrOf(el, "tabindex");
      return hasAttrOf(el, "onclick") || (tab !== null && Number(tab) >= 0);
    }

    type Item = Element | null;

    function visitKids(el: Element, flags: number, hidden: boolean, inTarget: boolean, item: Item) {
      if (localOf(el) === "slot") {
        const assigned = (el as HTMLSlotElement).assignedNodes();
        if (assigned.length) {
          for (const n of assigned) {
            if (nodeTypeOf(n) === 1) visit(n as Element, flags, hidden, inTarget, item);
          }
          return;
        }
      }
      const parent: Node = shadowOf(el) ?? el;
      for (let n = firstOf(parent); n; n = nextOf(n)) {
        if (nodeTypeOf(n) === 1) visit(n as Element, flags, hidden, inTarget, item);
      }
    }

    function visit(el: Element, flags: number, hidden: boolean, inTarget: boolean, item: Item) {
      const tag = localOf(el);
      if (SKIP_TAGS.has(tag)) return;
      if (tag === "slot") return visitKids(el, flags, hidden, inTarget, item);
      if (!hidden) {
        const s = shownStep(el, flags, walk);
        if (s < 0) hidden = true;
        else flags = s;
      }
      const hid = hidden || (flags & HID) !== 0;
      const skip = (flags & SKIP) !== 0;
      const role = refRole(el);
      let target = WIDGETS.has(role) || isEditableRoot(el);
      if (!target && !hid && !inTarget && !skip) {
        target = clickHandler(el) ||
          (!NO_CURSOR_TAGS.has(tag) && getComputedStyle(el).cursor === "pointer");
      }
      let labelled = false;
      if (tag === "label" && !hid) {
        const control = (el as HTMLLabelElement).control;
        // A visible control is the target (its label names it); a hidden one is used by its label.
        if (control) [target, labelled] = [!visibleEl(control) && !inTarget, true];
      }
      if (target) score(el, role, hid, skip, item);
      else if (
        role === "heading" || role === "dialog" || role === "alertdialog" ||
        (roles.has(role) && !inTarget)
      ) {
        // What the query names by its role is a candidate too: "the Item 2718 row".
        score(el, role, hid, skip, null);
      } else if (
        (role === "img" || role === "progressbar" || role === "meter") && !inTarget &&
        (hasAttrOf(el, "alt") || hasAttrOf(el, "aria-label") ||
          hasAttrOf(el, "aria-labelledby"))
      ) {
        // Named by its author: an image, or a progress bar or meter ("Upload progress").
        score(el, role, hid, skip, null);
      } else if (!hid && !inTarget && !skip && !labelled && (words.length || exact)) {
        // Plain text: "Walk dog" is the todo's label (its control is named elsewhere, or not).
        const shown = shortText(el);
        if (shown) score(el, role, hid, skip, null, shown, item);
      }
      if (role === "heading" && !hid) heading(el);
      if (
        tag === "svg" || tag === "img" || tag === "input" || tag === "textarea" || tag === "select"
      ) {
        return;
      }
      visitKids(el, flags, hidden, inTarget || target, isItem(el) ? el : item);
    }

    let root: Element | null = document.body ?? document.documentElement;
    if (q.rootId !== null) {
      root = element(q.rootId);
      if (!root) throw new Error(`element #${q.rootId} is gone`);
    }
    cacheLabels(true);
    placeCache(true);
    try {
      // Inside the element: its own line is not a match for what is in it.
      if (root) visitKids(root, 0, false, false, q.rootId !== null && isItem(root) ? root : null);
    } finally {
      cacheLabels(false);
      placeCache(false);
    }
    const scanned = found.scanned();
    const at = new Map(items.map((it, i) => [it, i]));
    items.sort((a, b) => b.score - a.score || a.order - b.order);
    const best = items.slice(0, q.max);
    for (const it of items.slice(q.max)) if (it.remembered >= 0) best.push(it);
    // An ordinal counts in page order among the close matches: their ends come too.
    const top = items[0]?.score ?? 0;
    const close = q.ends ? items.filter((it) => it.score >= top * 0.85) : [];
    if (q.ends) {
      close.sort((a, b) => a.order - b.order);
      const kept = new Set(best);
      for (const it of [...close.slice(0, q.ends), ...close.slice(-q.ends)]) {
        if (!kept.has(it)) best.push(it), kept.add(it);
      }
    }
    // Several alike ("Add to cart" beside each product): which one is the item's must be said.
    const alike = new Map<string, number>();
    const kind = (it: (typeof items)[number]) => `${it.role}\u0000${it.name}`;
    for (const it of items) alike.set(kind(it), (alike.get(kind(it)) ?? 0) + 1);
    for (const it of best) {
      const i = at.get(it)!;
      const [el, skip] = els.get(i)!;
      if (skip) setStaticOnly(true);
      try {
        it.context = contextOf(el, it.role, it.name);
        const missing = found.missing(i, alike.get(kind(it))! > 1);
        if (missing.length) it.missing = missing;
      } finally {
        if (skip) setStaticOnly(false);
      }
    }
    return {
      instance: api.instance as string,
      items: best,
      scanned,
      ...(q.ends ? { closeCount: close.length } : {}),
    };
  }

  api.findScan = scan;
  api.findStable = (el: Element) => ({ testId: testIdOf(el), idAttr: el.id });
}
