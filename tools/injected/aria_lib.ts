/// <reference lib="dom" />
/**
 * Page-side ARIA helpers: implicit roles (WAI-ARIA in HTML / html-aam) and
 * accessible names (accname 1.2), computed from the DOM in browxai's
 * isolated world. Chromium's own accessibility tree is the oracle the tests
 * hold these against (`tests/snapshot_test.ts`); the deliberate differences
 * are listed on {@link installAriaLib}.
 *
 * Like every injected part, {@link installAriaLib} is sent as source text:
 * it must not use anything from its module scope.
 *
 * @module
 */

/**
 * Adds to the utility api:
 * - `roleOf(el: Element): string`: the ARIA role, or `""` for generic /
 *   presentational elements that carry no role of their own.
 * - `nameOf(el: Element): string`: the accessible name, whitespace collapsed.
 * - `nameFromContent(el: Element, role: string): boolean`: true when the
 *   name of `el` is (or would be) computed from its content, so a snapshot
 *   need not repeat that content as text.
 * - `hiddenForAria(el: Element): boolean`: cheap hidden test
 *   (`aria-hidden`, `display:none` subtree, `visibility:hidden`).
 * - `isInline(el: Element): boolean`: phrasing-level by tag name (no style
 *   lookup), used to join text runs.
 * - `childNodesOf(el: Element): ArrayLike<Node>`: children in the flat tree
 *   (an open shadow root's children, a slot's assigned nodes).
 * - `staticHidden(el)`: hidden by static signals only (`hidden`, inline `display:none`);
 *   `setStaticOnly(on)` makes `hiddenForAria` use only those (see the walker).
 * - `cacheLabels(on: boolean)`: while on, label lookups use one map of the
 *   document's labels built at that moment (call with false when done).
 *
 * Deliberate differences from Chromium's tree (kept because they read
 * better for an agent, and documented in the oracle test):
 * `<summary>` is `button` (Chromium: `DisclosureTriangle`); date, time and
 * color inputs are `textbox` (Chromium: `Date`, `DateTime`, `InputTime`,
 * `ColorWell`); a contenteditable root is `textbox` (Chromium: `generic`);
 * `<img>` is `img` (Chromium: `image`). CSS `text-transform` and generated
 * content (`::before`) are not applied to names.
 */
