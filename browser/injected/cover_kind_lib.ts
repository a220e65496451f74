/// <reference lib="dom" />
/**
 * Page-side: what kind of cover takes a click meant for an element, when its description alone
 * would mislead (`CoverFacts`): the element's own card's stretched link (a link whose box or
 * `::before`/`::after` spans the card: a person's click lands on it too), a fixed or sticky box
 * (a header that stays on screen as the page scrolls), or a layer that paints nothing and is no
 * control, yet takes the pointer. Asked only once a hit test found the
 * element covered (an on-demand part: the acting part every click sends stays small).
 *
 * Sent as source text: {@link installCoverKindLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { CoverFacts } from "./page_types.ts";

/** Adds `coverKind(el, x, y) → CoverFacts | null` to the utility api. */
export function installCoverKindLib(api: PageApi): void {
  const { localOf, parentElOf, rectOf, closestOf, textContentOf, qsOf } = api.dom;
  const describe = api.describeElement as (el: Element) => string;
  // hit_lib.ts's (the acting group this part needs).
  const composedContains = api.composedContains as (root: Element, node: Element | null) => boolean;
  const deepElementFromPoint = api.deepElementFromPoint as (x: number, y: number) => Element | null;
  const LINKISH = "a[href], button, [role=link], [role=button], [onclick]";
  const clear = (c: string) => c === "transparent" || /^rgba\(.*,\s*0\)$/.test(c);
  const positioned = (p: string) => p === "absolute" || p === "fixed";

  /** Draws nothing: opacity 0 (itself or above), or a bare box with no text or image. */
  const paintsNothing = (c: Element): boolean => {
    for (let n: Element | null = c; n; n = parentElOf(n)) {
      if (getComputedStyle(n).opacity === "0") return true;
    }
    if (!["div", "span", "section", "main", "aside"].includes(localOf(c))) return false;
    const s = getComputedStyle(c);
    const v = (p: string) => s.getPropertyValue(p);
    if (!clear(v("background-color")) || v("background-image") !== "none") return false;
    if (v("box-shadow") !== "none" || (v("backdrop-filter") || "none") !== "none") return false;
    for (const side of ["top", "right", "bottom", "left"]) {
      const w = parseFloat(v(`border-${side}-width`)) || 0;
      if (w > 0 && v(`border-${side}-style`) !== "none" && !clear(v(`border-${side}-color`))) {
        return false;
      }
    }
    return !(textContentOf(c) ?? "").trim() &&
      !qsOf(c, "img, svg, canvas, video, iframe, input, select, textarea, button");
  };

  /** The stretched link of `el`'s card when `link` is one at (x, y). */
  const stretched = (el: Element, link: Element, x: number, y: number): CoverFacts | null => {
    let card = parentElOf(link);
    while (card && !composedContains(card, el)) card = parentElOf(card);
    if (!card || card === document.body || card === document.documentElement) return null;
    const r = rectOf(link);
    const inside = x >= r.left && x < r.right && y >= r.top && y < r.bottom;
    let pseudo: string | undefined;
    // Outside the link's own box: a pseudo-element of it took the point.
    for (const p of inside ? [] : ["::after", "::before"]) {
      const ps = getComputedStyle(link, p);
      if (ps.content !== "none" && ps.content !== "normal" && positioned(ps.position)) {
        pseudo = p;
        break;
      }
    }
    const e = rectOf(el);
    const spans = inside && positioned(getComputedStyle(link).position) &&
      r.left <= e.left + 1 && r.top <= e.top + 1 && r.right >= e.right - 1 &&
      r.bottom >= e.bottom - 1;
    if (!pseudo && !spans) return null;
    return {
      kind: "stretched",
      link: describe(link),
      card: describe(card),
      ...(pseudo ? { pseudo } : {}),
      id: api.idOf(link),
      inst: api.instance,
    };
  };

  api.coverKind = (el: Element, x: number, y: number): CoverFacts | null => {
    const hit = deepElementFromPoint(x, y);
    if (!hit || composedContains(el, hit)) return null;
    const link = closestOf(hit, LINKISH);
    // Only a link is a card's stretched link: a button laid over the element (moved there on
    // hover, say) is not to be clicked "to follow the link".
    const real = link && closestOf(hit, "a[href], [role=link]");
    if (real && !composedContains(real, el)) {
      const s = stretched(el, real, x, y);
      if (s) return s;
    }
    // A sticky header or fixed banner (its links too): it stays on screen as the page scrolls.
    const pinned = api.pinnedCoverAt(el, x, y);
    if (pinned) {
      return {
        kind: "pinned",
        position: pinned.position,
        id: api.idOf(pinned.el),
        inst: api.instance,
      };
    }
    if (link || api.clickHandler(hit) || !paintsNothing(hit)) return null;
    return { kind: "transparent", id: api.idOf(hit), inst: api.instance };
  };
}
