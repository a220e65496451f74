/// <reference lib="dom" />
/**
 * Page-side pre-check of a link before its drawn words are held against its name
 * (`drawnText` of `drawn_text_lib.ts`, ~35 µs a control): a page of docs has thousands of
 * links, nearly all one text, which is its name whether drawn or hidden. Only a link that can
 * draw words its name does not say, or hide some of its name's words while drawing others, is
 * compared.
 *
 * Sent as source text: {@link installDrawnLinkLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds `linkMayLie(el: Element): boolean` to the utility api: whether the drawn words of link
 * `el` (its name read from its content) may be other than its name, so `drawnText` must
 * compare them. True when, in the flat tree under `el` (at most 200 nodes, more: true), there
 * are two texts with letters or digits or more, an element with `aria-hidden` or a `role`
 * (a `role=img` draws text its label replaces), or an element (`el` too) whose `::before` or
 * `::after` has string, `attr()` or counter content. Generated content is found by matching the
 * selectors of the document's style rules that give `content` to `::before`/`::after` (read
 * once per task, then dropped); an element in a shadow tree (or all, when a selector does not
 * parse) has its pseudo-elements' computed `content` read instead. Not found: generated text
 * from a style sheet of another origin (its rules cannot be read).
 */
export function installDrawnLinkLib(api: PageApi): void {
  const { localOf, nodeTypeOf, hasAttrOf, textContentOf, rootNodeOf, matchesOf } = api.dom;
  const childNodesOf = api.childNodesOf as (el: Element) => ArrayLike<Node>;
  const MAX_NODES = 200;
  const SKIP = new Set("script style template noscript".split(" "));
  // A `content` value that draws letters or digits (an escape may spell any).
  const TEXTUAL = /attr\(|counters?\(|var\(|["'][^"']*[\p{L}\p{N}\\]/u;
  // Read through the prototype: a page's `<form name=styleSheets>` shadows `document.styleSheets`.
  const sheetsOf = Object.getOwnPropertyDescriptor(Document.prototype, "styleSheets")!.get!;
  const adoptedOf = Object.getOwnPropertyDescriptor(Document.prototype, "adoptedStyleSheets")
    ?.get;

  // The task's selector of elements with textual generated content: "" none, null unknown.
  let generated: string | null | undefined;

  function scanRules(rules: CSSRuleList, out: string[]): void {
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      if (r instanceof CSSImportRule) {
        if (r.styleSheet) scanSheet(r.styleSheet, out);
        continue;
      }
      if (r instanceof CSSStyleRule) {
        const sel = r.selectorText;
        if (/:(?:before|after)\b/i.test(sel) && TEXTUAL.test(r.style.getPropertyValue("content"))) {
          // The element the pseudo-element belongs to: `.x::before` → `.x`; `::after` → `*`;
          // a nested `&::before` → `&` (every element: a nested rule's parent is not read).
          out.push(
            sel.split(",").map((s) => s.replace(/::?(?:before|after)\b/gi, "").trim() || "*")
              .join(","),
          );
        }
      }
      const kids = (r as CSSGroupingRule).cssRules;
      if (kids) scanRules(kids, out);
    }
  }

  function scanSheet(sheet: CSSStyleSheet, out: string[]): void {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      // Another origin's sheet: not read (reading every link's pseudo-elements instead costs a
      // quarter of comparing them all, and fs.html loads one, its fonts').
      return;
    }
    scanRules(rules, out);
  }

  function generatedSelector(): string | null {
    if (generated !== undefined) return generated;
    queueMicrotask(() => generated = undefined);
    const out: string[] = [];
    const sheets = [...sheetsOf.call(document), ...(adoptedOf?.call(document) ?? [])];
    for (const sheet of sheets) scanSheet(sheet as CSSStyleSheet, out);
    let sel: string | null = out.join(",");
    try {
      if (sel) matchesOf(document.documentElement, sel);
    } catch {
      sel = null; // a selector `matches` does not take
    }
    return generated = sel;
  }

  const textual = (e: Element, which: string) => TEXTUAL.test(getComputedStyle(e, which).content);

  api.linkMayLie = (el: Element): boolean => {
    const sel = generatedSelector();
    let nodes = 0;
    let texts = 0;
    const visit = (e: Element): boolean => {
      if (++nodes > MAX_NODES) return true;
      if (SKIP.has(localOf(e))) return false;
      if (e !== el && (hasAttrOf(e, "aria-hidden") || hasAttrOf(e, "role"))) return true;
      if (sel === null || rootNodeOf(e) !== document) {
        if (textual(e, "::before") || textual(e, "::after")) return true;
      } else if (sel && matchesOf(e, sel)) return true;
      const kids = childNodesOf(e);
      for (let i = 0; i < kids.length; i++) {
        const n = kids[i]!;
        const type = nodeTypeOf(n);
        if (type === 1 && visit(n as Element)) return true;
        if (type === 3 && /[\p{L}\p{N}]/u.test(textContentOf(n) ?? "") && ++texts > 1) return true;
      }
      return false;
    };
    return visit(el);
  };
}
