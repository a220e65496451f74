/// <reference lib="dom" />
/**
 * Page-side scrolling into view and clip checks: which ancestors clip an element, scrolling it
 * into view (`scrollIntoViewIfNeeded`, clear of a pinned header or banner) and why a point
 * does not show it (`clipAt`). Installed in browxai's isolated world after `action_lib.ts`
 * (it uses `describeElement`).
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/** Adds `scrollIntoViewIfNeeded` and `clipAt` to the utility api. */
export function installScrollIntoLib(api: PageApi): void {
  const { rectOf, scrollIntoViewOf, scrollByOf } = api.dom;
  const describeEl = (el: Element): string => api.describeElement(el);
  const flatParent = (n: Node): Element | null =>
    (api.flatParent as (n: Node) => Element | null)(n);

  /** The visible box of an element whose overflow clips its content (client area), viewport px. */
  const clipBox = (a: Element) => {
    const r = rectOf(a);
    const left = r.left + a.clientLeft, top = r.top + a.clientTop;
    return { left, top, right: left + a.clientWidth, bottom: top + a.clientHeight };
  };
  const clipsX = (cs: CSSStyleDeclaration) => cs.overflowX !== "visible";
  const clipsY = (cs: CSSStyleDeclaration) => cs.overflowY !== "visible";

  /**
   * The ancestors that may clip `el` (flat tree), with their computed style: an absolutely
   * or fixed positioned box escapes the overflow of ancestors below its containing block.
   */
  const clippers = function* (el: Element): Generator<[Element, CSSStyleDeclaration]> {
    let escape = getComputedStyle(el).position;
    for (let a = flatParent(el); a && a !== document.documentElement; a = flatParent(a)) {
      const cs = getComputedStyle(a);
      const block = cs.transform !== "none" || cs.filter !== "none" || cs.contain !== "none";
      if (escape === "fixed" && !block) continue;
      if (escape === "absolute" && cs.position === "static" && !block) continue;
      escape = cs.position;
      yield [a, cs];
    }
  };

  type Align = "center" | "start" | "end";
  /** The scroll that puts [lo, hi] (the element on one axis) at `align` of [min, max]; 0 under 1 px. */
  const shift = (lo: number, hi: number, min: number, max: number, align: Align) => {
    const d = align === "start"
      ? lo - min
      : align === "end"
      ? hi - max
      : (lo + hi) / 2 - (min + max) / 2;
    return Math.abs(d) < 1 ? 0 : d;
  };

  /**
   * Scrolls `el` into view one scroller at a time, innermost first: an ancestor that clips it
   * only when the element's center (the action point) lies outside its visible box, then
   * centered there; the frame's viewport only when the element is not wholly inside it, then
   * centered, or always to `block` when given (clearing a pinned cover). A scroll box that
   * shows it already is left as it is: a virtual list re-renders its rows on its own scroll,
   * the element with them (a new user's every click on a fully shown row of one failed so, as
   * `scrollIntoView` centered it in the list too). Returns whether it scrolled anything.
   */
  const reveal = (el: Element, block?: Align): boolean => {
    let moved = false;
    for (const [a, cs] of [...clippers(el)]) {
      const r = rectOf(el), b = clipBox(a);
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      const dx = clipsX(cs) && (cx < b.left || cx >= b.right)
        ? shift(r.left, r.right, b.left, b.right, "center")
        : 0;
      const dy = clipsY(cs) && (cy < b.top || cy >= b.bottom)
        ? shift(r.top, r.bottom, b.top, b.bottom, "center")
        : 0;
      if (!dx && !dy) continue;
      scrollByOf(a, { left: dx, top: dy, behavior: "instant" });
      moved = true;
    }
    const r = rectOf(el);
    const vw = innerWidth, vh = innerHeight;
    const dx = r.left < 0 || r.right > vw ? shift(r.left, r.right, 0, vw, "center") : 0;
    const dy = block
      ? shift(r.top, r.bottom, 0, vh, block)
      : r.top < 0 || r.bottom > vh
      ? shift(r.top, r.bottom, 0, vh, "center")
      : 0;
    if (dx || dy) {
      scrollBy({ left: dx, top: dy, behavior: "instant" });
      moved = true;
    }
    return moved;
  };

  /**
   * When a fixed or sticky box covers the element's center (`pinnedCoverAt`), scrolls the view
   * to put it at the view's center, then its end, then its start, until the center is clear;
   * then (a sticky header inside a scroll box) every scroller on the way likewise; left
   * centered when none is clear. Returns whether it scrolled.
   */
  const clearOfPinned = (el: Element): boolean => {
    const pinned = api.pinnedCoverAt as PageApi["pinnedCoverAt"] | undefined;
    const at = () => {
      const r = rectOf(el);
      return pinned?.(el, r.left + r.width / 2, r.top + r.height / 2) ?? null;
    };
    if (!at()) return false;
    const blocks = ["center", "end", "start"] as const;
    for (const block of blocks) {
      reveal(el, block);
      if (!at()) return true;
    }
    for (const block of blocks) {
      scrollIntoViewOf(el, { block, inline: "nearest", behavior: "instant" });
      if (!at()) return true;
    }
    scrollIntoViewOf(el, { block: "center", inline: "nearest", behavior: "instant" });
    return true;
  };

  /**
   * Scrolls the element into view when it is not fully inside the viewport, or when its
   * center (the action point) is outside the visible box of an ancestor that clips it (a
   * scroll container inside the page: its box may be on screen while the element sits in its
   * scrolled-away part): only the scrollers that do not show it ({@link reveal}),
   * `overflow: hidden` ones too. `inSubframe`: then the frames above just enough to show it.
   * In the main frame, an element inside the view whose center a sticky header or fixed
   * banner covers is scrolled clear of it ({@link clearOfPinned}). Returns whether it scrolled.
   */
  api.scrollIntoViewIfNeeded = (el: Element, inSubframe?: boolean) => {
    const r = rectOf(el);
    const vw = innerWidth, vh = innerHeight;
    let inside = r.top >= 0 && r.left >= 0 && r.bottom <= vh && r.right <= vw;
    if (inside) {
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      for (const [a, cs] of clippers(el)) {
        const b = clipBox(a);
        const outX = clipsX(cs) && (cx < b.left || cx >= b.right);
        const outY = clipsY(cs) && (cy < b.top || cy >= b.bottom);
        if (outX || outY) {
          inside = false;
          break;
        }
      }
    }
    // Inside the view but under a sticky header (a fixed banner): a person scrolls a bit more.
    if (inside && !inSubframe && clearOfPinned(el)) return true;
    const moved = !inside && reveal(el);
    // In a subframe, the frames above just enough to show it (a frame below the fold); the
    // frame's own scrollers show it now.
    if (inSubframe) {
      scrollIntoViewOf(el, { block: "nearest", inline: "nearest", behavior: "instant" });
    }
    return moved;
  };

  /**
   * Why (x, y) (frame CSS px) does not show `el` when an ancestor clips it there: the point
   * lies outside the visible box of an ancestor whose overflow is not visible (or that box is
   * empty), or `el` or an ancestor has a `clip-path`. Undefined when no clip explains it.
   */
  api.clipAt = (el: Element, x: number, y: number) => {
    const path = getComputedStyle(el).clipPath;
    if (path && path !== "none") return { clippedBy: describeEl(el), how: "clip-path" };
    for (const [a, cs] of clippers(el)) {
      if (cs.clipPath && cs.clipPath !== "none") {
        return { clippedBy: describeEl(a), how: "clip-path" };
      }
      if (!clipsX(cs) && !clipsY(cs)) continue;
      const b = clipBox(a);
      if ((clipsX(cs) && b.right <= b.left) || (clipsY(cs) && b.bottom <= b.top)) {
        return { clippedBy: describeEl(a), how: "zero-size" };
      }
      const outX = clipsX(cs) && (x < b.left || x >= b.right);
      const outY = clipsY(cs) && (y < b.top || y >= b.bottom);
      if (outX || outY) {
        const overflow = outX ? cs.overflowX : cs.overflowY;
        return { clippedBy: describeEl(a), how: `overflow: ${overflow}` };
      }
    }
    return undefined;
  };
}
