/// <reference lib="dom" />
/**
 * Page-side ARIA helpers: implicit roles (WAI-ARIA in HTML / html-aam), the
 * visibility tests the snapshot and names share, and flat-tree children
 * (open shadow roots, slots). Accessible names are in `accname_lib.ts`.
 * Chromium's own accessibility tree is the oracle the tests hold these
 * against (`tests/snapshot_oracle_test.ts`).
 *
 * Like every injected part, {@link installAriaLib} is sent as source text:
 * it must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";

/**
 * Adds to the utility api:
 * - `roleOf(el: Element): string`: the ARIA role, or `""` for generic /
 *   presentational elements that carry no role of their own.
 * - `hiddenForAria(el: Element): boolean`: cheap hidden test
 *   (`aria-hidden`, `display:none` subtree, `visibility:hidden`).
 * - `staticHidden(el)`: hidden by static signals only (`hidden`, inline `display:none`);
 *   `setStaticOnly(on)` makes `hiddenForAria` use only those (see the walker).
 * - `shownStep(el, flags, walk)`: the one visibility decision of a flat-tree walk, shared by the
 *   snapshot (`walker_lib.ts`) and the text model (`text_lib.ts`): -1 when `el` and its subtree
 *   are not shown (`aria-hidden`, `display: none`, static hiding inside skipped content), else
 *   the flags to walk its content with (bit 4: inside `visibility: hidden`, where only children
 *   that show again count; bit 16: inside content `content-visibility: auto` skips).
 * - `isInline(el: Element, how?: "text" | "name" | "tag"): boolean`: whether text beside
 *   `el` joins it with no separator. `"text"` (default, as innerText): a phrasing tag whose
 *   computed display is inline-level (a `<span>` in a flex or grid container is blockified,
 *   so not), or a custom element displayed inline. `"name"` (as Chromium's accessible names):
 *   only a plain `display: inline` box joins, inline-blocks are spaced. `"tag"` (and inside
 *   `setStaticOnly`): the tag alone decides, no style lookup.
 * - `childNodesOf(el: Element): ArrayLike<Node>`: children in the flat tree
 *   (an open shadow root's children, a slot's assigned nodes).
 * - `flatParent(node: Node): Element | null`: the parent in the flat tree (a
 *   slotted node's slot, a shadow root's host).
 * - `isSecret(el: Element): boolean`: a secret field, whose value never leaves
 *   the page: an `<input type=password>`; a text-entry input, a `<textarea>` or
 *   a contenteditable element whose computed `-webkit-text-security` is not
 *   `none` (the page masks it on screen); a text-entry input or `<textarea>`
 *   whose `autocomplete` names `current-password`, `new-password` or
 *   `one-time-code`; any element a secret was filled into (`holdSecret` of
 *   `secret_lib.ts`) once its value is not exactly what that fill put in.
 * - `maskSecret(value: string): string`: what a snapshot shows for a secret
 *   field's value: `""` when empty, else a fixed `••••` (the length of the
 *   value is not shown either).
 *
 * Deliberate differences from Chromium's roles (kept because they read
 * better for an agent, and accepted by the oracle test):
 * `<summary>` is `button` (Chromium: `DisclosureTriangle`); date, time and
 * color inputs are `textbox` (Chromium: `Date`, `DateTime`, `InputTime`,
 * `ColorWell`); `<img>` is `img` (Chromium: `image`).
 */
