/// <reference lib="dom" />
/**
 * The page's text as the snapshot shows it: the one text model behind
 * `wait_for({ text })`, its `lastSeen`, `text=` selectors and the secrets
 * checks of both. It walks the flat tree (open shadow roots in place, slots by
 * assignment) with the snapshot walker's own visibility decision
 * (`shownStep`, aria_lib.ts), so it sees what a snapshot shows and a user can
 * scroll to: sections `content-visibility: auto` skips off screen are text
 * (`innerText` leaves them out), while `display: none`, `visibility: hidden`
 * and `aria-hidden` subtrees are not. Like the snapshot it leaves out the
 * content of graphics, frames and form fields (a field's value is not page
 * text; a button input's label is) and of masked editable regions, and shows
 * a closed `<details>` by its summary only.
 *
 * Why a `text=` selector matched nothing shown is `text_miss_lib.ts`'s, installed after it.
 *
 * Sent as source text: {@link installTextLib} must not use anything from its
 * module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { TextMatchInfo, TextWalkHook } from "./text_types.ts";
import type { AlikeFacts, RefFacts } from "./page_types.ts";

/**
 * Adds to the utility api:
 * - `shownText(el?)`: the shown text of the page (`el` absent or null: the
 *   body) or of one element's subtree, raw (text nodes as written, `\n`
 *   between blocks); `""` for an element that is not shown.
 * - `textKeepWalk(on)`: while on, `textMatches` and `queryMatches` reuse one walk of the page
 *   (for several selectors checked in one synchronous call: the page cannot change between).
 * - `textMatches(selector)`: the innermost shown elements whose text matches a
 *   `text=` selector (`text=words`: contains them, any case, whitespace
 *   collapsed; `text="words"`: is exactly them), in snapshot order. An element
 *   counts when it has a box and does not sit in `visibility: hidden`.
 * - `queryMatches(selector, withText)`: those matches described for choosing
 *   one (`TextMatchInfo`), remembered for `queryAt`.
 * - `queryAt(selector, index, expected)`: the `index`-th match of the last
 *   `queryMatches` of `selector` when still connected and (`expected` not
 *   null) its shown text is still `expected`; else null (query again).
 * - `matchFacts(selector, indexes)`: what a ref of each of those matches records (its
 *   control's `refFacts`), null where gone: the candidates a refused selector lists.
 * - `textWalk(hook, root?, lines?)`: the page's text (or `root`'s) whitespace-collapsed
 *   (blocks joined by one space, as `text=` matches it; with `lines`, by `\n` instead, for
 *   `read_page`), telling `hook` of every shown element before and after its content with
 *   the offset reached in the space-joined text (`text_search`, section_lib.ts).
 * - `textSought(selector)`: a `text=` selector's text, normalized, and whether it must be the
 *   whole text (quoted); `hasBox(el)`: the element or a child has a box (for `text_miss_lib.ts`).
 */
