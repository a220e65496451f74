/// <reference lib="dom" />
/**
 * Page-side places for `find` (`find_lib.ts`): where an element sits, as a bag of weighted words
 * the query's "in the …" and "next to / for …" words are matched against: its ancestors' roles
 * (in the words people use: "navigation" is also "nav" and "menu", "contentinfo" "footer"),
 * their names (a table's caption, a toolbar's label, a row's or list item's text), ids, classes
 * and test ids, and the nearest heading before it; or the text right around it.
 *
 * Sent as source text: {@link installFindPlaceLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api (a bag is `[word, weight 0..1, label][]`, the label saying where the
 * word came from, for `why`):
 * - `findPlaceCache(on)`: while on (one synchronous scan: the page cannot change meanwhile), what
 *   ancestors add to place bags and which elements are shown are read once each.
 * - `findPlaceBag(el, heading, frame?)`: where `el` sits (its ancestors up to 14 levels, `heading`,
 *   the name of the nearest heading before it, and `frame`, what its frame's `<iframe>` is called).
 * - `findNearBag(el, asked)`: the text around `el` (its parent's, up to three levels while the
 *   text stays short), weighted down as it grows past `asked` words.
 * - `findBagScore(bag, words) → [0..1, label]`: how well the bag covers the words, and the label
 *   of the best match (-1 when `words` is empty).
 * - `findIsItem(el)`: whether `el` is a row or list item (`li`, `tr`, `article`, role `row`,
 *   `listitem`, `article`): its text names the controls in it that have no words of their own.
 * - `findPlaceBound(el, item, heading, frame, left) → number`: at least what `findBagScore`
 *   answers for `left` against a control's near and place bags (its item's texts read once).
 * - `findItemBound(item, fields, words, exact) → number`: at least what `findItemMatch` answers
 *   (cheaper: the item's text is read once per scan while `findPlaceCache` is on).
 * - `findItemMatch(item, el, fields, words, exact) → [0..1, label]`: how well `el` is named by
 *   its own fields (`[label, value, weight]`) and the text of the `item` it sits in, a user sees
 *   beside it (without `el`, hidden parts, fields' values and nested items: a menu entry's
 *   sub-list): "Walk dog checkbox" for a nameless checkbox in the "Walk dog" row. 0 when no word
 *   comes from the item; halved for each word matched by neither; up to 15% less when the
 *   query's neighbouring words found in the item stand apart there (`findTogether`). An `exact` (quoted) query
 *   matches the item's text whole (0.75) or a part of it (0.55). The label: `item "Walk dog"`.
 */