export function installAriaLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, parentOf, parentElOf, firstOf } = api.dom;
  const { childListOf, shadowRootOf, visibleEl, rectOf, closestOf, textContentOf } = api.dom;
  const { slotOf } = api.dom;
  /** Whether a header/footer sits inside a landmark scope (then it is no landmark itself). */
  const inLandmarkScope = (el: Element) => {
    const up = parentElOf(el);
    return !!up && closestOf(up, LANDMARK_SCOPE) !== null;
  };
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
  const INLINE = new Set(
    ("a abbr b bdi bdo cite code data del dfn em font i img input ins kbd label mark q s samp " +
      "small span strong sub sup time tt u var wbr button select textarea output meter " +
      "progress big nobr acronym").split(" "),
  );
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
  // Inputs whose value is not typed text (their value is a label, a choice or a file list).
  const NOT_TEXT_INPUTS = new Set(
    "button submit reset image file checkbox radio range color hidden".split(" "),
  );
  const SECRET_AUTOCOMPLETE = /(?:^|\s)(?:current-password|new-password|one-time-code)(?:\s|$)/i;
  const MASK = "\u2022\u2022\u2022\u2022";

  function inputRole(el: HTMLInputElement): string {
    const type = (attrOf(el, "type") || "text").toLowerCase();
    const known = INPUT_ROLES[type];
    if (known !== undefined) return known;
    if (
      hasAttrOf(el, "list") && (type === "text" || type === "email" || type === "tel" ||
        type === "url")
    ) return "combobox";
    return "textbox";
  }

  // Chromium's rule for a `<th>` (ax_node_object.cc, DecideRoleFromSiblings; checked against its
  // AX tree in tests/snapshot_table_test.ts): a scope says; else a header is a row header when a
  // non-empty `<td>` stands beside it, or first, second, last or second to last in its row.
  function thRole(el: Element): string {
    const scope = attrOf(el, "scope");
    if (scope === "row" || scope === "rowgroup") return "rowheader";
    if (scope === "col" || scope === "colgroup") return "columnheader";
    const prev = el.previousElementSibling, next = el.nextElementSibling;
    if (!prev && !next) return "columnheader";
    const th = (c: Element | null | undefined) => c?.localName === "th";
    if (th(prev) && th(next)) return "columnheader";
    const data = (c: Element | null | undefined) => !!c && localOf(c) === "td" && !!firstOf(c);
    if (data(prev) || data(next)) return "rowheader";
    const row = parentElOf(el);
    if (row?.localName !== "tr") return "columnheader";
    const first = row.firstElementChild, last = row.lastElementChild;
    return data(first) || data(first?.nextElementSibling) || data(last) ||
        data(last?.previousElementSibling)
      ? "rowheader"
      : "columnheader";
  }

  function implicitRole(el: Element): string {
    const tag = localOf(el);
    switch (tag) {
      case "a":
      case "area":
        return hasAttrOf(el, "href") ? "link" : "";
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
        return attrOf(el, "alt") === "" && !hasAttrOf(el, "title") &&
            !hasAttrOf(el, "aria-label") && !hasAttrOf(el, "aria-labelledby")
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
        return inLandmarkScope(el) ? "" : "banner";
      case "footer":
        return inLandmarkScope(el) ? "" : "contentinfo";
      case "section":
      case "form":
        return hasAttrOf(el, "aria-label") || hasAttrOf(el, "aria-labelledby") ||
            (tag === "section" && hasAttrOf(el, "title"))
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
        const grid = closestOf(el, "table")?.getAttribute("role");
        return grid === "grid" || grid === "treegrid" ? "gridcell" : "cell";
      }
      case "th":
        return thRole(el);
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

  function isFocusable(el: Element): boolean {
    const t = attrOf(el, "tabindex");
    return t !== null && t !== "" && Number(t) >= -1;
  }

  function roleOf(el: Element): string {
    const explicit = attrOf(el, "role");
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
    return hasAttrOf(el, "hidden") ||
      (hasAttrOf(el, "style") && (el as HTMLElement).style?.display === "none");
  }

  function hiddenForAria(el: Element): boolean {
    if (attrOf(el, "aria-hidden") === "true") return true;
    if (staticOnly) return staticHidden(el);
    if (visibleEl(el, { visibilityProperty: true })) return false;
    // `display: contents` has no box, so checkVisibility says false; its children render.
    if (visibleEl(el)) return true;
    return getComputedStyle(el).display !== "contents";
  }

  // The walk flags `shownStep` reads and sets (the walker's own flags use the other bits).
  const HID = 4, SKIP = 16;
  const VIS = { visibilityProperty: true };
  const VIS_AUTO = { visibilityProperty: true, contentVisibilityAuto: true };

  // True when the parent is a `content-visibility: auto` box far from the viewport, so Chromium
  // skips its content: answered from the parent's own style and box (cheap), where asking the
  // child forces style and layout of the whole box (10–30 ms per section of Node's docs).
  function autoSkipped(el: Element): boolean {
    const p = parentElOf(el);
    if (!p || getComputedStyle(p).contentVisibility !== "auto") return false;
    const r = rectOf(p);
    const h = innerHeight, w = innerWidth;
    return r.bottom < -h || r.top > 2 * h || r.right < -w || r.left > 2 * w;
  }

  // Whether an element met in a walk of the flat tree is shown, and the flags its content is
  // walked with: -1 when neither it nor anything inside shows. Content that
  // `content-visibility: auto` skips (off-screen sections a user scrolls to) counts as shown,
  // and inside it only static signals hide (style queries there force style one element at a
  // time: 3.4 s for the 107,000 skipped elements of Node's all.html).
  function shownStep(el: Element, flags: number, walk: { skippingParent: Node | null }): number {
    if (attrOf(el, "aria-hidden") === "true") return -1;
    if (!(flags & SKIP) && parentOf(el) === walk.skippingParent) flags |= SKIP;
    if (flags & SKIP) return staticHidden(el) ? -1 : flags;
    if (visibleEl(el, VIS_AUTO)) return flags & ~HID;
    if (autoSkipped(el) || visibleEl(el, VIS)) {
      // Rendered, but inside a subtree `content-visibility: auto` skips (off-screen): so are
      // its siblings, which then skip this (forcing) test.
      walk.skippingParent = parentOf(el);
      return (flags & ~HID) | SKIP;
    }
    if (visibleEl(el)) return flags | HID; // visibility:hidden; children may show again
    // Not rendered at all, unless `display: contents` (no box of its own; its children render).
    return getComputedStyle(el).display === "contents" ? flags : -1;
  }

  // Computed displays whose box is inline-level (or no box: `contents`, `none`): text beside
  // them joins, as innerText joins it. Flex and grid items are blockified, so a `<span>` in a
  // flex row computes to `block` and its text is separated. For names Chromium also spaces
  // atomic inlines (`inline-block`, `inline-flex`, …): only a plain inline box joins there.
  function joinsDisplay(d: string, how: string): boolean {
    if (d === "contents" || d === "none") return true;
    return how === "name" ? d === "inline" : d.startsWith("inline") || d.startsWith("ruby");
  }

  function isInline(el: Element, how = "text"): boolean {
    if (INLINE.has(localOf(el))) {
      // Inside content `content-visibility: auto` skips, a style query forces style for this
      // element alone (seconds on a big page): the tag decides there.
      return how === "tag" || staticOnly || joinsDisplay(getComputedStyle(el).display, how);
    }
    // An element HTML does not define (a custom element, `ng-pluralize`) is inline unless
    // styled otherwise: its box says. Other tags are block-level (a `<div>` made inline is rare
    // and costs only a space).
    if (localOf(el).includes("-") || el instanceof HTMLUnknownElement) {
      return joinsDisplay(getComputedStyle(el).display, how === "name" ? how : "text");
    }
    return false;
  }

  function childNodesOf(el: Element): ArrayLike<Node> {
    const root = (api.shadowOf as ((e: Element) => ShadowRoot | null) | undefined)?.(el) ??
      shadowRootOf(el);
    if (root) {
      // Watch the roots we read, so a change inside one counts as a change.
      (api.observeRoot as ((r: ShadowRoot) => void) | undefined)?.(root);
      return childListOf(root);
    }
    if (localOf(el) === "slot") {
      const a = (el as HTMLSlotElement).assignedNodes();
      if (a.length) return a;
    }
    return childListOf(el);
  }

  function flatParent(n: Node): Element | null {
    const slot = slotOf(n as Element | Text);
    if (slot) return slot;
    const p = parentOf(n);
    if (!p) return null;
    return nodeTypeOf(p) === 11 ? ((p as ShadowRoot).host ?? null) : p as Element;
  }

  // Chromium knows only the prefixed property (`text-security` is not supported); both are read.
  function textSecurity(el: Element): boolean {
    const cs = getComputedStyle(el);
    const v = cs.getPropertyValue("-webkit-text-security") || cs.getPropertyValue("text-security");
    return !!v && v !== "none";
  }

  // Fields a secret was filled into (`holdSecret`, secret_lib.ts) → the values they may show.
  const heldWorld = globalThis as unknown as { __browxaiHeld?: WeakMap<Element, Set<string>> };
  const held = heldWorld.__browxaiHeld ??= new WeakMap();

  /** What a held element shows: a field's value, else its text (a contenteditable). */
  function heldValue(el: Element): string {
    return /^(input|textarea|select)$/.test(localOf(el))
      ? (el as HTMLInputElement).value
      : textContentOf(el) ?? "";
  }

  function isSecret(el: Element): boolean {
    // A field holding what is left of a filled secret (edited by keys, cut, undone) shows
    // no part of it: only the exact value of its last secret fill (masked by the server).
    const shown = held.get(el);
    if (shown && !shown.has(heldValue(el))) return true;
    const tag = localOf(el);
    if (tag === "input") {
      const type = (el as HTMLInputElement).type;
      if (type === "password") return true;
      if (NOT_TEXT_INPUTS.has(type)) return false;
    } else if (tag !== "textarea") {
      const ce = attrOf(el, "contenteditable");
      return ce !== null && ce !== "false" && textSecurity(el);
    }
    const ac = attrOf(el, "autocomplete");
    return (!!ac && SECRET_AUTOCOMPLETE.test(ac)) || textSecurity(el);
  }

  api.roleOf = roleOf;
  api.flatParent = flatParent;
  api.isSecret = isSecret;
  api.maskSecret = (v: string) => v ? MASK : "";
  api.hiddenForAria = hiddenForAria;
  api.staticHidden = staticHidden;
  api.shownStep = shownStep;
  api.setStaticOnly = (on: boolean) => {
    staticOnly = on;
  };
  api.isInline = isInline;
  api.childNodesOf = childNodesOf;
}
