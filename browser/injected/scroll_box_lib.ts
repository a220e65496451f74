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
 *   (at most `max`, shown ones, in document order) with what a ref records (`describe`), and
 *   this world's instance (refs record it).
 */
export function installScrollBoxLib(api: PageApi): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const SCROLLS = new Set(["auto", "scroll", "overlay"]);

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

  function scrollBoxes(max: number): { instance: string; boxes: ScrollBox[] } {
    const describe = api.describe as Fn<[number], ScrollBox | null>;
    const idOf = api.idOf as Fn<[Element], number>;
    const out: ScrollBox[] = [];
    for (const el of document.body?.querySelectorAll("*") ?? []) {
      if (out.length >= max) break;
      const mark = scrollMark(el);
      if (!mark || !el.checkVisibility()) continue;
      const localId = idOf(el);
      const d = describe(localId);
      if (d) out.push({ ...d, role: d.role || "generic", localId, mark: mark.slice(2, -1) });
    }
    return { instance: api.instance as string, boxes: out };
  }

  api.scrollMark = scrollMark;
  api.scrollBoxOf = scrollBoxOf;
  api.scrollBoxes = scrollBoxes;
}
