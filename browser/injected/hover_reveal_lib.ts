/// <reference lib="dom" />
/**
 * Page-side: whether a hidden element shows on hover of an ancestor (a todo's delete button
 * under `li:hover .destroy { display: block }`), and where to put the pointer to show it.
 * Read from the page's own style sheets, not tried: nothing is moved or changed to find out.
 *
 * Sent as source text: {@link installHoverRevealLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

type HoverReveal = NonNullable<ReturnType<PageApi["hoverReveal"]>>;

/**
 * Adds `hoverTextMatch(selector) → Element | null` to the utility api: the hidden element
 * holding a `text=` selector's text (`hiddenTextHolder`) when `hoverReveal` would show it (a
 * CSS-only menu's item under `.menu:hover ul { display: block }`), else null; and
 * `hoverReveal(el) → HoverReveal | null`: for an element hidden only by
 * `display: none` (on itself or ancestors) or `visibility: hidden` that a `:hover` rule of the
 * document's style sheets (same-origin ones, in matching media and supports rules) undoes when
 * a shown ancestor is hovered, that ancestor's description and a point on it (frame CSS px) that
 * hits it or something inside it, scrolled into view; `hoverHostOf(el) → string | null`: that
 * ancestor's description alone, nothing scrolled. `null` when the element is hidden for any
 * other reason (a closed `<details>`, `content-visibility`, a zero-size box, a script's hover
 * handler), or when a hider has no such rule: then nothing a pointer does is known to show it.
 */
export function installHoverRevealLib(api: PageApi): void {
  const { nodeTypeOf, shadowRootOf, visibleEl, rectOf, matchesOf, rootNodeOf } = api.dom;
  const { containsOf, closestOf } = api.dom;
  const flatParent = api.flatParent as (n: Node) => Element | null;
  const describe = api.describeElement as (el: Element) => string;

  /** The style rules of the document's sheets that apply now, nested groups included. */
  function* styleRules(list: CSSRuleList): Generator<CSSStyleRule> {
    for (const r of Array.from(list)) {
      if (r instanceof CSSStyleRule) yield r;
      else if (r instanceof CSSMediaRule) {
        if (matchMedia(r.media.mediaText).matches) yield* styleRules(r.cssRules);
      } else if (r instanceof CSSSupportsRule || r instanceof CSSLayerBlockRule) {
        if (!(r instanceof CSSSupportsRule) || CSS.supports(r.conditionText)) {
          yield* styleRules(r.cssRules);
        }
      }
    }
  }

  function sheetsOf(el: Element): CSSStyleSheet[] {
    const root = rootNodeOf(el) as Document | ShadowRoot;
    const out: CSSStyleSheet[] = [];
    for (const r of new Set([root, document])) {
      out.push(...Array.from(r.styleSheets), ...(r.adoptedStyleSheets ?? []));
    }
    return out;
  }

  /**
   * `selector` up to the end of its last compound with `:hover` ("#list li:hover .x" →
   * "#list li:hover"), or "" when `:hover` is only inside a functional pseudo-class.
   */
  function hoverPrefix(selector: string): string {
    let depth = 0, at = -1;
    for (let i = 0; i < selector.length; i++) {
      const c = selector[i]!;
      if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      else if (depth === 0 && selector.startsWith(":hover", i)) at = i + 6;
      else if (at >= 0 && depth === 0 && /[\s>+~]/.test(c)) return selector.slice(0, i);
    }
    return at >= 0 ? selector : "";
  }

  const reveals = (style: CSSStyleDeclaration, how: "display" | "visibility") =>
    how === "display"
      ? !!style.display && style.display !== "none"
      : style.visibility === "visible";

  /** The ancestors (or self) a `:hover` rule undoing `hider`'s `how` asks to be hovered. */
  function hoverTargets(hider: Element, how: "display" | "visibility", rules: CSSStyleRule[]) {
    const out: Element[] = [];
    for (const rule of rules) {
      if (!reveals(rule.style, how)) continue;
      for (const sel of rule.selectorText.split(/,(?![^(]*\))/)) {
        const prefix = hoverPrefix(sel);
        if (!prefix) continue;
        try {
          if (!matchesOf(hider, sel.replace(/:hover\b/g, ""))) continue;
          // Only an ancestor: a hidden element cannot be hovered itself.
          const up = flatParent(hider);
          const target = up && closestOf(up, prefix.replace(/:hover\b/g, ""));
          if (target) out.push(target);
        } catch {
          // A selector this engine does not take apart: not ours to read.
        }
      }
    }
    return out;
  }

  /** Frame px of a point on `target` that hits it (or inside it), or null. */
  function pointOn(target: Element): { x: number; y: number } | null {
    let r = rectOf(target);
    if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) {
      target.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
      r = rectOf(target);
    }
    const y = r.top + r.height / 2;
    for (const f of [0.5, 0.25, 0.1, 0.75]) {
      const x = r.left + r.width * f;
      let hit = document.elementFromPoint(x, y);
      while (hit && shadowRootOf(hit)) {
        const inner = shadowRootOf(hit)!.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      for (let n: Element | null = hit; n; n = flatParent(n)) {
        if (n === target) return { x, y };
      }
    }
    return null;
  }

  /** The shown ancestor whose hover shows `el` (see the module doc), or null. */
  function hoverHost(el: Element): Element | null {
    if (!el.isConnected || visibleEl(el, { visibilityProperty: true })) return null;
    // What hides it: each display:none box from it up, or where visibility:hidden was set.
    const hiders: Array<[Element, "display" | "visibility"]> = [];
    for (let a: Element | null = el; a && nodeTypeOf(a) === 1; a = flatParent(a)) {
      const cs = getComputedStyle(a);
      if (cs.display === "none") hiders.push([a, "display"]);
      else if (cs.visibility === "hidden") {
        const up = flatParent(a);
        if (!up || nodeTypeOf(up) !== 1 || getComputedStyle(up).visibility !== "hidden") {
          hiders.push([a, "visibility"]);
        }
      }
    }
    if (!hiders.length) return null;
    const rules: CSSStyleRule[] = [];
    for (const sheet of sheetsOf(el)) {
      try {
        for (const r of styleRules(sheet.cssRules)) {
          if (r.selectorText.includes(":hover")) rules.push(r);
        }
      } catch {
        // A cross-origin sheet cannot be read.
      }
    }
    // Every hider needs a hovered ancestor; hovering the deepest of them hovers the others.
    let deepest: Element | null = null;
    const wanted: Element[][] = [];
    for (const [hider, how] of hiders) {
      const targets = hoverTargets(hider, how, rules).filter((t) =>
        visibleEl(t, { visibilityProperty: true })
      );
      if (!targets.length) return null;
      wanted.push(targets);
      for (const t of targets) if (!deepest || containsOf(deepest, t)) deepest = t;
    }
    if (!deepest || !wanted.every((ts) => ts.some((t) => containsOf(t, deepest)))) return null;
    return deepest;
  }

  api.hoverReveal = (el: Element): HoverReveal | null => {
    const host = hoverHost(el);
    const point = host && pointOn(host);
    return point ? { ...point, what: describe(host) } : null;
  };
  // Read only (no scroll): what `find` says of a control shown on hover.
  api.hoverHostOf = (el: Element): string | null => {
    const host = hoverHost(el);
    return host ? describe(host) : null;
  };
  api.hoverTextMatch = (selector: string): Element | null => {
    const holder = (api.hiddenTextHolder as (s: string) => Element | null)(selector);
    return holder && hoverHost(holder) ? holder : null;
  };
}