export function installFindPlaceLib(api: PageApi): void {
  const { localOf, attrOf, visibleEl } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Bag = Array<[string, number, string]>;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const tokens = api.findTokens as Fn<[string], string[]>;
  const wordMatch = api.findWordMatch as Fn<[string, string], number>;
  const together = api.findTogether as Fn<[string[], string[]], number>;
  const textOf = api.findTextOf as Fn<
    [Element, number, (Element | null)?, ((e: Element) => boolean)?],
    string
  >;
  const testIdOf = api.findTestId as Fn<[Element], string>;
  const synonymsOf = api.findSynonyms as Fn<[string], string[]>;
  const textWhole = api.findTextWhole as Fn<[Element, number], string | null>;
  // Ancestors whose role and name say where an element is ("in the Orders table").
  const PLACES = new Set(
    ("region navigation form dialog alertdialog toolbar table grid treegrid group tabpanel menu " +
      "menubar list complementary banner main contentinfo search article tablist radiogroup " +
      "tree listbox row listitem").split(" "),
  );
  // What people call those roles.
  const ROLE_WORDS: Record<string, string> = {
    navigation: "navigation nav menu",
    complementary: "sidebar aside complementary",
    contentinfo: "footer",
    banner: "header banner",
    alertdialog: "dialog modal popup",
    dialog: "dialog modal popup",
    listitem: "item list",
    treegrid: "table grid",
    grid: "table grid",
    main: "main content",
    search: "search",
  };

  // While a scan runs (`findPlaceCache(true)`): what each ancestor adds to a place bag (all but
  // a row's or list item's text, which leaves out the element asked about), and whether an
  // element is shown (`leaveOut`). A big table's every row asks the same of its table.
  let ancestors: Map<Element, { role: string; bag: Bag }> | null = null;
  let shown: Map<Element, boolean> | null = null;

  /** What ancestor `a` says of where an element is, but a row's or list item's text. */
  function ancestorBag(a: Element): { role: string; bag: Bag } {
    let got = ancestors?.get(a);
    if (got) return got;
    const bag: Bag = [];
    const add = (text: string, weight: number, label: string) => {
      for (const t of tokens(text)) bag.push([t, weight, label]);
    };
    const r = roleOf(a);
    if (PLACES.has(r) && r !== "row" && r !== "listitem") {
      const n = nameOf(a).slice(0, 80);
      const label = `${r}${n ? ` "${n.slice(0, 30)}"` : ""}`;
      add(ROLE_WORDS[r] ?? r, 0.8, label);
      if (n) add(n, 1, label);
    }
    const cls = typeof a.className === "string" ? a.className : "";
    const own = [a.id, cls, testIdOf(a)].join(" ");
    if (own.trim()) add(own, 0.7, `${localOf(a)}${a.id ? "#" + a.id : ""}`);
    got = { role: r, bag };
    ancestors?.set(a, got);
    return got;
  }

  function placeBag(el: Element, heading: string, frame = ""): Bag {
    const bag: Bag = [];
    const add = (text: string, weight: number, label: string) => {
      for (const t of tokens(text)) bag.push([t, weight, label]);
    };
    let depth = 0;
    for (let a = flatParent(el); a && depth < 14; a = flatParent(a), depth++) {
      if (a === document.body || a === document.documentElement) break;
      const { role: r, bag: own } = ancestorBag(a);
      if (r === "row" || r === "listitem") {
        // Its text without the element: the element's own words are not where it is.
        const n = textOf(a, 120, el);
        const label = `${r}${n ? ` "${n.slice(0, 30)}"` : ""}`;
        add(ROLE_WORDS[r] ?? r, 0.8, label);
        if (n) add(n, 1, label);
      }
      for (const entry of own) bag.push(entry);
    }
    if (heading) add(heading, 0.85, `heading "${heading.slice(0, 30)}"`);
    if (frame) add(frame, 0.9, `frame "${frame.slice(0, 30)}"`);
    return bag;
  }

  /**
   * At least what `bagScore` answers for `left` against the bag of a control in `item` (not
   * itself an item): its near bag (`nearBag(el, n, item)`) and `placeBag(el, heading, frame)`.
   * Their texts (the item's, a row ancestor's, without `el`) are bounded by those elements'
   * whole texts (a word there starts with two letters of one of them, see `itemBound`); the
   * rest (ancestors' roles, names, ids, classes, the heading, the frame) is read as placeBag
   * reads it (cached per ancestor). 1 when a text is too long to tell.
   */
  function placeBound(
    el: Element,
    item: Element,
    heading: string,
    frame: string,
    left: string[],
  ): number {
    const wholes: string[] = [];
    const entries: Bag = [];
    const itemWhole = wholeText(item);
    if (itemWhole === null) return 1;
    wholes.push(itemWhole);
    let depth = 0;
    for (let a = flatParent(el); a && depth < 14; a = flatParent(a), depth++) {
      if (a === document.body || a === document.documentElement) break;
      const { role, bag } = ancestorBag(a);
      if (role === "row" || role === "listitem") {
        const whole = wholeText(a);
        if (whole === null) return 1;
        wholes.push(whole);
        for (const t of tokens(ROLE_WORDS[role] ?? role)) entries.push([t, 0.8, ""]);
      }
      for (const entry of bag) entries.push(entry);
    }
    for (const t of tokens(heading)) entries.push([t, 0.85, ""]);
    for (const t of tokens(frame)) entries.push([t, 0.9, ""]);
    let sum = 0;
    for (const w of left) {
      let best = 0;
      for (const [t, weight] of entries) best = Math.max(best, wordMatch(w, t) * weight);
      if (best < 1 && canStart(w, wholes)) best = 1;
      sum += best;
    }
    return left.length ? sum / left.length : -1;
  }

  /** Whether a word of one of `wholes` (lower case texts) may match `w` (see `itemBound`). */
  function canStart(w: string, wholes: string[]): boolean {
    return [w, ...synonymsOf(w)].some((v) => {
      const start = v.slice(0, 2).replaceAll("ς", "σ");
      return wholes.some((h) => h.includes(start));
    });
  }

  function nearBag(el: Element, asked: number, stop?: Element | null): Bag {
    const bag: Bag = [];
    let a: Element | null = el;
    for (let up = 0; up < 3 && a && a !== stop; up++) {
      a = flatParent(a);
      if (!a || a === document.body) break;
      const text = textOf(a, 160, el);
      const toks = tokens(text);
      // The nearer and the smaller the text around, the more it is "next to" the element.
      const weight = (1 - up * 0.15) *
        (0.6 + 0.4 * Math.min(1, asked / Math.max(1, toks.length)));
      for (const t of toks) bag.push([t, weight, `beside "${text.slice(0, 30)}"`]);
      if (text.length > 20) break;
    }
    return bag;
  }

  function bagScore(bag: Bag, q: string[]): [number, string] {
    if (!q.length) return [-1, ""];
    let sum = 0, label = "", top = 0;
    for (const w of q) {
      let best = 0, bl = "";
      for (const [t, weight, l] of bag) {
        const m = wordMatch(w, t) * weight;
        if (m > best) [best, bl] = [m, l];
      }
      sum += best;
      if (best > top) [top, label] = [best, bl];
    }
    return [sum / q.length, label];
  }

  const ITEM_TAGS = new Set(["li", "tr", "article"]);
  const ITEM_ROLES = new Set(["row", "listitem", "article"]);
  // Besides what every text leaves out (find_words_lib.ts's textOf): nested items (a sub-list),
  // hidden parts, drawings.
  const visible = (e: Element) => {
    let v = shown?.get(e);
    if (v === undefined) shown?.set(e, v = visibleEl(e));
    return v;
  };
  const leaveOut = (e: Element) =>
    localOf(e) === "svg" || ITEM_TAGS.has(localOf(e)) ||
    ITEM_ROLES.has(attrOf(e, "role") ?? "") || !visible(e);
  const itemText = (item: Element, el: Element) => textOf(item, 160, el, leaveOut);

  // A word found in the item counts this much of one found on the element itself.
  const ITEM = 0.75;

  const isItem = (el: Element) =>
    ITEM_TAGS.has(localOf(el)) || ITEM_ROLES.has(attrOf(el, "role") ?? "");

  function itemMatch(
    item: Element,
    el: Element,
    fields: Array<[string, string, number]>,
    q: string[],
    exact: string,
  ): [number, string] {
    const text = itemText(item, el);
    const kind = localOf(item) === "tr" || attrOf(item, "role") === "row" ? "row" : "item";
    const label = `${kind} "${text.slice(0, 30)}"`;
    if (exact) {
      const v = text.toLowerCase();
      return [v === exact ? 0.75 : v.includes(exact) ? 0.55 : 0, label];
    }
    const own: Bag = fields.flatMap(([l, value, weight]) =>
      tokens(value).map((t): [string, number, string] => [t, weight, l])
    );
    return [itemScore(own, text, q), label];
  }

  // While a scan runs: each item's whole text, lower case ("" when too long to tell).
  let wholeTexts: Map<Element, string | null> | null = null;
  function wholeText(item: Element): string | null {
    let t = wholeTexts?.get(item);
    if (t === undefined) {
      // A final sigma is a sigma (a word cut short lower-cases its last one as final).
      t = textWhole(item, 4000)?.toLowerCase().replaceAll("ς", "σ") ?? null;
      wholeTexts?.set(item, t);
    }
    return t;
  }

  /**
   * At least what {@link itemMatch} answers for the same arguments, from the item's whole text
   * (read once per item in a scan) instead of its text without `el`: a word can come from the
   * item only when the whole text holds its first two letters (or a synonym's): every word of
   * the text without `el` starts with two letters of one word of the whole text (`findTextOf`
   * keeps a left-out element's neighbours apart; a cut or a stem keeps a word's start). A table's
   * controls whose own words already score more skip the item's reading (a 3,000-row table
   * read each row twice).
   */
  function itemBound(
    item: Element,
    fields: Array<[string, string, number]>,
    q: string[],
    exact: string,
  ): number {
    if (exact || !q.length) return 1;
    const whole = wholeText(item);
    // Too long to tell; nothing at all (itemMatch answers 0 too).
    if (whole === null) return 1;
    if (!whole) return 0;
    let sum = 0, missed = 0, fromItem = false;
    for (const w of q) {
      let own = 0;
      for (const [, value, weight] of fields) {
        for (const t of tokens(value)) own = Math.max(own, wordMatch(w, t) * weight);
      }
      const can = canStart(w, [whole]);
      const best = can ? Math.max(own, ITEM) : own;
      if (can && ITEM > own) fromItem = true;
      if (best < 0.3) missed++;
      sum += best;
    }
    return fromItem ? (sum / q.length) * 0.5 ** missed : 0;
  }

  function itemScore(own: Bag, item: string, q: string[]): number {
    const toks = tokens(item);
    if (!toks.length || !q.length) return 0;
    let sum = 0, missed = 0, fromItem = 0;
    const used = new Set<number>();
    const words: string[] = [];
    for (const w of q) {
      let best = 0, at = -1, inItem = 0;
      for (const [t, weight] of own) best = Math.max(best, wordMatch(w, t) * weight);
      for (let i = 0; i < toks.length; i++) {
        const m = wordMatch(w, toks[i]!) * ITEM;
        if (m > inItem) [inItem, at] = [m, i];
      }
      if (inItem > best) {
        best = inItem;
        fromItem++;
        used.add(at);
        words.push(w);
      }
      if (best < 0.3) missed++;
      sum += best;
    }
    if (!fromItem) return 0;
    // "Walk dog" names the "Walk dog" row better than the "Walk dog and cat" one, and "Item
    // 2718" the "Item 2718 | 8154 units" row better than the "Item 906 | 2718 units" one.
    const cover = 0.8 + 0.2 * Math.min(1, used.size / toks.length);
    const apart = words.length > 1 ? 0.15 * (1 - together(toks, words)) : 0;
    return (sum / q.length) * cover * (1 - apart) * 0.5 ** missed;
  }

  api.findPlaceCache = (on: boolean) => {
    ancestors = on ? new Map() : null;
    shown = on ? new Map() : null;
    wholeTexts = on ? new Map() : null;
  };
  api.findItemBound = itemBound;
  api.findPlaceBound = placeBound;
  api.findPlaceBag = placeBag;
  api.findIsItem = isItem;
  api.findItemMatch = itemMatch;
  api.findNearBag = nearBag;
  api.findBagScore = bagScore;
}
