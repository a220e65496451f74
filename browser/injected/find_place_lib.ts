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
 * - `findPlaceBag(el, heading, frame?)`: where `el` sits (its ancestors up to 14 levels, `heading`,
 *   the name of the nearest heading before it, and `frame`, what its frame's `<iframe>` is called).
 * - `findNearBag(el, asked)`: the text around `el` (its parent's, up to three levels while the
 *   text stays short), weighted down as it grows past `asked` words.
 * - `findBagScore(bag, words) → [0..1, label]`: how well the bag covers the words, and the label
 *   of the best match (-1 when `words` is empty).
 * - `findIsItem(el)`: whether `el` is a row or list item (`li`, `tr`, `article`, role `row`,
 *   `listitem`, `article`): its text names the controls in it that have no words of their own.
 * - `findItemMatch(item, el, fields, words, exact) → [0..1, label]`: how well `el` is named by
 *   its own fields (`[label, value, weight]`) and the text of the `item` it sits in, a user sees
 *   beside it (without `el`, hidden parts, fields' values and nested items: a menu entry's
 *   sub-list): "Walk dog checkbox" for a nameless checkbox in the "Walk dog" row. 0 when no word
 *   comes from the item; halved for each word matched by neither; up to 15% less when the
 *   query's neighbouring words found in the item stand apart there (`findTogether`). An `exact` (quoted) query
 *   matches the item's text whole (0.75) or a part of it (0.55). The label: `item "Walk dog"`.
 */
export function installFindPlaceLib(api: PageApi): void {
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

  function placeBag(el: Element, heading: string, frame = ""): Bag {
    const bag: Bag = [];
    const add = (text: string, weight: number, label: string) => {
      for (const t of tokens(text)) bag.push([t, weight, label]);
    };
    let depth = 0;
    for (let a = flatParent(el); a && depth < 14; a = flatParent(a), depth++) {
      if (a === document.body || a === document.documentElement) break;
      const r = roleOf(a);
      if (PLACES.has(r)) {
        const n = r === "row" || r === "listitem" ? textOf(a, 120, el) : nameOf(a).slice(0, 80);
        const label = `${r}${n ? ` "${n.slice(0, 30)}"` : ""}`;
        add(ROLE_WORDS[r] ?? r, 0.8, label);
        if (n) add(n, 1, label);
      }
      const cls = typeof a.className === "string" ? a.className : "";
      const own = [a.id, cls, testIdOf(a)].join(" ");
      if (own.trim()) add(own, 0.7, `${a.localName}${a.id ? "#" + a.id : ""}`);
    }
    if (heading) add(heading, 0.85, `heading "${heading.slice(0, 30)}"`);
    if (frame) add(frame, 0.9, `frame "${frame.slice(0, 30)}"`);
    return bag;
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
  const leaveOut = (e: Element) =>
    e.localName === "svg" || ITEM_TAGS.has(e.localName) ||
    ITEM_ROLES.has(e.getAttribute("role") ?? "") || !e.checkVisibility();
  const itemText = (item: Element, el: Element) => textOf(item, 160, el, leaveOut);

  // A word found in the item counts this much of one found on the element itself.
  const ITEM = 0.75;

  const isItem = (el: Element) =>
    ITEM_TAGS.has(el.localName) || ITEM_ROLES.has(el.getAttribute("role") ?? "");

  function itemMatch(
    item: Element,
    el: Element,
    fields: Array<[string, string, number]>,
    q: string[],
    exact: string,
  ): [number, string] {
    const text = itemText(item, el);
    const kind = item.localName === "tr" || item.getAttribute("role") === "row" ? "row" : "item";
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

  api.findPlaceBag = placeBag;
  api.findIsItem = isItem;
  api.findItemMatch = itemMatch;
  api.findNearBag = nearBag;
  api.findBagScore = bagScore;
}
