/// <reference lib="dom" />
/**
 * Page-side snapshot walk: one pass over a frame's flat tree (open shadow
 * roots in place, slots by assignment) in browxai's isolated world. Decides
 * per element what it is (hidden, targetable, a node with a line, a
 * generic container whose content is hoisted) and writes the outline
 * (`outline_lib.ts`): rows, frames and text here, the lines of targets and structure in
 * `walk_lines_lib.ts`. See `snapshot_lib.ts` for the format.
 *
 * Sent as source text: {@link installWalkerLib} must not use anything from
 * its module scope.
 *
 * @module
 */
import type {
  LinkWriter,
  Outline,
  SnapshotOptions,
  SnapshotRef,
  WalkLines,
  WalkScope,
} from "./page_types.ts";
import type { PageApi } from "./page_api.ts";

/**
 * Adds `snapshot({ rootId? }) → { text, refs: [id, role, name, contextKind, contextText][],
 * frames: id[], instance }` to the utility api: the outline of the frame's
 * document (or of the subtree of element `rootId`, its own line included; for a heading, its
 * section: the heading and what follows up to the next heading of its level or a higher one,
 * within its nearest sectioning ancestor, see section_lib.ts),
 * with `[ref=#id]` on targetable elements and `[frame=#id]` on iframes (their
 * ids in `frames`). Each ref carries its element's context (`contextOf` of
 * `snapshot_lib.ts`). A secret field's value (`isSecret`) is never written.
 *
 * Cost: one `checkVisibility` per element and one `getComputedStyle` (for
 * `cursor: pointer`) per element outside targets; names only for lines.
 * Inside subtrees that `content-visibility: auto` skips (off-screen), style
 * queries force style one element at a time, so there only static signals
 * (`hidden`, inline `display:none`, `aria-hidden`, closed `<details>`) hide
 * content and no pointer cursor is read.
 *
 * @throws Error when `rootId` is given and its element is gone.
 */
