/// <reference lib="dom" />
/**
 * Types of the values the find parts (`find_*_lib.ts`) and the Deno side (`browser/find/`)
 * exchange: the query as the page scores it, the scorer, the scanned items, the hints. Types only;
 * `page_types.ts` re-exports them.
 *
 * @module
 */

/**
 * A `find` query as the page scores it (`findScan`, find_lib.ts); `browser/find/query.ts` makes
 * it from the agent's words.
 */
export interface FindQuery {
  /** Words the element's name, text or attributes should carry (lower case, as typed). */
  words: string[];
  /** A quoted name (`"Save"`), or `""`. */
  exact: string;
  /** Roles the query asks for (any when empty). */
  roles: string[];
  /** Only elements of `roles` (the tool's `role` argument), not just a preference. */
  hard: boolean;
  /** Words of "in the …" / "under …": where the element sits. */
  context: string[];
  /** Words of "next to …" / "for …": what sits beside it. */
  near: string[];
  /** Every word of the query in order, prepositions kept ("Edit on GitHub" may be a name). */
  whole: string[];
  /**
   * What the frame's `<iframe>` elements (its own, then its parents') are called: their title,
   * name, aria-label; where every element of the frame sits ("in the payment widget").
   */
  frame?: string;
  /** The page-local id of the subtree to search (`contextRef`), or null for the document. */
  rootId: number | null;
  /** Elements the session was told about for this query (feedback): returned whenever present. */
  remember: FindRemember[];
  /** How many of the best items to return (plus remembered ones). */
  max: number;
  /**
   * An ordinal query's reach: the first and the last `ends` items as good as the best (within
   * 15%), in page order, are returned too, however many there are ("last Buy button" of 3000).
   */
  ends?: number;
}

/** An element `find_feedback` remembered, by its stable features. */
export interface FindRemember {
  role: string;
  name: string;
  /** Its test id (`data-testid` …) or `""`. */
  testId: string;
  /** Its `id` attribute or `""`. */
  idAttr: string;
  /** Its `contextOf`, kind and text joined by `\u0000` (tells same-named elements apart). */
  context: string;
}

/** One scored element of a frame (`findScan`). */
export interface FindItem {
  /** Page-local id (`idOf`). */
  id: number;
  /** `refRole`, as a ref records it. */
  role: string;
  /** The accessible name (`nameOf`), whole: the ref checks it. */
  name: string;
  /** 0..1 before the Deno side's ordinal and feedback adjustments. */
  score: number;
  /** The name, role and context parts (0..1; -1 when the query asks nothing of that part). */
  parts: [number, number, number];
  /**
   * Which field matched the words best (`name`, `text`, `placeholder`, `testid`, `class`, …;
   * `item "Walk dog"`: its row's text; `text "Walk dog"`: a plain text candidate's own text).
   */
  via: string;
  /** The context that matched, short (`toolbar "Editor"`, `heading "Orders"`), or `""`. */
  where: string;
  /** Not shown (display none, visibility hidden, aria-hidden, or inside such). */
  hidden: boolean;
  /** Disabled (native or `aria-disabled`). */
  disabled: boolean;
  /** Position in the frame's walk (flat-tree document order). */
  order: number;
  /** `contextOf` (the ref's fingerprint). */
  context: [string, string];
  /** Test id or `""`. */
  testId: string;
  /** `id` attribute or `""`. */
  idAttr: string;
  /** Index in `FindQuery.remember` of the entry it matches, or -1. */
  remembered: number;
  /**
   * A text edited in place, asked for with "edit" (opened by double-clicking the text): `field`,
   * its row holds a hidden field whose value is this text (a todo's label over its
   * `input.edit`); `row`, nothing in its row is a field or says "edit" (the field is made on
   * double-click).
   */
  editsInPlace?: "field" | "row";
  /**
   * The query's words naming an item that neither it nor anything around it mentions ("milk
   * frother" for Red Mug's Remove button); absent when none (or the query asks no words).
   */
  missing?: string[];
}

/** What `findScan` answers for one frame. */
export interface FindScan {
  /** The world's instance token (refs record it). */
  instance: string;
  /** The best items, best first (plus remembered ones). */
  items: FindItem[];
  /** How many elements were scored. */
  scanned: number;
  /** With `ends`: how many items are as good as the best (within 15%). */
  closeCount?: number;
}

/**
 * A `find` query's scorer (`findScorer`, find_score_lib.ts): stays in the page (it holds
 * elements). The walk of `findScan` hands it each candidate.
 */
export interface FindScorer {
  /** The query's words, tokenized. */
  words: string[];
  /** The quoted name, lower case, whitespace collapsed (`""`: none). */
  exact: string;
  /** The roles the query asks for. */
  roles: Set<string>;
  /** The matches so far, in the order they were scored. */
  items: FindItem[];
  /** Each item's element (by its index in `items`), and whether it sat in skipped content. */
  els: Map<number, [Element, boolean]>;
  /**
   * Scores `el` and adds it to `items` when it matches. `item`: the row or list item it sits
   * in (its text may name it); `shown`: a text candidate's text, matched by that alone;
   * `host`: the row or list item a text candidate sits in (a hidden field there may edit it).
   */
  score(
    el: Element,
    role: string,
    hidden: boolean,
    skip: boolean,
    item: Element | null,
    shown?: string,
    host?: Element | null,
  ): void;
  /**
   * The query's item words that the item at index `i` of `items` neither carries nor has around
   * it (`findMissing`); `twin`: another item has its role and name.
   */
  missing(i: number, twin: boolean): string[];
  /** The walk passed a shown heading: what follows sits in its section. */
  heading(el: Element): void;
  /** How many elements were scored. */
  scanned(): number;
}

/** A selector that designates one element now (`findHints`), and what the element is like. */
export interface FindHint {
  /** A selector our `selector` field accepts (CSS or `text="…"`), unique in the frame; `""` when none. */
  hint: string;
  /** `testid`, `id`, `role-name`, `text`, `class`, `path`, or `none`. */
  tier: string;
  /** `high` (test id, id), `medium` (role+name, text, class), `low` (path, none). */
  stability: string;
  /**
   * A control, focusable or clickable (not a paragraph matched by its words), shown, enabled,
   * not inert, and (when on screen) not covered at its center.
   */
  actionable: boolean;
  /** Its box intersects the frame's viewport. */
  inViewport: boolean;
  /**
   * Hidden until this ancestor (described) is hovered, by the page's `:hover` style rules: an
   * action hovers it first, so it counts as actionable.
   */
  onHover?: string;
}
