/// <reference lib="dom" />
/**
 * Page-side scroll boxes: inner scroll containers (an `overflow: auto` list, a virtual list
 * whose rows exist only in view) that hide content. A snapshot marks their lines
 * (`[scroll: 4% shown, more below]`), `find` and `text_search` name them when nothing
 * matches, and `scroll` on an element that cannot scroll moves the nearest one around it.
 * The page's own scroller (the window) is never one: the agent knows a page scrolls.
 *
 * Sent as source text: {@link installScrollBoxLib} must not use anything from its module
 * scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { ScrollBox } from "./text_types.ts";

/**
 * Adds to the utility api:
 * - `scrollMark(el): string`: ` [scroll: 4% shown, more below]` when `el` is a vertical scroll
 *   container (`overflow-y` auto, scroll or overlay) whose content is taller than its box, else
 *   `""`. Shown is clientHeight / scrollHeight (`<1%` below one percent); where the hidden
 *   content is: `more below`, `more above`, `more above+below`. Two layout reads, and a style
 *   read only for boxes that overflow.
 * - `scrollBoxOf(el, axis): Element | null`: `el` when it scrolls on `axis` (`x` or `y`), else
 *   its nearest ancestor (flat tree) that does; null when none does but the page's scroller.
 * - `scrollBoxes(max): { instance, boxes: ScrollBox[] }`: the document's marked scroll boxes
 *   whose content is far taller than their text (a virtual list: its rows are not all there)
 *   (at most `max`, shown ones, in document order, light DOM; content that
 *   `content-visibility: auto` skips is not entered; at most 100 ms) with what a ref records
 *   (`describe`), and this world's instance (refs record it).
 */
export function installScrollBoxLib(api: PageApi): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const SCROLLS = new Set(["auto", "scroll", "overlay"]);
  /** Longest `scrollBoxes` scan, ms. */
  const SCAN_MS = 100;
  /** Pixels of content per character of text above which a box's content is not all there. */
  const SPARSE_PX = 20;
  const { textContentOf } = api.dom;

  function isRoot(el: Element): boolean {
    return el === document.scrollingElement || el === document.documentElement ||
      el === document.body;
  }

  function scrolls(el: Element, axis: "x" | "y"): boolean {
    if (isRoot(el)) return false;
    const h = el as HTMLElement;
    const client = axis === "y" ? h.clientHeight : h.clientWidth;
    const size = axis === "y" ? h.scrollHeight : h.scrollWidth;
    if (!client || size <= client + 1) return false;
    const cs = getComputedStyle(el);
    return SCROLLS.has(axis === "y" ? cs.overflowY : cs.overflowX);
  }

  function scrollMark(el: Element): string {
    if (!scrolls(el, "y")) return "";
    const h = el as HTMLElement;
    const client = h.clientHeight, size = h.scrollHeight, top = h.scrollTop;
    const pct = (client / size) * 100;
    const above = top > 1, below = top + client < size - 1;
    const more = above && below ? "more above+below" : above ? "more above" : "more below";
    return ` [scroll: ${pct < 1 ? "<1" : Math.round(pct)}% shown, ${more}]`;
  }

  function scrollBoxOf(el: Element, axis: "x" | "y"): Element | null {
    for (let a: Element | null = el; a && !isRoot(a); a = flatParent(a)) {
      if (scrolls(a, axis)) return a;
    }
    return null;
  }

  // A `content-visibility: auto` box far from the viewport: Chromium skips its content, and
  // a layout read inside forces layout of the whole box (seconds over Node's all.html).
  function skipsContent(el: Element, cs: CSSStyleDeclaration): boolean {
    if (cs.contentVisibility !== "auto") return false;
    const r = el.getBoundingClientRect(), h = innerHeight, w = innerWidth;
    return r.bottom < -h || r.top > 2 * h || r.right < -w || r.left > 2 * w;
  }

  // Whether a box's content is far taller than its text: a virtual list's spacer (300,000 px
  // for 90 characters of rows), not a sidebar whose links are all there (a search saw them).
  function sparse(el: Element): boolean {
    const size = (el as HTMLElement).scrollHeight;
    return size > 0 && size / Math.max(1, textContentOf(el)?.length ?? 0) > SPARSE_PX;
  }

  function scrollBoxes(max: number): { instance: string; boxes: ScrollBox[] } {
    const describe = api.describe as Fn<[number], ScrollBox | null>;
    const idOf = api.idOf as Fn<[Element], number>;
    const out: ScrollBox[] = [];
    const stack: Element[] = document.body ? [...document.body.children].reverse() : [];
    // Asked only when a search found nothing: a bound keeps a huge page's answer quick.
    const until = performance.now() + SCAN_MS;
    for (let n = 0; stack.length && out.length < max; n++) {
      if (n % 1000 === 999 && performance.now() > until) break;
      const el = stack.pop()!;
      const cs = getComputedStyle(el);
      if (cs.display === "none" || skipsContent(el, cs)) continue;
      const mark = cs.visibility === "visible" && sparse(el) ? scrollMark(el) : "";
      const d = mark ? describe(idOf(el)) : null;
      if (d) out.push({ ...d, localId: idOf(el), mark: mark.slice(2, -1) });
      const kids = el.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    return { instance: api.instance as string, boxes: out };
  }

  api.scrollMark = scrollMark;
  api.scrollBoxOf = scrollBoxOf;
  api.scrollBoxes = scrollBoxes;
}
