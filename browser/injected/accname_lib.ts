/// <reference lib="dom" />
/**
 * Page-side accessible names (accname 1.2 as Chromium computes them):
 * `aria-labelledby`, `aria-label`, native labels (`<label>` of form controls
 * and buttons, `alt`, `value`, `<legend>`, `<caption>`, `title`,
 * `placeholder`), name from content with embedded controls' values, hidden
 * content left out. Needs the helpers of `aria_lib.ts` on the api.
 *
 * Sent as source text: {@link installAccnameLib} must not use anything from
 * its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `nameOf(el: Element): string`: the accessible name, whitespace collapsed.
 * - `nameFromContent(el: Element, role: string): boolean`: true when the
 *   name of `el` is (or would be) computed from its content, so a snapshot
 *   need not repeat that content as text.
 * - `cacheLabels(on: boolean)`: while on, label lookups use one map of the
 *   document's labels built at that moment (call with false when done).
 *
 * Not applied (differences from Chromium): CSS `text-transform` and
 * generated content (`::before`/`::after`).
 *
 * Deliberate difference: a secret field (`isSecret` of `aria_lib.ts`: a
 * password, a CSS-masked or `autocomplete=current-password` field) embedded
 * in a name (a label's content, an `aria-labelledby` target) contributes a
 * fixed `••••` (nothing when empty), never its value. Chromium contributes
 * one bullet per character for a password and the plain value for the others.
 */
