/// <reference lib="dom" />
/**
 * Page-side check for `find` that a candidate is about what the query names: "remove Milk
 * Frother from cart" must not be Red Mug's Remove button, "delete Gamma" not Alpha's delete
 * button, "Edit Zed Zulu" not Alice Adams' Edit. The ranker gives partial credit to a control
 * that says the verb only (its row may name the rest); this tells whether the rest is anywhere
 * near it at all.
 *
 * Sent as source text: {@link installFindMentionLib} must not use anything from its module
 * scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `findMissing(el, own, words, { heading, frame, twin }) → string[]`: the query's words (tokens)
 *   naming an item that neither `el`'s own fields (`own`, their values joined) nor anything
 *   around it mentions (its row or list item, its ancestors, the nearest heading before it, its
 *   frame's name, the text of its nearest ancestor that has any), as `findWordMatch` compares words (a typo counts). Verbs ("remove", "buy") and filler words ("about", "all") are not item words. `[]` when
 *   one of the words it lacks is mentioned (a loose description is the ranker's business), and
 *   when it carries an item word itself and is the only one of its kind (`twin` false: "e-mail
 *   address" for the one Email field); a control that says only the verb, or one of several
 *   alike ("Add to cart" beside each product), is about the item only when something says so.
 */
export function installFindMentionLib(api: PageApi): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Bag = Array<[string, number, string]>;
  type Where = { heading: string; frame: string; twin: boolean };
  const tokens = api.findTokens as Fn<[string], string[]>;
  const wordMatch = api.findWordMatch as Fn<[string, string], number>;
  const placeBag = api.findPlaceBag as Fn<[Element, string, string?], Bag>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const textOf = api.findTextOf as Fn<[Element, number, (Element | null)?], string>;

  // Words that ask what to do, not which item: a control saying one is still not the item.
  const VERBS = new Set(
    ("delete remove destroy trash del erase edit modify change rename toggle complete done " +
      "mark check uncheck close dismiss cancel add new create plus buy open view show hide go " +
      "get select choose pick click press tap submit send save load download upload play pause " +
      "start stop run share copy like follow reply read visit use enable disable expand " +
      "collapse more update set clear reset undo redo move drag drop switch")
      .split(" "),
  );
  // Nor are these: "Read more about Chromium", "Mark all as complete".
  const FILLER = new Set(
    ("about as at by for from in into of on onto over per than through to up via with without " +
      "all any each every some both it its my your our their this that these those")
      .split(" "),
  );
  const says = (w: string, toks: string[]) => toks.some((t) => wordMatch(w, t) >= 0.5);

  function missing(el: Element, own: string, words: string[], at: Where): string[] {
    const { heading, frame, twin } = at;
    const mine = tokens(own);
    const named = words.filter((w) => !VERBS.has(w) && !FILLER.has(w));
    const left = named.filter((w) => !says(w, mine));
    if (!left.length || (!twin && left.length < named.length)) return [];
    const around = placeBag(el, heading, frame).map(([t]) => t);
    if (left.some((w) => says(w, around))) return [];
    // The text beside it: its nearest ancestor's that has any (a product card's, not the
    // list of every product around the card).
    for (let a = flatParent(el), up = 0; a && a !== document.body && up < 3; a = flatParent(a)) {
      const text = textOf(a, 160, el);
      if (!text) {
        up++;
        continue;
      }
      return left.some((w) => says(w, tokens(text))) ? [] : left;
    }
    return left;
  }

  api.findMissing = missing;
}