export function installWalkerLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, firstOf, nextOf, visibleEl, matchesOf } = api.dom;
  const { closestOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const childNodesOf = api.childNodesOf as Fn<[Element], ArrayLike<Node>>;
  const cacheLabels = api.cacheLabels as Fn<[boolean], void>;
  const staticHidden = api.staticHidden as Fn<[Element], boolean>;
  const setStaticOnly = api.setStaticOnly as Fn<[boolean], void>;
  const shownStep = api.shownStep as Fn<[Element, number, { skippingParent: Node | null }], number>;
  const newOutline = api.newOutline as Fn<[boolean?], Outline>;
  const q = api.quote as Fn<[string], string>;
  const safe = api.safeText as Fn<[string], string>;
  const idOf = api.idOf as Fn<[Element], number>;
  const element = api.element as Fn<[number], Element | null>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const statesOf = api.statesOf as Fn<[Element, string, Element | null], string>;
  const contextOf = api.contextOf as Fn<[Element, string, string], [string, string]>;
  const memoContexts = api.memoContexts as Fn<[Map<Element, unknown> | null], void>;
  const newLinks = api.newLinks as Fn<[], LinkWriter>;
  const shadowOf = api.shadowOf as Fn<[Element], ShadowRoot | null>;
  const hostUnchecked = api.hostUnchecked as Fn<[Element, string], boolean>;
  const headingLevel = api.headingLevel as Fn<[Element], number>;
  const sectionBoundary = api.sectionBoundary as Fn<[Element], boolean>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const deepActive = api.deepActive as Fn<[], Element | null>;
  const clickHandler = api.clickHandler as Fn<[Element], boolean>;
  const refTuple = api.refTuple as Fn<[Element, SnapshotRef], SnapshotRef | [number]>;
  const inertOf = api.inertOf as Fn<[Element], string>;
  const walkLines = api.walkLines as Fn<[WalkScope], WalkLines>;
  /** At most this many unchecked hosts per walk (each costs the Deno side a CDP call). */
  const MAX_HOSTS = 100;

  const SKIP_TAGS = new Set(
    ("script style template noscript head meta link title datalist option optgroup param " +
      "source track base caption legend area map").split(" "),
  );
  const LEAF_TAGS = new Set(
    "svg img input textarea select video audio canvas object embed".split(" "),
  );
  // Text-level tags that are practically never click targets of their own: no cursor lookup
  // (docs pages are full of them). A label forwards clicks to its control instead.
  const NO_CURSOR_TAGS = new Set(
    "label code em strong b small sub sup abbr kbd var samp cite q mark pre br wbr".split(" "),
  );
  const WIDGETS = new Set(
    ("button link checkbox radio textbox searchbox combobox listbox slider spinbutton switch " +
      "tab menuitem menuitemcheckbox menuitemradio option treeitem").split(" "),
  );
  // Roles that get a line of their own when not targetable.
  const STRUCT = new Set(
    ("heading navigation main banner contentinfo complementary region search form dialog " +
      "alertdialog alert status log marquee timer img table list listitem group radiogroup " +
      "tablist tabpanel menu menubar toolbar tree treegrid grid progressbar meter article " +
      "feed note tooltip math").split(" "),
  );
  const CELL_TAGS = new Set(["td", "th"]);
  const SORTS = new Set(["ascending", "descending", "other"]);
  const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  // Walk flags: NAMED text is the parent's name (not repeated); PTR inside a target or an
  // element with a pointer cursor; HID visibility:hidden; PRE preformatted; SKIP inside a
  // subtree that `content-visibility: auto` skips (off-screen sections of long pages). HID and
  // SKIP are set by `shownStep` (aria_lib.ts), the visibility decision the text model shares.
  // INERT inside an `inert` element, BEHIND outside the open modal dialog: controls there take
  // no input, so their lines say `[inert]` and carry no ref (Chromium's accessibility tree
  // ignores them).
  const NAMED = 1, PTR = 2, HID = 4, PRE = 8, SKIP = 16, INERT = 32, BEHIND = 64;

  // In a skipped `content-visibility: auto` subtree every style query forces style for that
  // element alone (measured: 3.4 s for the 107,000 skipped elements of Node's all.html), so
  // there only static signals decide visibility.
  function visible(el: Element, flags: number): boolean {
    return (flags & SKIP) ? !staticHidden(el) : visibleEl(el);
  }

  function nameIn(el: Element, flags: number): string {
    if (!(flags & SKIP)) return nameOf(el);
    setStaticOnly(true);
    try {
      return nameOf(el);
    } finally {
      setStaticOnly(false);
    }
  }

  // The walk's memos of context texts (context_lib.ts): one per style mode, as what is inline
  // is read from styles, or in skipped subtrees from tags alone.
  let memoShown = new Map<Element, unknown>(), memoStatic = new Map<Element, unknown>();

  function contextIn(el: Element, flags: number, role: string, name: string): [string, string] {
    if (!(flags & SKIP)) return contextOf(el, role, name);
    setStaticOnly(true);
    memoContexts(memoStatic);
    try {
      return contextOf(el, role, name);
    } finally {
      setStaticOnly(false);
      memoContexts(memoShown);
    }
  }

  function snapshot(opts: SnapshotOptions = {}) {
    const o = newOutline(opts.wholeLines === true);
    const refs: Array<SnapshotRef | [number]> = [];
    const walkNo = (api.beginRefs as Fn<[string?, number?, string?], number>)(
      opts.registry,
      opts.ack,
      opts.world,
    );
    const frames: number[] = [];
    const hosts: number[] = [];
    const focused = deepActive();
    // The focused element's id, once the walk gave it a ref (see SnapshotResult.focus).
    let focusId: number | undefined;
    const links = newLinks();
    // The visibility decision's state (`shownStep` of aria_lib.ts), one per walk.
    const walk = { skippingParent: null as Node | null };
    // A heading's section (the root is a heading): the walk stops at the next heading of this
    // level or a higher one (section_lib.ts).
    let stopLevel = 0, stopped = false;
    let root: Element | null = document.body ?? document.documentElement;
    // The lines of targets and structure (walk_lines_lib.ts), over this walk's state.
    const { walkTarget, walkStruct, walkGeneric } = walkLines({
      o,
      refs,
      links,
      focused,
      focus: (id) => {
        focusId = id;
      },
      walkKids,
      walkEl,
      walkRow,
      nameIn,
      contextIn,
    });

    function walkNode(n: Node, depth: number, flags: number) {
      if (stopped) return;
      if (nodeTypeOf(n) === 3) {
        if (!(flags & (NAMED | HID))) o.addText(safe((n as Text).data), depth, (flags & PRE) !== 0);
      } else if (nodeTypeOf(n) === 1) walkEl(n as Element, depth, flags);
    }

    // Sibling pointers rather than `childNodes`: no NodeList per element (the walk's hot path).
    function walkKids(el: Element, depth: number, flags: number) {
      if (localOf(el) === "slot") {
        const assigned = (el as HTMLSlotElement).assignedNodes();
        if (assigned.length) {
          for (const n of assigned) walkNode(n, depth, flags);
          return;
        }
      }
      const parent: Node = shadowOf(el) ?? el;
      for (let n = firstOf(parent); n && !stopped; n = nextOf(n)) walkNode(n, depth, flags);
    }

    // The rest of a heading's section after the heading: its following flat-tree siblings, then
    // its ancestors' following siblings, up to its nearest sectioning ancestor.
    function walkSectionAfter(heading: Element) {
      let n: Node = heading;
      for (let up = flatParent(n); up && !stopped; n = up, up = flatParent(up)) {
        const kids = childNodesOf(up);
        let i = 0;
        while (i < kids.length && kids[i] !== n) i++;
        for (i++; i < kids.length && !stopped; i++) walkNode(kids[i]!, 0, 0);
        if (sectionBoundary(up) || up === document.body || up === document.documentElement) break;
      }
    }

    // A row is one line, `| a | b | button "Edit" [ref=#3] |` (outline_lib.ts foldRow); a row
    // that is a target itself (a clickable or focusable row) leads with `- row [ref=#N]`, its
    // content standing for its name; a row's states lead it too (`- row [level=2] [expanded]`).
    function walkRow(el: Element, depth: number, flags: number, target = false) {
      const start = o.size();
      const cells: Array<[number, number, number]> = [];
      const kids = childNodesOf(el);
      let prefix = "";
      const level = attrOf(el, "aria-level");
      const st = (level ? ` [level=${level}]` : "") + statesOf(el, "row", focused);
      if (target) {
        const id = idOf(el);
        const name = nameIn(el, flags);
        refs.push(refTuple(el, [id, "row", name, ...contextIn(el, flags, "row", name)]));
        if (el === focused) focusId = id;
        prefix = `- row [ref=#${id}]${st}`;
        flags |= PTR;
      } else if (st) prefix = "- row" + st;
      for (let i = 0; i < kids.length && !stopped; i++) {
        const c = kids[i]!;
        if (nodeTypeOf(c) !== 1) continue;
        const ce = c as Element;
        const explicit = attrOf(ce, "role") ?? "";
        if (!CELL_TAGS.has(localOf(ce)) && !CELL_ROLES.has(explicit)) {
          walkEl(ce, depth + 1, flags);
          continue;
        }
        if (attrOf(ce, "aria-hidden") === "true" || !visible(ce, flags)) continue;
        const s = o.size();
        walkKids(ce, depth + 1, flags);
        const role = explicit || roleOf(ce);
        // A sorted column says so after its content: `| button "Name" [ref=e2] [sort=ascending]`.
        const sort = role === "columnheader" || role === "rowheader"
          ? attrOf(ce, "aria-sort")
          : null;
        if (sort && SORTS.has(sort)) o.addText(` [sort=${sort}]`, depth + 1, false);
        cells.push([s, o.size(), role === "columnheader" ? 1 : role === "rowheader" ? 2 : 0]);
      }
      if (o.size() > start || prefix) o.foldRow(start, depth, cells, prefix);
    }

    function walkEl(el: Element, depth: number, flags: number): void {
      const tag = localOf(el);
      if (SKIP_TAGS.has(tag)) return;
      if (tag === "slot") return walkKids(el, depth, flags);
      if (tag === "br") {
        if (flags & PRE) o.addText("\n", depth, true);
        else o.flush();
        return;
      }
      const shown = shownStep(el, flags, walk);
      if (shown < 0) return;
      flags = shown;
      if (hasAttrOf(el, "inert")) flags |= INERT;
      if ((flags & BEHIND) && tag === "dialog" && matchesOf(el, ":modal")) flags &= ~BEHIND;
      if (stopLevel && el !== root && !(flags & HID)) {
        const level = headingLevel(el);
        if (level && level <= stopLevel) {
          stopped = true;
          return;
        }
      }
      // A custom element, or an empty `div`, may hold a closed shadow root: CDP checks
      // (snapshot/closed_hosts.ts).
      if (hosts.length < MAX_HOSTS && hostUnchecked(el, tag)) hosts.push(idOf(el));
      let cs: CSSStyleDeclaration | undefined;
      const role = roleOf(el);
      const hid = (flags & HID) !== 0;
      let ref = false;
      let stateEl = el;
      if (!hid) {
        if (WIDGETS.has(role) || isEditableRoot(el)) ref = true;
        else if (!(flags & PTR)) {
          ref = clickHandler(el) ||
            (!(flags & SKIP) && !NO_CURSOR_TAGS.has(tag) &&
              (cs ??= getComputedStyle(el)).cursor === "pointer");
        }
      }
      if (tag === "label" && !hid) {
        const control = (el as HTMLLabelElement).control;
        if (control) {
          // A visible control carries the label's text in its name; a hidden one (a styled
          // checkbox) is operated through its label, which then gets the ref and its states.
          if (visible(control, flags)) {
            if (!hasAttrOf(control, "aria-label") && !hasAttrOf(control, "aria-labelledby")) {
              flags |= NAMED;
            }
            return walkGeneric(el, depth, flags | PTR);
          }
          ref = !(flags & PTR);
          stateEl = control;
        }
      }
      if (tag === "iframe" || tag === "frame") {
        if (hid) return;
        // A ref too: it scopes a snapshot to the frame and lets actions scroll or shoot it.
        const id = idOf(el);
        const name = nameIn(el, flags);
        frames.push(id);
        refs.push(refTuple(el, [id, "iframe", name, ...contextIn(el, flags, "iframe", name)]));
        if (el === focused) focusId = id;
        // Another site's frame says whose it is: its content is not the page's.
        const src = (el as HTMLIFrameElement).src ?? "";
        let from = "";
        try {
          const o2 = src ? new URL(src).origin : "";
          if (o2 && o2 !== "null" && o2 !== location.origin) from = " " + safe(o2);
        } catch { /* not a URL */ }
        o.node(depth, `- iframe${q(name)} [ref=#${id}] [frame=#${id}]${from}`, "", 1);
        return;
      }
      if (ref && role === "row") return walkRow(el, depth, flags, true);
      if (ref) return walkTarget(el, depth, flags, stateEl);
      // A progress bar or meter named by the label around it keeps its line (the label's text,
      // NAMED, is its name): it was lost with the label's text.
      const named = (flags & NAMED) !== 0 && role !== "progressbar" && role !== "meter";
      if (!hid && !named && STRUCT.has(role)) return walkStruct(el, role, depth, flags);
      if (role === "row") return walkRow(el, depth, flags);
      if (LEAF_TAGS.has(tag)) return;
      walkGeneric(el, depth, flags);
    }

    // The header row of `row`'s table: its first row whose cells are all column headers
    // (`<th>`s of a `<thead>` row, `role=columnheader`), unless `row` is one.
    function headerRowOf(row: Element): Element | null {
      const TABLE = "table, [role=table], [role=grid], [role=treegrid]";
      const isHeader = (r: Element) => {
        let cells = 0;
        for (let n = firstOf(r); n; n = nextOf(n)) {
          if (nodeTypeOf(n) !== 1) continue;
          const c = n as Element;
          const role = attrOf(c, "role");
          if (
            localOf(c) === "td" || role === "cell" || role === "gridcell" || role === "rowheader"
          ) {
            return false;
          }
          if (localOf(c) === "th" || role === "columnheader") cells++;
        }
        return cells > 0;
      };
      if (isHeader(row)) return null;
      const table = closestOf(row, TABLE);
      if (!table) return null;
      for (const r of qsaOf(table, "tr, [role=row]")) {
        if (r === row) return null;
        if (closestOf(r, TABLE) === table && isHeader(r)) return r;
      }
      return null;
    }

    if (opts.rootId !== undefined) {
      root = element(opts.rootId);
      if (!root) throw new Error(`element #${opts.rootId} is gone`);
    }
    // Behind an open modal dialog from the start; a scoped walk starts as its root is.
    let start = document.querySelector("dialog:modal") ? BEHIND : 0;
    if (opts.rootId !== undefined && root) {
      const why = inertOf(root);
      start = why.startsWith("behind") ? BEHIND : why ? INERT : 0;
    }
    cacheLabels(true);
    memoContexts(memoShown = new Map());
    memoStatic = new Map();
    try {
      if (opts.rootId !== undefined) {
        // A table row alone: its table's header row first, or its numbers mean nothing.
        const head = roleOf(root!) === "row" ? headerRowOf(root!) : null;
        if (head) walkRow(head, 0, start);
        walkEl(root!, 0, start);
        stopLevel = headingLevel(root!);
        if (stopLevel) walkSectionAfter(root!);
      } else if (root) walkKids(root, 0, start);
    } finally {
      cacheLabels(false);
      memoContexts(null);
      // Held no longer than the walk: the page's elements it names may go.
      memoShown.clear();
      memoStatic.clear();
    }
    return {
      text: o.render(),
      refs,
      walk: walkNo,
      frames,
      instance: api.instance as string,
      hosts,
      ...(focusId !== undefined ? { focus: focusId } : {}),
    };
  }

  api.snapshot = snapshot;
}