export function installAriaLib(api: Record<string, unknown>): void {
  const ROLES = new Set(
    ("alert alertdialog application article banner blockquote button caption cell checkbox " +
      "code columnheader combobox complementary contentinfo definition deletion dialog " +
      "directory document emphasis feed figure form generic grid gridcell group heading img " +
      "image insertion link list listbox listitem log main mark marquee math menu menubar " +
      "menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph " +
      "presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar " +
      "search searchbox separator slider spinbutton status strong subscript superscript " +
      "switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree " +
      "treegrid treeitem").split(" "),
  );
  // Roles whose name comes from their content (accname 1.2 §4.3.2 / Chromium).
  const FROM_CONTENT = new Set(
    ("button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox " +
      "menuitemradio option radio row rowheader switch tab tooltip treeitem term").split(" "),
  );
  const INLINE = new Set(
    ("a abbr b bdi bdo cite code data del dfn em font i img input ins kbd label mark q s samp " +
      "small span strong sub sup time tt u var wbr button select textarea output meter " +
      "progress big nobr acronym").split(" "),
  );
  const EMBEDDED = new Set(["input", "select", "textarea"]);
  const INPUT_ROLES: Record<string, string> = {
    button: "button",
    submit: "button",
    reset: "button",
    image: "button",
    file: "button",
    checkbox: "checkbox",
    radio: "radio",
    range: "slider",
    number: "spinbutton",
    search: "searchbox",
    hidden: "",
  };
  const LANDMARK_SCOPE = "article,aside,main,nav,section";

  function inputRole(el: HTMLInputElement): string {
    const type = (el.getAttribute("type") || "text").toLowerCase();
    const known = INPUT_ROLES[type];
    if (known !== undefined) return known;
    if (
      el.hasAttribute("list") && (type === "text" || type === "email" || type === "tel" ||
        type === "url")
    ) return "combobox";
    return "textbox";
  }

  function implicitRole(el: Element): string {
    const tag = el.localName;
    switch (tag) {
      case "a":
      case "area":
        return el.hasAttribute("href") ? "link" : "";
      case "button":
        return "button";
      case "input":
        return inputRole(el as HTMLInputElement);
      case "textarea":
        return "textbox";
      case "select": {
        const s = el as HTMLSelectElement;
        return s.multiple || s.size > 1 ? "listbox" : "combobox";
      }
      case "option":
        return "option";
      case "optgroup":
        return "group";
      case "summary":
        return "button";
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        return "heading";
      case "img":
        return el.getAttribute("alt") === "" && !el.hasAttribute("title") &&
            !el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby")
          ? ""
          : "img";
      case "svg":
        return "img";
      case "ul":
      case "ol":
      case "menu":
        return "list";
      case "li":
        return "listitem";
      case "dt":
      case "dfn":
        return "term";
      case "dd":
        return "definition";
      case "nav":
        return "navigation";
      case "main":
        return "main";
      case "aside":
        return "complementary";
      case "article":
        return "article";
      case "header":
        return el.parentElement?.closest(LANDMARK_SCOPE) ? "" : "banner";
      case "footer":
        return el.parentElement?.closest(LANDMARK_SCOPE) ? "" : "contentinfo";
      case "section":
      case "form":
        return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ||
            (tag === "section" && el.hasAttribute("title"))
          ? (tag === "section" ? "region" : "form")
          : "";
      case "search":
        return "search";
      case "dialog":
        return "dialog";
      case "fieldset":
      case "details":
      case "address":
        return "group";
      case "figure":
        return "figure";
      case "hr":
        return "separator";
      case "progress":
        return "progressbar";
      case "meter":
        return "meter";
      case "output":
        return "status";
      case "table":
        return "table";
      case "caption":
        return "caption";
      case "thead":
      case "tbody":
      case "tfoot":
        return "rowgroup";
      case "tr":
        return "row";
      case "td": {
        const grid = el.closest("table")?.getAttribute("role");
        return grid === "grid" || grid === "treegrid" ? "gridcell" : "cell";
      }
      case "th": {
        const scope = el.getAttribute("scope");
        if (scope === "row" || scope === "rowgroup") return "rowheader";
        return "columnheader";
      }
      case "p":
        return "paragraph";
      case "blockquote":
        return "blockquote";
      case "iframe":
      case "frame":
        return "iframe";
      case "math":
        return "math";
      case "datalist":
        return "listbox";
      default:
        return "";
    }
  }

  // `el.labels` scans the whole tree scope on its first call per control (about 0.2 ms per
  // control on a 4,500-element page), so a snapshot maps every label of the document once.
  let labelMap: Map<Element, HTMLLabelElement[]> | null = null;

  function labelsOf(el: Element): Iterable<HTMLLabelElement> & { length: number } | null {
    if (labelMap && el.getRootNode() === document) return labelMap.get(el) ?? null;
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

  function isFocusable(el: Element): boolean {
    const t = el.getAttribute("tabindex");
    return t !== null && t !== "" && Number(t) >= -1;
  }

  function roleOf(el: Element): string {
    const explicit = el.getAttribute("role");
    if (explicit) {
      for (const r of explicit.trim().toLowerCase().split(/\s+/)) {
        if (!ROLES.has(r)) continue;
        // A focusable element cannot shed its role (ARIA presentational conflict rule).
        if (r === "none" || r === "presentation" || r === "generic") {
          return isFocusable(el) ? implicitRole(el) : "";
        }
        return r === "image" ? "img" : r;
      }
    }
    return implicitRole(el);
  }

  // True while the walker is inside a subtree that `content-visibility: auto` skips: there,
  // style checks force style one element at a time (seconds on a big page), so only static
  // signals count (the `hidden` attribute, an inline `display: none`).
  let staticOnly = false;

  function staticHidden(el: Element): boolean {
    // `hasAttribute` first: reading `.style` allocates a declaration object per element.
    return el.hasAttribute("hidden") ||
      (el.hasAttribute("style") && (el as HTMLElement).style?.display === "none");
  }

  function hiddenForAria(el: Element): boolean {
    if (el.getAttribute("aria-hidden") === "true") return true;
    if (staticOnly) return staticHidden(el);
    if (el.checkVisibility({ visibilityProperty: true })) return false;
    // `display: contents` has no box, so checkVisibility says false; its children render.
    if (el.checkVisibility()) return true;
    return getComputedStyle(el).display !== "contents";
  }

  function isInline(el: Element): boolean {
    return INLINE.has(el.localName);
  }

  function idRefs(el: Element, attr: string): Element[] {
    const v = el.getAttribute(attr);
    if (!v) return [];
    const root = el.getRootNode() as Document | ShadowRoot;
    const out: Element[] = [];
    for (const id of v.trim().split(/\s+/)) {
      const r = root.getElementById ? root.getElementById(id) : null;
      if (r) out.push(r);
    }
    return out;
  }

  function childNodesOf(el: Element): ArrayLike<Node> {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.localName === "slot") {
      const a = (el as HTMLSlotElement).assignedNodes();
      if (a.length) return a;
    }
    return el.childNodes;
  }

  // Value of an embedded control when it is part of another element's name (accname 2C/2E).
  function embeddedValue(el: Element, role: string): string | null {
    switch (role) {
      case "textbox":
      case "searchbox":
        return "value" in el ? String((el as HTMLInputElement).value) : el.textContent ?? "";
      case "combobox":
      case "listbox": {
        if (el.localName === "select") {
          return [...(el as HTMLSelectElement).selectedOptions].map((o) => o.text).join(" ");
        }
        if (el.localName === "input") return (el as HTMLInputElement).value;
        return null;
      }
      case "slider":
      case "spinbutton":
      case "progressbar":
      case "meter":
        return el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow") ??
          ("value" in el ? String((el as HTMLInputElement).value) : "");
      default:
        return null;
    }
  }

  function nativeName(el: Element, skip: Element | null, traversal: boolean): string {
    const tag = el.localName;
    if (
      tag === "input" || tag === "textarea" || tag === "select" || tag === "meter" ||
      tag === "progress" || tag === "output"
    ) {
      const type = tag === "input" ? (el.getAttribute("type") || "text").toLowerCase() : "";
      if (type === "submit" || type === "reset" || type === "button") {
        const v = el.getAttribute("value");
        if (v !== null) return v;
        return type === "submit" ? "Submit" : type === "reset" ? "Reset" : "";
      }
      // Labels only for the element being named: inside a label's content a control
      // contributes its value instead (and label → control → label would loop).
      const labels = traversal ? null : labelsOf(el);
      if (labels && labels.length) {
        const parts: string[] = [];
        for (const l of labels) parts.push(contentText(l, el, false, false));
        const s = parts.join(" ").trim();
        if (s) return s;
      }
      if (type === "image") {
        return el.getAttribute("alt") || el.getAttribute("value") || el.getAttribute("title") ||
          "Submit";
      }
      const title = el.getAttribute("title");
      if (title) return title;
      const ph = el.getAttribute("placeholder") || el.getAttribute("aria-placeholder");
      return ph ?? "";
    }
    if (tag === "img" || tag === "area") return el.getAttribute("alt") ?? "";
    if (tag === "fieldset") {
      const legend = [...el.children].find((c) => c.localName === "legend");
      return legend ? contentText(legend, skip, false, false) : "";
    }
    if (tag === "table") {
      const cap = (el as HTMLTableElement).caption;
      return cap ? contentText(cap, skip, false, false) : "";
    }
    if (tag === "svg") {
      const t = [...el.children].find((c) => c.localName === "title");
      return t?.textContent ?? "";
    }
    if (tag === "optgroup") return el.getAttribute("label") ?? "";
    if (tag === "option" && el.hasAttribute("label")) return el.getAttribute("label") ?? "";
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
      if (n.nodeType === 3) {
        s += (n as Text).data;
        continue;
      }
      if (n.nodeType !== 1) continue;
      const c = n as Element;
      if (c === skip) continue;
      const tag = c.localName;
      if (tag === "script" || tag === "style" || tag === "template" || tag === "noscript") {
        continue;
      }
      if (tag === "br") {
        s += " ";
        continue;
      }
      if (tag !== "slot" && !includeHidden && hiddenForAria(c)) continue;
      const part = computeName(c, skip, inLabelledBy, includeHidden, true);
      // Chromium separates block boxes and embedded controls' values with spaces.
      s += isInline(c) && !EMBEDDED.has(c.localName) ? part : ` ${part} `;
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
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return label;
    const native = nativeName(el, skip, traversal);
    if (native.trim()) return native;
    if (
      traversal || FROM_CONTENT.has(role) || el.localName === "summary" ||
      el.localName === "label" || el.localName === "legend" || el.localName === "caption"
    ) {
      if (el.localName !== "svg" && el.localName !== "select" && el.localName !== "textarea") {
        const s = contentText(el, skip, inLabelledBy, includeHidden);
        if (s.trim()) return s;
      }
    }
    return el.getAttribute("title") ?? "";
  }

  function norm(s: string): string {
    return s.replace(/\s+/g, " ").trim();
  }

  api.roleOf = roleOf;
  api.nameOf = (el: Element) => norm(computeName(el, null, false, false, false));
  api.nameFromContent = (el: Element, role: string) =>
    FROM_CONTENT.has(role) && !el.hasAttribute("aria-label") &&
    !el.hasAttribute("aria-labelledby") && el.localName !== "input";
  api.hiddenForAria = hiddenForAria;
  api.staticHidden = staticHidden;
  api.setStaticOnly = (on: boolean) => {
    staticOnly = on;
  };
  api.cacheLabels = cacheLabels;
  api.isInline = isInline;
  api.childNodesOf = childNodesOf;
}
