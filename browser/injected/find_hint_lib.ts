/// <reference lib="dom" />
/**
 * Page-side selector hints for `find`: for each chosen element, the most stable selector our
 * own `selector` field accepts that designates exactly that element now (verified by running
 * it: CSS in the document and every shadow root `queryAll` looks in; `text="…"` through the text
 * model `textMatches`, on pages of at most 20,000 elements), plus whether the element can be
 * acted on and is on screen.
 *
 * Tiers, most stable first: `testid` (`[data-testid="…"]`, `data-test`, `data-qa`, `data-cy`),
 * `id` (`#id`, when it does not look generated), `role-name` (the tag and the attribute its
 * accessible name comes from: `button[aria-label="Close"]`, `input[name="email"]`,
 * `input[placeholder="…"]`, `img[alt="…"]`, `a[href="…"]`), `text` (`text="Save"`, whose
 * innermost match is the element, inside it, or its label), `class` (`button.destroy`), `path`
 * (`tag:nth-of-type()` steps from the nearest ancestor with an id), else `none`.
 *
 * Sent as source text: {@link installFindHintLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { FindHint, HitResult } from "./page_types.ts";

/**
 * Adds to the utility api:
 * - `findHints(ids, instance) → (FindHint | null)[]`: per page-local id, its hint (null when
 *   the element is gone or `instance` is another world's).
 * - `findCounts(selectors) → number[]`: how many elements each selector matches in this frame
 *   (-1 for an invalid one): the Deno side checks a child frame's hint against the frames a
 *   selector is looked for in first.
 */
