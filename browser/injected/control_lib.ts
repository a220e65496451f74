/// <reference lib="dom" />
/**
 * Page-side help for `choose_option` (browser/actions/option_choice.ts): what kind of control
 * an element is and what it shows, and the option of its list that has a given text. Installed
 * on demand (mod.ts, the `inspect` group): only calls of `control*` methods pay for it.
 *
 * Where options are looked for: the lists the control names (`aria-controls`, `aria-owns`,
 * read anew on every call: React-Select and MUI set them only while open, on a list rendered
 * into `<body>`), or the control itself when it is a list; when it names none that shows, the
 * whole document (its root, then the document). In each place: elements of role `option`,
 * then `menuitem*`, then (none of either) elements by their text; the first kind found decides.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { ControlKind, ControlState, OptionSearch } from "./page_types.ts";

/**
 * Adds `controlState`, `controlLabelled`, `controlFind`, `controlOption`, `controlScroll` to the
 * utility api.
 */
export function installControlLib(api: PageApi): void {
  const { localOf, attrOf, hasAttrOf, parentElOf, visibleEl, rectOf, closestOf } = api.dom;
  const { textContentOf, rootNodeOf, containsOf, qsaOf } = api.dom;
  // Zero-width spaces too: MUI's Select shows one when nothing is chosen.
  const norm = (s: string) => s.replace(/[\u200b-\u200d\ufeff]/g, "").replace(/\s+/g, " ").trim();
  const MAX_TEXT = 4296;
  const LIST_ROLES = new Set(["listbox", "menu", "menubar", "tree", "grid", "radiogroup"]);
  const MENU_ROLES = new Set(["menuitem", "menuitemcheckbox", "menuitemradio"]);
  const FIELDS = "input, select, textarea, [role=combobox], [role=listbox], label";
  const SKIP_TEXT = 'button, [role="button"], [aria-hidden="true"], script, style';
  /** The option `controlFind` found last, per control (for `controlOption`). */
  const found = new WeakMap<Element, Element>();
  // Per control: what was shown before it was opened (controlMark).
  const shownBefore = new WeakMap<Element, Set<Element>>();

  const shown = (el: Element): boolean => {
    if (!el.isConnected) return false;
    const h = el as HTMLElement;
    if (!visibleEl(h, { visibilityProperty: true })) return false;
    const r = rectOf(el);
    return r.width > 0 && r.height > 0;
  };

  const kindOf = (el: Element, role: string): ControlKind => {
    if (el instanceof HTMLSelectElement) return "select";
    if (LIST_ROLES.has(role)) return "list";
    if (role === "combobox") return "combobox";
    const pop = attrOf(el, "aria-haspopup");
    if (
      (pop !== null && pop !== "false") || hasAttrOf(el, "aria-expanded") ||
      hasAttrOf(el, "aria-controls") || hasAttrOf(el, "aria-owns")
    ) return "popup";
    if (role === "button" || MENU_ROLES.has(role)) return "button";
    return "";
  };

  /** The elements an IDREF attribute names, looked up in the element's root, then the document. */
  const byIds = (el: Element, attr: string): Element[] => {
    const root = rootNodeOf(el) as Document | ShadowRoot;
    const out: Element[] = [];
    for (const id of (attrOf(el, attr) ?? "").split(/\s+/).filter(Boolean)) {
      const t = root.getElementById?.(id) ?? document.getElementById(id);
      if (t && t !== el) out.push(t);
    }
    return out;
  };

  const textOf = (el: Element): string =>
    norm((el as HTMLElement).innerText ?? textContentOf(el) ?? "");

  const selectedIn = (list: Element): string =>
    [...qsaOf(list, '[aria-selected="true"], [aria-checked="true"]')]
      .map((o) => api.nameOf(o) || textOf(o)).join(", ");

  /** What the control shows as chosen. */
  const display = (el: Element, kind: ControlKind): string => {
    if (el instanceof HTMLSelectElement) {
      return [...el.selectedOptions].map((o) => norm(o.label)).join(", ");
    }
    if (kind === "list") return selectedIn(el);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (api.isSecret(el)) return api.maskSecret(el.value);
      if (el.value) return el.value;
    } else {
      const own = textOf(el);
      if (own) return own;
    }
    // A field that shows its choice beside itself (React-Select's single value): the text of
    // the nearest box around it that holds no other field (buttons' and hidden text left out).
    let box = parentElOf(el);
    for (let i = 0; i < 3 && box && box !== document.body; i++, box = parentElOf(box)) {
      if ([...qsaOf(box, FIELDS)].some((f) => f !== el)) break;
      const t = boxText(box);
      if (t) return t;
    }
    return "";
  };

  const boxText = (box: Element): string => {
    let s = "";
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n && s.length < MAX_TEXT; n = walk.nextNode()) {
      const p = parentElOf(n);
      if (!p || closestOf(p, SKIP_TEXT) || !shown(p)) continue;
      s += " " + n.nodeValue;
    }
    return norm(s);
  };

  const label = (el: Element, shows: string): string => {
    const by = byIds(el, "aria-labelledby").map(textOf).filter(Boolean);
    if (by.length) return by.join(" ");
    const labels = (el as HTMLInputElement).labels;
    if (labels?.length) {
      // Its name from its labels (a label wrapping it: without its own text).
      const t = api.nameOf(el) || norm([...labels].map(textOf).join(" "));
      if (t) return t;
    }
    const aria = norm(attrOf(el, "aria-label") ?? "");
    if (aria) return aria;
    const name = api.nameOf(el);
    return name && name !== shows ? name : "";
  };

  api.controlState = (el: Element): ControlState => {
    const role = api.roleOf(el) || localOf(el);
    const kind = kindOf(el, role);
    const displayText = display(el, kind).slice(0, MAX_TEXT);
    return {
      kind,
      role,
      // Without aria-expanded, a list it names that shows says it is open.
      expanded: kind === "list" || attrOf(el, "aria-expanded") === "true" ||
        (!hasAttrOf(el, "aria-expanded") &&
          [...byIds(el, "aria-controls"), ...byIds(el, "aria-owns")].some(shown)),
      label: label(el, displayText).slice(0, MAX_TEXT),
      displayText,
      what: api.describeElement(el),
      ...(el instanceof HTMLSelectElement
        ? { options: [...el.options].map((o) => norm(o.label)) }
        : {}),
    };
  };

  /** The lists the control shows its options in now (see the module doc). */
  const listsOf = (el: Element, kind: ControlKind): Element[] => {
    if (kind === "list") return [el];
    const named = [...byIds(el, "aria-controls"), ...byIds(el, "aria-owns")].filter(shown);
    if (named.length) return named;
    // A list inside the control itself (a menu button wrapping its menu).
    return [...qsaOf(el, "[role]")].filter((c) => LIST_ROLES.has(api.roleOf(c)) && shown(c));
  };

  /** Elements under `roots` (open shadow roots included), shown, with a role in `roles`. */
  const withRole = (roots: Array<Element | Document>, test: (role: string) => boolean) => {
    const out: Element[] = [];
    const visit = (root: Element | Document | ShadowRoot) => {
      for (const c of qsaOf(root, "[role]")) {
        if (test(api.roleOf(c)) && shown(c) && !out.includes(c)) out.push(c);
      }
      for (const host of qsaOf(root, "*")) {
        const sr = api.shadowOf(host);
        if (sr) visit(sr);
      }
    };
    roots.forEach(visit);
    return out;
  };

  /**
   * The innermost shown elements under `roots` whose text matches, `el`'s own tree left out:
   * from the text nodes that hold a part of `want`, up while the text is still short (a page's
   * every element is never measured).
   */
  const byText = (
    roots: Array<Element | Document>,
    el: Element,
    want: string,
    match: (s: string) => boolean,
  ): Element[] => {
    const out: Element[] = [];
    const lower = want.toLowerCase();
    for (const root of roots) {
      const start = root instanceof Document ? root.body : root;
      if (!start) continue;
      const walk = document.createTreeWalker(start, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const t = norm(n.nodeValue ?? "").toLowerCase();
        if (!t || !(lower.includes(t) || t.includes(lower))) continue;
        let p = parentElOf(n);
        while (p && !match(textOf(p)) && (textContentOf(p) ?? "").length <= 2 * want.length + 80) {
          p = parentElOf(p);
        }
        if (!p || !match(textOf(p)) || p === el || containsOf(p, el) || containsOf(el, p)) continue;
        if (/^(script|style|template|noscript|title)$/.test(localOf(p)) || !shown(p)) continue;
        if (out.some((o) => p!.contains(o))) continue;
        for (let i = out.length - 1; i >= 0; i--) if (out[i]!.contains(p)) out.splice(i, 1);
        out.push(p);
      }
    }
    return out;
  };

  /** Where a control's options are looked for, and how a candidate is matched. */
  const searchOf = (el: Element, text: string, exact: boolean) => {
    const role = api.roleOf(el) || localOf(el);
    const kind = kindOf(el, role);
    const want = norm(text);
    const lower = want.toLowerCase();
    const match = (s: string) => exact ? norm(s) === want : norm(s).toLowerCase().includes(lower);
    const lists = listsOf(el, kind);
    const root = rootNodeOf(el);
    const roots: Array<Element | Document> = lists.length
      ? lists
      : root instanceof ShadowRoot
      ? [root.host, document]
      : [document];
    return { want, match, lists, roots };
  };

  api.controlMark = (el: Element, text: string, exact: boolean) => {
    const { want, match, lists, roots } = searchOf(el, text, exact);
    if (lists.length) return;
    shownBefore.set(
      el,
      new Set([
        ...withRole(roots, (r) => r === "option" || MENU_ROLES.has(r)),
        ...byText(roots, el, want, match),
      ]),
    );
  };

  api.controlFind = (el: Element, text: string, exact: boolean): OptionSearch => {
    found.delete(el);
    const { want, match, lists, roots } = searchOf(el, text, exact);
    const matches = (o: Element) => match(api.nameOf(o)) || match(textOf(o));
    // A control that names no list: only what showed once it opened is its own (a list that
    // was there before belongs to another control).
    const before = lists.length ? undefined : shownBefore.get(el);
    const fresh = (o: Element) => !before?.has(o);
    let items = withRole(roots, (r) => r === "option").filter(fresh);
    let via: "option" | "menuitem" | "text" = "option";
    if (!items.length) {
      items = withRole(roots, (r) => MENU_ROLES.has(r)).filter(fresh);
      via = "menuitem";
    }
    let hits = items.filter(matches);
    if (!items.length) {
      hits = byText(roots, el, want, match).filter(fresh);
      via = "text";
    }
    if (!hits.length) {
      const scroller = scrollerOf(lists[0] ?? items[0]);
      return {
        state: "none",
        options: items.slice(0, 30).map((o) => (api.nameOf(o) || textOf(o)).slice(0, 80)),
        total: items.length,
        more: !!scroller && scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1,
      };
    }
    const hit = hits[0]!;
    found.set(el, hit);
    return {
      state: "found",
      name: (api.nameOf(hit) || textOf(hit)).slice(0, MAX_TEXT),
      role: api.roleOf(hit) || localOf(hit),
      via,
      matches: hits.length,
      disabled: closestOf(hit, '[aria-disabled="true"]') !== null ||
        (hit as HTMLButtonElement).disabled === true,
    };
  };

  /**
   * The control an element labels by `aria-labelledby` (a label without `for`, as the APG
   * examples and MUI write them), or null.
   */
  api.controlLabelled = (el: Element) => {
    if (!el.id) return null;
    const root = rootNodeOf(el) as Document | ShadowRoot;
    for (const c of qsaOf(root, "[aria-labelledby]")) {
      if (c === el || !(attrOf(c, "aria-labelledby") ?? "").split(/\s+/).includes(el.id)) {
        continue;
      }
      if (kindOf(c, api.roleOf(c) || localOf(c)) && shown(c)) return c;
    }
    return null;
  };

  /** The option the last `controlFind` on this control found, if still in the document. */
  api.controlOption = (el: Element) => {
    const o = found.get(el);
    return o && o.isConnected ? o : null;
  };

  /** The list itself when it scrolls, else its nearest ancestor (or descendant) that does. */
  const scrollerOf = (el: Element | undefined): Element | null => {
    if (!el) return null;
    const scrolls = (e: Element) => {
      const oy = getComputedStyle(e).overflowY;
      return (oy === "auto" || oy === "scroll") && e.scrollHeight > e.clientHeight + 1;
    };
    for (let a: Element | null = el; a && a !== document.body; a = parentElOf(a)) {
      if (scrolls(a)) return a;
    }
    for (const d of qsaOf(el, "*")) if (scrolls(d)) return d;
    return null;
  };

  /**
   * Scrolls the control's list down by most of its height (a virtual or lazily filled list
   * renders the next options); false when there is no list that scrolls, or it is at its end.
   */
  api.controlScroll = (el: Element) => {
    const kind = kindOf(el, api.roleOf(el) || localOf(el));
    const lists = listsOf(el, kind);
    const first = lists[0] ??
      withRole([document], (r) => r === "option" || MENU_ROLES.has(r))[0];
    const s = scrollerOf(first);
    if (!s || s.scrollTop + s.clientHeight >= s.scrollHeight - 1) return false;
    s.scrollTop += Math.max(20, s.clientHeight * 0.8);
    return true;
  };
}