export function installAccnameLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, textContentOf, rootNodeOf, childrenOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const hiddenForAria = api.hiddenForAria as Fn<[Element], boolean>;
  const isInline = api.isInline as Fn<[Element, string?], boolean>;
  const childNodesOf = api.childNodesOf as Fn<[Element], ArrayLike<Node>>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const maskSecret = api.maskSecret as Fn<[string], string>;
  // Roles whose name comes from their content (accname 1.2 §4.3.2 / Chromium).
  const FROM_CONTENT = new Set(
    ("button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox " +
      "menuitemradio option radio row rowheader switch tab tooltip treeitem term").split(" "),
  );
  const EMBEDDED = new Set(["input", "select", "textarea"]);

  // `el.labels` scans the whole tree scope on its first call per control (about 0.2 ms per
  // control on a 4,500-element page), so a snapshot maps every label of the document once.
  let labelMap: Map<Element, HTMLLabelElement[]> | null = null;

  function labelsOf(el: Element): Iterable<HTMLLabelElement> & { length: number } | null {
    if (labelMap && rootNodeOf(el) === document) return labelMap.get(el) ?? null;
    return (el as HTMLInputElement).labels;
  }

  function cacheLabels(on: boolean) {
    labelMap = null;
    if (!on) return;
    const map = new Map<Element, HTMLLabelElement[]>();
    for (const l of document.querySelectorAll("label")) {
      const c = l.control;
      if (!c) continue;
      const list = map.get(c);
      if (list) list.push(l);
      else map.set(c, [l]);
    }
    labelMap = map;
  }

  function idRefs(el: Element, attr: string): Element[] {
    const v = attrOf(el, attr);
    if (!v) return [];
    const root = rootNodeOf(el) as Document | ShadowRoot;
    const out: Element[] = [];
    for (const id of v.trim().split(/\s+/)) {
      const r = root.getElementById ? root.getElementById(id) : null;
      if (r) out.push(r);
    }
    return out;
  }

  // Value of an embedded control when it is part of another element's name (accname 2C/2E).
  // A secret field's value never is: it contributes a fixed mask.
  function embeddedValue(el: Element, role: string): string | null {
    if (
      (EMBEDDED.has(localOf(el)) || hasAttrOf(el, "contenteditable")) && isSecret(el)
    ) {
      return maskSecret(
        "value" in el ? String((el as HTMLInputElement).value) : textContentOf(el) ?? "",
      );
    }
    switch (role) {
      case "textbox":
      case "searchbox":
        return "value" in el ? String((el as HTMLInputElement).value) : textContentOf(el) ?? "";
      case "combobox":
      case "listbox": {
        if (localOf(el) === "select") {
          return [...(el as HTMLSelectElement).selectedOptions].map((o) => o.text).join(" ");
        }
        if (localOf(el) === "input") return (el as HTMLInputElement).value;
        return null;
      }
      case "slider":
      case "spinbutton":
      case "progressbar":
      case "meter":
        return attrOf(el, "aria-valuetext") ?? attrOf(el, "aria-valuenow") ??
          ("value" in el ? String((el as HTMLInputElement).value) : "");
      default:
        return null;
    }
  }

  function labelText(el: Element): string {
    const labels = labelsOf(el);
    if (!labels || !labels.length) return "";
    const parts: string[] = [];
    for (const l of labels) parts.push(contentText(l, el, false, false));
    return parts.join(" ").trim();
  }

  function nativeName(el: Element, skip: Element | null, traversal: boolean): string {
    const tag = localOf(el);
    // A `<button>` is labelable too: its labels come before its content (as in Chromium).
    if (tag === "button") return traversal ? "" : labelText(el);
    if (
      tag === "input" || tag === "textarea" || tag === "select" || tag === "meter" ||
      tag === "progress" || tag === "output"
    ) {
      const type = tag === "input" ? (attrOf(el, "type") || "text").toLowerCase() : "";
      if (type === "submit" || type === "reset" || type === "button") {
        const v = attrOf(el, "value");
        if (v !== null) return v;
        return type === "submit" ? "Submit" : type === "reset" ? "Reset" : "";
      }
      // Labels only for the element being named: inside a label's content a control
      // contributes its value instead (and label → control → label would loop).
      const fromLabels = traversal ? "" : labelText(el);
      if (fromLabels) return fromLabels;
      if (type === "image") {
        return attrOf(el, "alt") || attrOf(el, "value") || attrOf(el, "title") ||
          "Submit";
      }
      const title = attrOf(el, "title");
      if (title) return title;
      const ph = attrOf(el, "placeholder") || attrOf(el, "aria-placeholder");
      return ph ?? "";
    }
    if (tag === "img" || tag === "area") return attrOf(el, "alt") ?? "";
    if (tag === "fieldset") {
      const legend = [...childrenOf(el)].find((c) => localOf(c) === "legend");
      return legend ? contentText(legend, skip, false, false) : "";
    }
    if (tag === "table") {
      const cap = (el as HTMLTableElement).caption;
      return cap ? contentText(cap, skip, false, false) : "";
    }
    if (tag === "svg") {
      const t = [...childrenOf(el)].find((c) => localOf(c) === "title");
      return t?.textContent ?? "";
    }
    if (tag === "optgroup") return attrOf(el, "label") ?? "";
    if (tag === "option" && hasAttrOf(el, "label")) return attrOf(el, "label") ?? "";
    return "";
  }

  // Text of an element's subtree for name-from-content (accname 2F–2H). Hidden
  // descendants count only inside a hidden aria-labelledby target (accname 2A).
  function contentText(
    el: Element,
    skip: Element | null,
    inLabelledBy: boolean,
    includeHidden: boolean,
  ): string {
    let s = "";
    const kids = childNodesOf(el);
    for (let i = 0; i < kids.length; i++) {
      const n = kids[i]!;
      if (nodeTypeOf(n) === 3) {
        s += (n as Text).data;
        continue;
      }
      if (nodeTypeOf(n) !== 1) continue;
      const c = n as Element;
      if (c === skip) continue;
      const tag = localOf(c);
      if (tag === "script" || tag === "style" || tag === "template" || tag === "noscript") {
        continue;
      }
      if (tag === "br") {
        s += " ";
        continue;
      }
      if (tag !== "slot" && !includeHidden && hiddenForAria(c)) continue;
      const part = computeName(c, skip, inLabelledBy, includeHidden, true);
      // Chromium separates block boxes (flex and grid items too), inline-blocks and embedded
      // controls' values with spaces.
      s += isInline(c, "name") && !EMBEDDED.has(localOf(c)) ? part : ` ${part} `;
    }
    return s;
  }

  function computeName(
    el: Element,
    skip: Element | null,
    inLabelledBy: boolean,
    includeHidden: boolean,
    traversal: boolean,
  ): string {
    if (!inLabelledBy) {
      const refs = idRefs(el, "aria-labelledby");
      if (refs.length) {
        const s = refs.map((r) => computeName(r, skip, true, hiddenForAria(r), true)).join(" ")
          .trim();
        if (s) return s;
      }
    }
    const role = roleOf(el);
    if (traversal) {
      const v = embeddedValue(el, role);
      if (v !== null) return v;
    }
    const label = attrOf(el, "aria-label");
    if (label && label.trim()) return label;
    const native = nativeName(el, skip, traversal);
    if (native.trim()) return native;
    if (
      traversal || FROM_CONTENT.has(role) || localOf(el) === "summary" ||
      localOf(el) === "label" || localOf(el) === "legend" || localOf(el) === "caption"
    ) {
      if (localOf(el) !== "svg" && localOf(el) !== "select" && localOf(el) !== "textarea") {
        const s = contentText(el, skip, inLabelledBy, includeHidden);
        if (s.trim()) return s;
      }
    }
    return attrOf(el, "title") ?? "";
  }

  function norm(s: string): string {
    return s.replace(/\s+/g, " ").trim();
  }

  api.nameOf = (el: Element) => norm(computeName(el, null, false, false, false));
  api.nameFromContent = (el: Element, role: string) =>
    FROM_CONTENT.has(role) && !hasAttrOf(el, "aria-label") &&
    !hasAttrOf(el, "aria-labelledby") && localOf(el) !== "input" &&
    !(localOf(el) === "button" && labelsOf(el)?.length);
  api.cacheLabels = cacheLabels;
  api.idRefs = idRefs;
}