export function installFindHintLib(api: PageApi): void {
  const { localOf, attrOf, hasAttrOf, parentOf, parentElOf, visibleEl, rectOf } = api.dom;
  const { closestOf, matchesOf, rootNodeOf, containsOf, qsaOf, childrenOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const queryAll = api.queryAll as Fn<[string], Element[]>;
  const textMatches = api.textMatches as Fn<[string], Element[]>;
  const textKeepWalk = api.textKeepWalk as Fn<[boolean], void>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const element = api.element as Fn<[number, string?], Element | null>;
  const hitTest = api.hitTest as Fn<[Element, number, number, boolean?], HitResult>;
  const shadowOf = api.shadowOf as Fn<[Element], ShadowRoot | null>;
  const refRole = api.refRole as Fn<[Element], string>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  /** Roles of controls (as the snapshot gives them refs). */
  const WIDGETS = new Set(
    ("button link checkbox radio textbox searchbox combobox listbox slider spinbutton switch " +
      "tab menuitem menuitemcheckbox menuitemradio option treeitem").split(" "),
  );
  /** Text-level tags whose pointer cursor is inherited from a clickable around them. */
  const NO_CURSOR_TAGS = new Set(
    "label code em strong b small sub sup abbr kbd var samp cite q mark pre br wbr".split(" "),
  );
  /** Above this many elements the `text=` tier is not tried: checking it walks the page's text. */
  const TEXT_TIER_MAX_ELEMENTS = 20000;
  const TEST_ATTRS = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"];
  const NAME_ATTRS = ["aria-label", "name", "placeholder", "alt", "title"];
  // Class names that say a state, or look generated (CSS-in-JS hashes): not worth a hint.
  const STATE_CLASS =
    /^(active|selected|current|completed|done|open|closed|hover|focus|disabled|hidden|show|visible|is-.*|has-.*|ng-.*|css-.*|sc-.*|jsx-.*)$/;

  const q = (v: string) => JSON.stringify(v);
  // No line breaks or other control characters: a hint stays one readable line.
  const plain = (v: string) =>
    v.length > 0 && v.length <= 80 && ![...v].some((ch) => ch.charCodeAt(0) < 32);

  function count(sel: string): number {
    try {
      return queryAll(sel).length;
    } catch {
      return -1;
    }
  }

  // The shadow roots `queryAll` looks in (open ones and closed ones handed over), found once per
  // `findHints` call: `queryAll` walks the whole tree for them on every call (a second per
  // check on a 5 MB page, and a hint takes several checks).
  let roots: ShadowRoot[] | null = null;
  let elementCount: number | undefined;
  function shadowRoots(): ShadowRoot[] {
    if (roots) return roots;
    const found: ShadowRoot[] = [];
    const visit = (root: Document | ShadowRoot) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (
        let n = walker.nextNode() as Element | null;
        n;
        n = walker.nextNode() as Element | null
      ) {
        // Only custom elements and the few tags that take a shadow root can hold one.
        const sr = localOf(n).includes("-") || SHADOW_HOSTS.has(localOf(n)) ? shadowOf(n) : null;
        if (sr) {
          found.push(sr);
          visit(sr);
        }
      }
    };
    visit(document);
    return roots = found;
  }
  const SHADOW_HOSTS = new Set(
    "article aside blockquote body div footer h1 h2 h3 h4 h5 h6 header main nav p section span"
      .split(" "),
  );

  /** Whether `sel` (CSS) matches `el` and nothing else in the frame (shadow roots included). */
  function uniqueCss(sel: string, el: Element): boolean {
    try {
      let n = 0;
      for (const root of [document, ...shadowRoots()]) {
        const found = qsaOf(root, sel);
        n += found.length;
        if (n > 1 || (found.length && found[0] !== el)) return false;
      }
      return n === 1;
    } catch {
      return false;
    }
  }

  function stableId(id: string): boolean {
    return /^[A-Za-z][\w-]{0,39}$/.test(id) && !/\d{3,}/.test(id) &&
      !/^(ember|react|radix|headlessui|mui|downshift|rc-|uid|ext-gen)/i.test(id) &&
      !/[0-9a-f]{8}/i.test(id);
  }

  function cssIdent(v: string): boolean {
    return /^[A-Za-z_][\w-]*$/.test(v);
  }

  /** `tag.class` for a class only `el` has in its tree (not a state, not generated), or "". */
  function ownClass(el: Element): string {
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/) : [];
    for (const c of cls) {
      if (!cssIdent(c) || STATE_CLASS.test(c) || /\d{3,}/.test(c)) continue;
      // The light tree's count first: cheap, and most classes are shared.
      if (rootNodeOf(el) === document && document.getElementsByClassName(c).length > 1) continue;
      if (uniqueCss(`${localOf(el)}.${c}`, el)) return `${localOf(el)}.${c}`;
    }
    return "";
  }

  /** The path with the middle steps that do not make it unique left out (`#orders tr:nth-of-type(2) button`). */
  function shortPath(el: Element): string {
    const steps = pathOf(el);
    if (!steps.length) return "";
    const keep = steps.map(() => true);
    const sel = () => steps.filter((_, i) => keep[i]).join(" ");
    if (!uniqueCss(sel(), el)) return steps.join(" > ");
    for (let i = 1; i < steps.length - 1; i++) {
      keep[i] = false;
      if (!uniqueCss(sel(), el)) keep[i] = true;
    }
    return sel();
  }

  function pathOf(el: Element): string[] {
    const steps: string[] = [];
    let e: Element | null = el;
    for (let depth = 0; e && depth < 10; depth++) {
      if (depth > 0 && e.id && stableId(e.id) && cssIdent(e.id)) {
        steps.unshift(`#${e.id}`);
        return steps;
      }
      // An ancestor with a class of its own anchors the path as well as an id.
      if (depth > 0 && depth <= 4) {
        const anchor = ownClass(e);
        if (anchor) {
          steps.unshift(anchor);
          return steps;
        }
      }
      const tag: string = localOf(e);
      const parent: Element | null = parentElOf(e);
      const siblings: Element[] = parent
        ? [...childrenOf(parent)]
        : [...(parentOf(e) as ParentNode | null)?.children ?? []];
      const same = siblings.filter((s) => localOf(s) === tag);
      steps.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(e) + 1})` : tag);
      if (!parent || tag === "body") break;
      e = parent;
    }
    return steps;
  }

  function hintOf(el: Element): { hint: string; tier: string; stability: string } {
    for (const a of TEST_ATTRS) {
      const v = attrOf(el, a);
      if (v && plain(v) && uniqueCss(`[${a}=${q(v)}]`, el)) {
        return { hint: `[${a}=${q(v)}]`, tier: "testid", stability: "high" };
      }
    }
    if (el.id && stableId(el.id)) {
      const sel = cssIdent(el.id) ? `#${el.id}` : `[id=${q(el.id)}]`;
      if (uniqueCss(sel, el)) return { hint: sel, tier: "id", stability: "high" };
    }
    const tag = localOf(el);
    const attrs = tag === "a" ? [...NAME_ATTRS, "href"] : NAME_ATTRS;
    for (const a of attrs) {
      const v = attrOf(el, a);
      if (!v || !plain(v) || (a === "href" && (v === "#" || v.startsWith("javascript:")))) continue;
      const sel = `${tag}[${a}=${q(v)}]`;
      if (uniqueCss(sel, el)) return { hint: sel, tier: "role-name", stability: "medium" };
    }
    const name = nameOf(el).trim();
    if (
      plain(name) && !name.includes('"') &&
      (elementCount ??= document.getElementsByTagName("*").length) <= TEXT_TIER_MAX_ELEMENTS
    ) {
      const sel = `text=${q(name)}`;
      let all: Element[] = [];
      try {
        all = textMatches(sel);
      } catch { /* not a text */ }
      const m = all[0];
      if (
        all.length === 1 && m &&
        (m === el || containsOf(el, m) || (localOf(m) === "label" &&
          (m as HTMLLabelElement).control === el))
      ) return { hint: sel, tier: "text", stability: "medium" };
    }
    const own = ownClass(el);
    if (own) return { hint: own, tier: "class", stability: "medium" };
    const path = shortPath(el);
    // A long path costs tokens and breaks with any change above: not worth showing.
    if (path && path.length <= 80 && uniqueCss(path, el)) {
      return { hint: path, tier: "path", stability: "low" };
    }
    return { hint: "", tier: "none", stability: "low" };
  }

  /**
   * Something an action operates: a control (a widget role, an editable root), focusable
   * (tabindex), draggable, clickable by the page's own signs (an `onclick` attribute, a pointer
   * cursor), or inside a link, button or label — as the snapshot decides a ref. A paragraph or
   * a heading a query matched by its words is none of these.
   */
  function operable(el: Element): boolean {
    if (WIDGETS.has(refRole(el)) || isEditableRoot(el)) return true;
    const tab = attrOf(el, "tabindex");
    if (hasAttrOf(el, "onclick") || (tab !== null && Number(tab) >= 0)) return true;
    if (attrOf(el, "draggable") === "true") return true;
    // Text inside a link, a button or a control's label acts as it does when clicked.
    if (closestOf(el, "a[href], button, label, summary, [onclick]")) return true;
    return !NO_CURSOR_TAGS.has(localOf(el)) && getComputedStyle(el).cursor === "pointer";
  }

  function stateOf(el: Element): Pick<FindHint, "actionable" | "inViewport" | "onHover"> {
    const r = rectOf(el);
    const shown = r.width > 0 && r.height > 0 &&
      visibleEl(el, { visibilityProperty: true, opacityProperty: false });
    const inViewport = shown && r.bottom > 0 && r.right > 0 && r.top < innerHeight &&
      r.left < innerWidth;
    const disabled = attrOf(el, "aria-disabled") === "true" ||
      ("disabled" in el && matchesOf(el, ":disabled")) || closestOf(el, "[inert]") !== null;
    let actionable = shown && !disabled && operable(el);
    if (actionable && inViewport) {
      const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      try {
        actionable = hitTest(el, x, y) === "ok";
      } catch { /* keep what the box says */ }
    }
    // A row's delete button shown on the row's :hover: an action hovers the row first.
    const host = !shown && !disabled && operable(el)
      ? (api.hoverHostOf as ((el: Element) => string | null) | undefined)?.(el)
      : null;
    if (host) return { actionable: true, inViewport, onHover: host };
    return { actionable, inViewport };
  }

  api.findHints = (ids: number[], instance: string): Array<FindHint | null> => {
    roots = null;
    elementCount = undefined;
    // Each text tier check matches against the page's text: one walk serves them all.
    textKeepWalk(true);
    try {
      return ids.map((id) => {
        const el = element(id, instance);
        if (!el) return null;
        return { ...hintOf(el), ...stateOf(el) };
      });
    } finally {
      roots = null;
      textKeepWalk(false);
    }
  };
  api.findCounts = (selectors: string[]) => selectors.map(count);
}