export function installTextLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, firstOf, nextOf, rectOf, closestOf } = api.dom;
  const { childrenOf, connectedOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type WalkState = { skippingParent: Node | null };
  const shownStep = api.shownStep as Fn<[Element, number, WalkState], number>;
  const isInline = api.isInline as Fn<[Element, string?], boolean>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  /** Inline-block elements of these roles read apart from their neighbours (see walkEl). */
  const SPACED_ROLES = new Set([
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
  ]);
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const shadowOf = api.shadowOf as Fn<[Element], ShadowRoot | null>;

  // `shownStep`'s flags: inside `visibility: hidden` (only children that show count), inside
  // content `content-visibility: auto` skips.
  const HID = 4, SKIP = 16;
  const SKIP_TAGS = new Set(
    ("script style template noscript head meta link title datalist option optgroup param " +
      "source track base area map").split(" "),
  );
  // Shown without text of their own: graphics, frames (their text is theirs), fields.
  const LEAF_TAGS = new Set(
    "svg img input textarea select video audio canvas object embed iframe frame".split(" "),
  );
  const BUTTON_INPUTS = new Set(["button", "submit", "reset"]);
  const WIDGETS = new Set(
    ("button link checkbox radio textbox searchbox combobox listbox slider spinbutton switch " +
      "tab menuitem menuitemcheckbox menuitemradio option treeitem").split(" "),
  );
  // The server cuts names for display, so it can move a cut off a secret's value.
  const NAME_MAX = 200 + 4096;
  const DESCRIBED = 50;

  /** One walk's output: raw pieces, their whitespace-collapsed form, and (when asked) each element's spans. */
  interface Walk {
    raw: string[];
    norm: string[];
    len: number;
    space: boolean;
    state: WalkState;
    /** Elements in post-order, when recording. */
    els: Element[] | null;
    /** Per element: norm start, norm end, raw start, raw end, post-order index of its first descendant, flags. */
    spans: number[];
    /** Told of every shown element around its content (`textWalk`). */
    hook: TextWalkHook | null;
    /** When asked (`textWalk`): the collapsed pieces with `\n` between blocks. */
    lines: string[] | null;
  }

  function newWalk(record: boolean, hook: TextWalkHook | null = null): Walk {
    const state = { skippingParent: null };
    return {
      raw: [],
      norm: [],
      len: 0,
      space: true,
      state,
      els: record ? [] : null,
      spans: [],
      hook,
      lines: null,
    };
  }

  function add(w: Walk, s: string) {
    w.raw.push(s);
    let t = s.replace(/\s+/g, " ");
    if (w.space && t.charCodeAt(0) === 32) t = t.slice(1);
    if (!t) return;
    w.norm.push(t);
    w.lines?.push(t);
    w.len += t.length;
    w.space = t.charCodeAt(t.length - 1) === 32;
  }

  function sep(w: Walk) {
    w.raw.push("\n");
    w.lines?.push("\n");
    if (w.space) return;
    w.norm.push(" ");
    w.len++;
    w.space = true;
  }

  // Between an inline-block (a button) and what sits beside it: a space, no line break.
  function gap(w: Walk) {
    if (w.space) return;
    w.raw.push(" ");
    w.lines?.push(" ");
    w.norm.push(" ");
    w.len++;
    w.space = true;
  }

  function walkNode(w: Walk, n: Node, flags: number) {
    if (nodeTypeOf(n) === 3) {
      if (!(flags & HID)) add(w, (n as Text).data);
    } else if (nodeTypeOf(n) === 1) walkEl(w, n as Element, flags);
  }

  function walkKids(w: Walk, el: Element, flags: number) {
    if (localOf(el) === "slot") {
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length) {
        for (const n of assigned) walkNode(w, n, flags);
        return;
      }
    }
    const parent: Node = shadowOf(el) ?? el;
    for (let n = firstOf(parent); n; n = nextOf(n)) walkNode(w, n, flags);
  }

  function walkContent(w: Walk, el: Element, flags: number) {
    const tag = localOf(el);
    if (tag === "input") {
      const input = el as HTMLInputElement;
      if (!(flags & HID) && BUTTON_INPUTS.has(input.type)) add(w, input.value);
      return;
    }
    if (LEAF_TAGS.has(tag) || (isEditableRoot(el) && isSecret(el))) return;
    if (tag === "details" && !(el as HTMLDetailsElement).open) {
      const summary = [...childrenOf(el)].find((c) => localOf(c) === "summary");
      if (summary) walkEl(w, summary, flags);
      return;
    }
    walkKids(w, el, flags);
  }

  function walkEl(w: Walk, el: Element, flags: number) {
    const tag = localOf(el);
    if (SKIP_TAGS.has(tag)) return;
    if (tag === "br") return sep(w);
    if (tag === "slot") return walkKids(w, el, flags);
    const shown = shownStep(el, flags, w.state);
    if (shown < 0) return;
    const block = !isInline(el, shown & SKIP ? "tag" : "text");
    // Side by side buttons read as two texts, as a person sees them (NU s16: a text_search
    // excerpt read "Request reimbursementAcknowledge chapter 38"): a space either side of an
    // inline-block control. Other inline-blocks join, as in innerText ("Alpha" "Beta" spans).
    const spaced = !block && !(shown & SKIP) && !isInline(el, "name") &&
      SPACED_ROLES.has(roleOf(el));
    if (block) sep(w);
    else if (spaced) gap(w);
    const first = w.els?.length ?? 0, start = w.len, rawStart = w.raw.length;
    w.hook?.enter(el, start, shown);
    walkContent(w, el, shown);
    w.hook?.leave(el, w.len);
    if (w.els) {
      w.els.push(el);
      w.spans.push(start, w.len, rawStart, w.raw.length, first, shown);
    }
    if (block) sep(w);
    else if (spaced) gap(w);
  }

  function walkPage(w: Walk) {
    const root = document.body ?? document.documentElement;
    if (root) walkKids(w, root, 0);
  }

  function shownText(el?: Element | null): string {
    const w = newWalk(false);
    if (!el) walkPage(w);
    else {
      if (closestOf(el, '[aria-hidden="true"]')) return "";
      const shown = shownStep(el, 0, w.state);
      if (shown < 0 || (shown & HID)) return "";
      walkContent(w, el, shown);
    }
    return w.raw.join("");
  }

  const normText = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

  function hasBox(el: Element): boolean {
    const r = rectOf(el);
    if (r.width > 0 && r.height > 0) return true;
    // display:contents and zero-size wrappers: a visible child box counts.
    for (const rect of el.getClientRects()) if (rect.width > 0 && rect.height > 0) return true;
    return false;
  }

  /** A `text=` selector's text, normalized, and whether it must be the whole text (quoted). */
  function sought(selector: string): { exact: boolean; want: string } {
    const t = /^text=(.*)$/s.exec(selector)?.[1]?.trim() ?? "";
    const exact = /^".*"$/s.test(t);
    return { exact, want: normText(exact ? t.slice(1, -1) : t) };
  }

  // The page's recorded walk kept between matches while `textKeepWalk(true)`: checking several
  // selectors in one synchronous call (find's hints) walks a big page once, not once each.
  let keeping = false;
  let kept: { w: Walk; full: string; lower: string } | null = null;
  function pageWalk(): { w: Walk; full: string; lower: string } {
    if (kept) return kept;
    const w = newWalk(true);
    walkPage(w);
    const full = w.norm.join("");
    const walked = { w, full, lower: full.toLowerCase() };
    if (keeping) kept = walked;
    return walked;
  }

  /** The matches of a `text=` selector, with the walk they came from (see the module doc). */
  function match(selector: string): { w: Walk; at: number[]; want: string } {
    const { exact, want } = sought(selector);
    const { w, full, lower } = pageWalk();
    // Lower-casing keeps offsets unless some letter changes length (rare): then compare slices.
    const sameLength = lower.length === full.length;
    const occ: number[] = [];
    if (!exact && sameLength && want) {
      for (let i = lower.indexOf(want); i >= 0; i = lower.indexOf(want, i + 1)) occ.push(i);
    }
    const textMatches = (s: number, e: number): boolean => {
      while (s < e && full.charCodeAt(s) === 32) s++;
      while (e > s && full.charCodeAt(e - 1) === 32) e--;
      if (!sameLength || exact || !want) {
        const text = sameLength ? lower.slice(s, e) : full.slice(s, e).toLowerCase();
        return exact ? text === want : text.includes(want);
      }
      // The first occurrence starting at or after s (binary search) must end by e.
      let lo = 0, hi = occ.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (occ[mid]! < s) lo = mid + 1;
        else hi = mid;
      }
      return lo < occ.length && occ[lo]! + want.length <= e;
    };
    const els = w.els!, sp = w.spans;
    // Post-order: an element's descendants are the elements [first, i) before it.
    const accepted = new Int32Array(els.length + 1);
    const at: number[] = [];
    for (let i = 0; i < els.length; i++) {
      const k = i * 6;
      const flags = sp[k + 5]!;
      // Inside skipped content static signals decide, as in the snapshot (a box there forces
      // layout of the section: seconds for a common word on a big page).
      const ok = !(flags & HID) && accepted[i]! === accepted[sp[k + 4]!]! &&
        textMatches(sp[k]!, sp[k + 1]!) && ((flags & SKIP) !== 0 || hasBox(els[i]!));
      accepted[i + 1] = accepted[i]! + (ok ? 1 : 0);
      if (ok) at.push(i);
    }
    return { w, at, want };
  }

  // Drawn so faintly a person does not see it: opacity (with its ancestors') under 0.1.
  function faint(el: Element): boolean {
    let o = 1;
    // flatParent climbs to the document itself past <html>: elements only.
    for (let e: Element | null = el; e && nodeTypeOf(e) === 1 && o >= 0.1; e = flatParent(e)) {
      o *= Number(getComputedStyle(e).opacity) || 0;
    }
    return o < 0.1;
  }

  // The element a click on `el` operates: itself or a near flat-tree ancestor that is a
  // control, a link, a label of a control, an editable region or has a click handler.
  function actionableOf(el: Element): Element | null {
    let e: Element | null = el;
    for (let up = 0; e && up < 8; e = flatParent(e), up++) {
      if (e === document.body || e === document.documentElement) return null;
      if (WIDGETS.has(roleOf(e)) || isEditableRoot(e)) return e;
      if (localOf(e) === "label" && (e as HTMLLabelElement).control) return e;
      const tab = attrOf(e, "tabindex");
      if (hasAttrOf(e, "onclick") || (tab !== null && tab !== "" && Number(tab) >= 0)) return e;
    }
    return null;
  }

  let last: { selector: string; els: Element[] } | undefined;

  api.shownText = shownText;
  api.textWalk = (hook: TextWalkHook | null, root?: Element | null, lines?: boolean) => {
    const w = newWalk(false, hook);
    if (lines) w.lines = [];
    if (!root) walkPage(w);
    else {
      if (closestOf(root, '[aria-hidden="true"]')) return "";
      const shown = shownStep(root, 0, w.state);
      if (shown < 0) return "";
      hook?.enter(root, 0, shown);
      walkContent(w, root, shown);
      hook?.leave(root, w.len);
    }
    return (w.lines ?? w.norm).join("");
  };
  api.textKeepWalk = (on: boolean) => {
    keeping = on;
    kept = null;
  };
  api.textMatches = (selector: string) => {
    const { w, at } = match(selector);
    return at.map((i) => w.els![i]!);
  };
  api.queryMatches = (selector: string, withText: boolean): TextMatchInfo[] => {
    const { w, at, want } = match(selector);
    const els = at.map((i) => w.els![i]!);
    last = { selector, els };
    let actionable = 0;
    const infos = at.map((i, n) => {
      const el = w.els![i]!, k = i * 6;
      const raw = w.raw.slice(w.spans[k + 2]!, w.spans[k + 3]!).join("");
      const control = actionableOf(el);
      const shownAs = control ?? el;
      let role = roleOf(shownAs);
      if (!role) role = control ? (localOf(control) === "label" ? "label" : "generic") : "text";
      // Names cost an accessible-name computation: the first few of each kind are enough to
      // tell the choice (the server shows at most a handful).
      let name = "";
      if (n < DESCRIBED || (control && actionable < DESCRIBED)) {
        name = ((control ? nameOf(control) : "") || raw.replace(/\s+/g, " ").trim())
          .slice(0, NAME_MAX);
      }
      if (control) actionable++;
      const info: TextMatchInfo = { role, name, actionable: control !== null };
      // Its shown text is the text sought, whole (not the name: an aria-label is no text).
      if (want && normText(raw) === want) info.exact = true;
      if (n < DESCRIBED && faint(shownAs)) info.faint = true;
      if (withText) info.text = raw;
      return info;
    });
    // Matches described alike (three `button "Add to cart"`) are told apart by where they sit.
    const seen = new Map<string, number>();
    for (const m of infos) {
      if (m.name) seen.set(m.role + m.name, (seen.get(m.role + m.name) ?? 0) + 1);
    }
    for (let n = 0; n < infos.length && n < DESCRIBED; n++) {
      const m = infos[n]!;
      if (!m.name || seen.get(m.role + m.name)! < 2) continue;
      const el = els[n]!;
      const where = (api.contextOf as Fn<[Element, string, string], [string, string]>)(
        actionableOf(el) ?? el,
        m.role,
        m.name,
      )[1];
      if (where && where !== m.name) m.where = where;
    }
    return infos;
  };
  // What a ref of each match records (its control's facts, as the click would act there).
  // The first 8 (those a refusal lists, ALIKE_LISTED) with what names their section.
  api.matchFacts = (selector: string, indexes: number[]) =>
    indexes.map((i, n): AlikeFacts | null => {
      const el = last?.selector === selector ? last.els[i] : undefined;
      if (!el || !connectedOf(el)) return null;
      const target = actionableOf(el) ?? el;
      const facts = (api.refFacts as Fn<[Element], RefFacts | null>)(target);
      const headingOf = api.headingOf as Fn<[Element], [string, string]>;
      return facts && n < 8 ? { ...facts, heading: headingOf(target) } : facts;
    });
  api.textSought = sought;
  api.hasBox = hasBox;
  api.queryAt = (selector: string, index: number, expected: string | null) => {
    const el = last?.selector === selector ? last.els[index] : undefined;
    if (!el || !connectedOf(el)) return null;
    return expected === null || shownText(el) === expected ? el : null;
  };
}
