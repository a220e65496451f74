/// <reference lib="dom" />
/**
 * Page-side snapshot walker: one pass over the flat tree (open shadow roots
 * in place) of a frame's document in browxai's isolated world, producing
 * the outline the agent reads. Roles and names come from
 * {@link installAriaLib}.
 *
 * Output format (one line per meaningful node, 2 spaces per depth):
 *
 * ```
 * - heading "Intro" [level=2]
 * Plain visible text of a paragraph, runs of inline elements joined.
 * - link "Docs" [ref=#12] /docs
 * - textbox "Name" [ref=#13] [required]: current value
 * - checkbox "Remember" [ref=#14] [checked]
 * - combobox "Color" [ref=#15]: Green
 *   - options: "Red", "Green", "Blue"
 * - table
 *   | Flag | Meaning |
 * - iframe "Payment" [frame=#16]
 * ```
 *
 * `#N` placeholders are page-local element ids; the Deno side
 * (`tools/snapshot/capture.ts`) turns `[ref=#N]` into global refs `eN` and
 * splices each `[frame=#N]` frame's own snapshot under its line.
 *
 * @module
 */
import { installAriaLib } from "./aria_lib.ts";

/**
 * Adds to the utility api (needs the helpers of {@link installAriaLib},
 * which this part installs first):
 * - `idOf(el): number`: a stable page-local id per element (WeakMap; never reused).
 * - `element(id, instance?): Element | null`: the element of an id, or null when
 *   it is gone, disconnected, or `instance` names another world (ids restart
 *   when the isolated world is recreated).
 * - `instance: string`: this world's random token.
 * - `snapshot({ rootId? }) → { text, refs: [id, role, name][], frames: id[], instance }`;
 *   throws when `rootId` is gone.
 * - `describe(id, instance?) → { role, name, editable } | null`: what the
 *   element of a ref is now, to check a ref still names the same thing.
 * - `refRole(el): string`: the role a ref line shows for a targetable element.
 * - `refState(id, instance) → { state: "ok", role, name, editable } | { state: "gone" }
 *   | { state: "world" }`: like `describe`, telling a replaced world apart.
 *
 * Sent as source text (see `tools/injected/mod.ts`): its `toString` is
 * overridden to carry {@link installAriaLib} along, so the injected text is
 * self-contained.
 */
export function installSnapshotLib(api: Record<string, unknown>): void {
  installAriaLib(api);
  installWalker(api);
}
installSnapshotLib.toString = () =>
  `function installSnapshotLib(api) {\n(${installAriaLib.toString()})(api);\n(${installWalker.toString()})(api);\n}`;

/** The walker proper; see {@link installSnapshotLib}. Self-contained source. */
export function installWalker(api: Record<string, unknown>): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const nameFromContent = api.nameFromContent as Fn<[Element, string], boolean>;
  const isInline = api.isInline as Fn<[Element], boolean>;
  const childNodesOf = api.childNodesOf as Fn<[Element], ArrayLike<Node>>;
  const cacheLabels = api.cacheLabels as Fn<[boolean], void>;
  const staticHidden = api.staticHidden as Fn<[Element], boolean>;
  const setStaticOnly = api.setStaticOnly as Fn<[boolean], void>;

  const ids = new WeakMap<Element, number>();
  const elements = new Map<number, WeakRef<Element>>();
  let next = 1;
  const instance = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

  function idOf(el: Element): number {
    let id = ids.get(el);
    if (id === undefined) {
      id = next++;
      ids.set(el, id);
      elements.set(id, new WeakRef(el));
    }
    return id;
  }

  function element(id: number, inst?: string): Element | null {
    if (inst !== undefined && inst !== instance) return null;
    const el = elements.get(id)?.deref();
    return el && el.isConnected ? el : null;
  }

  // Dropping dead WeakRefs now and then keeps the map from growing on long-lived SPAs.
  function sweep() {
    if (elements.size < 20000) return;
    for (const [id, ref] of elements) if (!ref.deref()) elements.delete(id);
  }

  const SKIP_TAGS = new Set(
    ("script style template noscript head meta link title datalist option optgroup param " +
      "source track base caption legend area map").split(" "),
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
  // Struct roles that show a name.
  const NAMED_STRUCT = new Set(
    ("heading navigation main banner contentinfo complementary region search form dialog " +
      "alertdialog img table group radiogroup tablist tabpanel menu menubar toolbar tree " +
      "treegrid grid article").split(" "),
  );
  // A line only when it groups two or more lines; one child line is hoisted in its place.
  const CONDITIONAL = new Set(["listitem", "group", "article"]);
  // Their child lines are items: never fold the first one into the container's line.
  const ITEM_CONTAINERS = new Set(
    ("list table menu menubar tablist tree treegrid grid radiogroup toolbar feed navigation " +
      "main banner contentinfo complementary region form search").split(" "),
  );
  const CELL_TAGS = new Set(["td", "th"]);
  const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  const TEXT_ENTRY = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
  const VIS = { visibilityProperty: true };
  const VIS_AUTO = { visibilityProperty: true, contentVisibilityAuto: true };
  // Walk flags: NAMED text is the parent's name (not repeated); PTR inside a target or an
  // element with a pointer cursor; HID visibility:hidden; PRE preformatted; SKIP inside a
  // subtree that `content-visibility: auto` skips (off-screen sections of long pages).
  const NAMED = 1, PTR = 2, HID = 4, PRE = 8, SKIP = 16;
  const INDENTS = [""];

  function indent(d: number): string {
    while (INDENTS.length <= d) INDENTS.push(INDENTS[INDENTS.length - 1] + "  ");
    return INDENTS[d]!;
  }

  function q(name: string): string {
    return name ? ` "${safe(name).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : "";
  }

  // Page text must not forge the placeholders the Deno side replaces (`[ref=#3]`, `[frame=#3]`).
  function safe(s: string): string {
    return s.indexOf("=#") < 0 ? s : s.replace(/\[(ref|frame)=#/g, "[$1=\\#");
  }

  function isEditableRoot(el: Element): boolean {
    // The attribute first: `isContentEditable` needs style.
    const ce = el.getAttribute("contenteditable");
    if (ce === null || ce === "false") return false;
    const h = el as HTMLElement;
    return !!h.isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable;
  }

  // In a skipped `content-visibility: auto` subtree every style query forces style for that
  // element alone (measured: 3.4 s for the 107,000 skipped elements of Node's all.html), so
  // there only static signals decide visibility, and no cursor is read.
  function visible(el: Element, flags: number): boolean {
    return (flags & SKIP) ? !staticHidden(el) : el.checkVisibility();
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

  function refRole(el: Element): string {
    return roleOf(el) || (isEditableRoot(el) ? "textbox" : "generic");
  }

  function deepActive(): Element | null {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  function attrTrue(el: Element, name: string): boolean {
    return el.getAttribute(name) === "true";
  }

  function states(el: Element, role: string, focused: Element | null): string {
    let s = "";
    const tag = el.localName;
    if (
      role === "checkbox" || role === "radio" || role === "switch" ||
      role === "menuitemcheckbox" || role === "menuitemradio"
    ) {
      const ac = el.getAttribute("aria-checked");
      if (tag === "input" && ac === null) {
        const i = el as HTMLInputElement;
        if (i.indeterminate) s += " [mixed]";
        else if (i.checked) s += " [checked]";
      } else if (ac === "true") s += " [checked]";
      else if (ac === "mixed") s += " [mixed]";
    }
    if (role === "heading") {
      s += ` [level=${el.getAttribute("aria-level") || (/^h\d$/.test(tag) ? tag[1] : "2")}]`;
    }
    if (attrTrue(el, "aria-disabled") || ("disabled" in el && el.matches(":disabled"))) {
      s += " [disabled]";
    }
    const ex = el.getAttribute("aria-expanded");
    if (ex === "true") s += " [expanded]";
    else if (ex === "false") s += " [collapsed]";
    else if (tag === "summary" && el.parentElement?.localName === "details") {
      s += (el.parentElement as HTMLDetailsElement).open ? " [expanded]" : " [collapsed]";
    }
    if (attrTrue(el, "aria-selected")) s += " [selected]";
    const pr = el.getAttribute("aria-pressed");
    if (pr === "true") s += " [pressed]";
    else if (pr === "mixed") s += " [pressed=mixed]";
    if ((el as HTMLInputElement).required || attrTrue(el, "aria-required")) s += " [required]";
    if (
      TEXT_ENTRY.has(role) && ((el as HTMLInputElement).readOnly || attrTrue(el, "aria-readonly"))
    ) {
      s += " [readonly]";
    }
    const cur = el.getAttribute("aria-current");
    if (cur && cur !== "false") s += " [current]";
    if (attrTrue(el, "aria-modal") || (tag === "dialog" && el.matches(":modal"))) s += " [modal]";
    if (el === focused) s += " [focused]";
    return s;
  }

  function valueOf(el: Element, role: string): string {
    const tag = el.localName;
    let v = "";
    if (tag === "input") {
      const i = el as HTMLInputElement;
      // A password's value never leaves the page.
      if (i.type === "password" || role === "checkbox" || role === "radio" || role === "button") {
        if (i.type !== "file") return "";
      }
      v = i.type === "file" ? [...(i.files ?? [])].map((f) => f.name).join(", ") : i.value;
    } else if (tag === "textarea") v = (el as HTMLTextAreaElement).value;
    else if (tag === "select") {
      v = [...(el as HTMLSelectElement).selectedOptions].map((o) => o.text.trim()).join(", ");
    } else if (tag === "progress" || tag === "meter") {
      const p = el as HTMLProgressElement;
      v = p.value + "/" + p.max;
    } else if (
      role === "slider" || role === "spinbutton" || role === "progressbar" ||
      role === "meter"
    ) {
      v = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow") ?? "";
    }
    return v ? ": " + safe(v).replace(/\r?\n/g, "\\n") : "";
  }

  function snapshot(opts: { rootId?: number } = {}) {
    sweep();
    const out: string[] = []; // line texts, without indentation
    const depths: number[] = [];
    const kinds: number[] = []; // 0 text, 1 node, 2 node with ref, 3 table row
    const names: string[] = [];
    const refs: Array<[number, string, string]> = [];
    const frames: number[] = [];
    const focused = deepActive();
    const origin = location.origin;
    const docPath = location.href.split("#")[0]!;
    let run = "";
    let runDepth = 0;
    let runPre = false;
    const seenLinks = new Set<string>();
    let skippingParent: Node | null = null;

    function add(depth: number, text: string, kind: number, name: string) {
      out.push(text);
      depths.push(depth);
      kinds.push(kind);
      names.push(name);
    }

    function removeFrom(i: number) {
      out.length =
        depths.length =
        kinds.length =
        names.length =
          i;
    }

    function removeAt(i: number) {
      out.splice(i, 1);
      depths.splice(i, 1);
      kinds.splice(i, 1);
      names.splice(i, 1);
    }

    function pushText(depth: number, t: string) {
      const last = out.length - 1;
      // A label right after its control repeats the control's name.
      if (last >= 0 && kinds[last] === 2 && depths[last] === depth && names[last] === t) return;
      // Keep text that looks like a node line or a table row from being read as one.
      if (t.startsWith("- ") || t[0] === "|") t = "- text: " + t;
      add(depth, t, 0, "");
    }

    function flush() {
      if (!run) return;
      const r = run;
      run = "";
      if (runPre) {
        for (const l of r.split("\n")) if (l.trim()) pushText(runDepth, l.replace(/\s+$/, ""));
      } else {
        const t = r.replace(/\s+/g, " ").trim();
        if (t) pushText(runDepth, t);
      }
    }

    function addText(s: string, depth: number, pre: boolean) {
      if (run && (depth !== runDepth || pre !== runPre)) flush();
      runDepth = depth;
      runPre = pre;
      run += s;
    }

    function pushNode(depth: number, text: string, name: string, kind: number): number {
      flush();
      const last = out.length - 1;
      // A `<label for>` just before its control repeats the control's name.
      if (
        kind === 2 && name && last >= 0 && kinds[last] === 0 && depths[last] === depth &&
        out[last] === name
      ) removeFrom(last);
      add(depth, text, kind, name);
      return out.length - 1;
    }

    // After a node's children: drop a conditional node that groups fewer than two lines (its
    // child takes its place), else fold a first text child into the node line
    // (`- status: Ready`, `- listitem: text` followed by the item's other lines).
    function finish(idx: number, depth: number, conditional: boolean, canMerge: boolean) {
      flush();
      if (conditional) {
        let direct = 0;
        for (let i = idx + 1; i < out.length && direct < 2; i++) {
          if (depths[i] === depth + 1) direct++;
        }
        if (direct < 2) {
          removeAt(idx);
          for (let i = idx; i < out.length; i++) depths[i]!--;
          return;
        }
      }
      const t = out[idx + 1];
      if (t === undefined || kinds[idx + 1] !== 0 || depths[idx + 1] !== depth + 1) return;
      // Text that only repeats the node's name (a dialog titled by its own first line) goes.
      if (t === names[idx]) removeAt(idx + 1);
      else if (canMerge) {
        out[idx] += ": " + (t.startsWith("- text: ") ? t.slice(8) : t);
        removeAt(idx + 1);
      }
    }

    function selfAnchor(el: Element, url: string): boolean {
      if (url[0] !== "#") return false;
      let target: Element | null = null;
      try {
        target = document.getElementById(decodeURIComponent(url.slice(1)));
      } catch {
        return false;
      }
      return !!target && (target === el || target.contains(el));
    }

    function urlOf(el: Element): string {
      const raw = el.getAttribute("href");
      if (raw === null) return "";
      const h = (el as HTMLAnchorElement).href;
      if (typeof h !== "string" || !h) return raw;
      // `#` and `javascript:` links are script-driven: their URL says nothing.
      if (raw === "#" || h.startsWith("javascript:")) return "";
      if (h.startsWith("data:")) {
        return h.length > 40 ? h.slice(0, 40) + "…" : h;
      }
      if (origin !== "null" && h.startsWith(origin + "/")) {
        const hash = h.indexOf("#");
        if (hash >= 0 && h.slice(0, hash) === docPath) return h.slice(hash);
        return h.slice(origin.length);
      }
      return h;
    }

    function walkNode(n: Node, depth: number, flags: number) {
      if (n.nodeType === 3) {
        if (!(flags & (NAMED | HID))) addText(safe((n as Text).data), depth, (flags & PRE) !== 0);
      } else if (n.nodeType === 1) walkEl(n as Element, depth, flags);
    }

    // Sibling pointers rather than `childNodes`: no NodeList per element (the walk's hot path).
    function walkKids(el: Element, depth: number, flags: number) {
      if (el.localName === "slot") {
        const assigned = (el as HTMLSlotElement).assignedNodes();
        if (assigned.length) {
          for (const n of assigned) walkNode(n, depth, flags);
          return;
        }
      }
      const parent: Node = el.shadowRoot ?? el;
      for (let n = parent.firstChild; n; n = n.nextSibling) walkNode(n, depth, flags);
    }

    function walkSelect(el: HTMLSelectElement, depth: number) {
      const opts = el.options;
      if (!opts.length) return;
      const shown: string[] = [];
      for (let i = 0; i < opts.length && i < 100; i++) shown.push(q(opts[i]!.text.trim()).slice(1));
      const more = opts.length > 100 ? `, … ${opts.length - 100} more` : "";
      add(depth, "- options: " + shown.join(", ") + more, 1, "");
    }

    function walkRow(el: Element, depth: number, flags: number) {
      flush();
      const start = out.length;
      const cells: Array<[number, number]> = [];
      const kids = childNodesOf(el);
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i]!;
        if (c.nodeType !== 1) continue;
        const ce = c as Element;
        const isCell = CELL_TAGS.has(ce.localName) || CELL_ROLES.has(ce.getAttribute("role") ?? "");
        if (!isCell) {
          walkEl(ce, depth + 1, flags);
          flush();
          continue;
        }
        if (ce.getAttribute("aria-hidden") === "true" || !visible(ce, flags)) continue;
        const s = out.length;
        walkKids(ce, depth + 1, flags);
        flush();
        cells.push([s, out.length]);
      }
      if (!cells.length && out.length === start) return;
      const simple = out.length === cells.reduce((a, [s, e]) => a + (e - s), start) &&
        kinds.slice(start).every((k) => k === 0);
      if (simple) {
        const texts = cells.map(([s, e]) => out.slice(s, e).join(" ").replace(/\|/g, "\\|"));
        removeFrom(start);
        add(depth, "| " + texts.join(" | ") + " |", 3, "");
        return;
      }
      // Cells that hold controls or several lines: a row node, a cell node where needed.
      for (let c = cells.length - 1; c >= 0; c--) {
        const [s, e] = cells[c]!;
        if (e - s < 2) continue;
        for (let i = s; i < e; i++) depths[i]!++;
        out.splice(s, 0, "- cell");
        depths.splice(s, 0, depth + 1);
        kinds.splice(s, 0, 1);
        names.splice(s, 0, "");
      }
      out.splice(start, 0, "- row");
      depths.splice(start, 0, depth);
      kinds.splice(start, 0, 1);
      names.splice(start, 0, "");
    }

    function walkEl(el: Element, depth: number, flags: number): void {
      const tag = el.localName;
      if (SKIP_TAGS.has(tag)) return;
      if (tag === "slot") return walkKids(el, depth, flags);
      if (tag === "br") {
        if (flags & PRE) addText("\n", depth, true);
        else flush();
        return;
      }
      if (el.getAttribute("aria-hidden") === "true") return;
      let cs: CSSStyleDeclaration | undefined;
      if (!(flags & SKIP) && el.parentNode === skippingParent) flags |= SKIP;
      if (flags & SKIP) {
        if (staticHidden(el)) return;
      } else if (el.checkVisibility(VIS_AUTO)) flags &= ~HID;
      else if (el.checkVisibility(VIS)) {
        // Rendered, but inside a subtree `content-visibility: auto` skips (off-screen): so are
        // its siblings, which then skip this (forcing) test.
        skippingParent = el.parentNode;
        flags = (flags & ~HID) | SKIP;
      } else if (el.checkVisibility()) flags |= HID; // visibility:hidden; children may show again
      else if ((cs = getComputedStyle(el)).display !== "contents") return; // not rendered at all
      const role = roleOf(el);
      const hid = (flags & HID) !== 0;
      let ref = false;
      if (!hid) {
        if (WIDGETS.has(role) || isEditableRoot(el)) ref = true;
        else if (!(flags & (PTR | SKIP))) {
          const tab = el.getAttribute("tabindex");
          if (el.hasAttribute("onclick") || (tab !== null && Number(tab) >= 0)) ref = true;
          else if (tag !== "label" && (cs ??= getComputedStyle(el)).cursor === "pointer") {
            ref = true;
          }
        } else if (flags & SKIP) {
          const tab = el.getAttribute("tabindex");
          if (el.hasAttribute("onclick") || (tab !== null && Number(tab) >= 0)) ref = true;
        }
      }
      if (tag === "label" && !hid) {
        const control = (el as HTMLLabelElement).control;
        if (control) {
          // A visible control carries the label's text in its name; a hidden one (a styled
          // checkbox) is operated through its label, which then gets the ref.
          if (visible(control, flags)) {
            if (!control.hasAttribute("aria-label") && !control.hasAttribute("aria-labelledby")) {
              flags |= NAMED;
            }
            return walkGeneric(el, depth, flags | PTR);
          }
          ref = !(flags & PTR);
        }
      }
      if (tag === "iframe" || tag === "frame") {
        if (hid) return;
        // A ref too: it scopes a snapshot to the frame and lets actions scroll or shoot it.
        const id = idOf(el);
        const name = nameIn(el, flags);
        frames.push(id);
        refs.push([id, "iframe", name]);
        pushNode(depth, `- iframe${q(name)} [ref=#${id}] [frame=#${id}]`, "", 1);
        return;
      }
      if (ref) {
        const id = idOf(el);
        const r = refRole(el);
        const name = nameIn(el, flags);
        refs.push([id, r, name]);
        const st = states(el, r, focused);
        const url = r === "link" ? urlOf(el) : "";
        if (r === "link" && !st) {
          // Links join the text they sit in, markdown style: far fewer tokens than a line each,
          // and prose stays readable. Text inside is the name; nested controls still get lines.
          // A URL shown once for a link text is not repeated (the same text and URL appear
          // hundreds of times on reference pages); a permalink to itself shows none.
          let shown = url;
          if (url) {
            const key = name + "\u0000" + url;
            if (seenLinks.has(key) || selfAnchor(el, url)) shown = "";
            else seenLinks.add(key);
          }
          const label = `[${safe(name)}]${shown ? `(${safe(shown)})` : ""}[ref=#${id}]`;
          addText(label, depth, (flags & PRE) !== 0);
          return walkKids(el, depth, flags | PTR | NAMED);
        }
        const value = valueOf(el, r);
        const line = `- ${r}${q(name)} [ref=#${id}]${st}${url ? " " + url : ""}${value}`;
        const idx = pushNode(depth, line, name, 2);
        if (tag === "select") return walkSelect(el as HTMLSelectElement, depth + 1);
        if (tag === "input" || tag === "textarea" || tag === "svg" || tag === "img") return;
        walkKids(el, depth + 1, flags | PTR | (nameFromContent(el, r) ? NAMED : 0));
        return finish(idx, depth, false, !value);
      }
      if (!hid && !(flags & NAMED) && STRUCT.has(role)) {
        if (role === "row") return walkRow(el, depth, flags);
        const name = NAMED_STRUCT.has(role) ? nameIn(el, flags) : "";
        if (role === "img" || tag === "svg") {
          if (name) pushNode(depth, `- img${q(name)}`, name, 1);
          return;
        }
        if (role === "group" && !name) return walkGeneric(el, depth, flags);
        // An unnamed list has no line: its items read as lines by themselves (an item of
        // several lines gets a `- listitem` line), which saves a line and a level per list.
        if (role === "list" && !name) return walkGeneric(el, depth, flags);
        const value = valueOf(el, role);
        let line = `- ${role}${q(name)}`;
        if (role === "dialog" || role === "alertdialog") {
          // Dialogs get a ref so a snapshot can be scoped to one.
          const id = idOf(el);
          refs.push([id, role, name]);
          line += ` [ref=#${id}]`;
        }
        line += states(el, role, focused) + value;
        const idx = pushNode(depth, line, name, 1);
        const named = role === "heading" && nameFromContent(el, role);
        walkKids(el, depth + 1, flags | (named ? NAMED : 0));
        return finish(
          idx,
          depth,
          CONDITIONAL.has(role) && !name,
          !value && !ITEM_CONTAINERS.has(role),
        );
      }
      if (role === "row") return walkRow(el, depth, flags);
      if (
        tag === "svg" || tag === "img" || tag === "input" || tag === "textarea" ||
        tag === "select" || tag === "video" || tag === "audio" || tag === "canvas" ||
        tag === "object" || tag === "embed"
      ) return;
      walkGeneric(el, depth, flags);
    }

    function walkGeneric(el: Element, depth: number, flags: number) {
      const block = !isInline(el);
      if (block) flush();
      if (el.localName === "pre") flags |= PRE;
      if (el.localName === "details" && !(el as HTMLDetailsElement).open) {
        const summary = [...el.children].find((c) => c.localName === "summary");
        if (summary) walkEl(summary, depth, flags);
      } else walkKids(el, depth, flags);
      if (block) flush();
    }

    let root: Element | null = document.body ?? document.documentElement;
    if (opts.rootId !== undefined) {
      root = element(opts.rootId);
      if (!root) throw new Error(`element #${opts.rootId} is gone`);
    }
    cacheLabels(true);
    try {
      if (opts.rootId !== undefined) walkEl(root!, 0, 0);
      else if (root) walkKids(root, 0, 0);
      flush();
    } finally {
      cacheLabels(false);
    }
    let text = "";
    for (let i = 0; i < out.length; i++) text += (i ? "\n" : "") + indent(depths[i]!) + out[i];
    return { text, refs, frames, instance };
  }

  function describe(id: number, inst?: string) {
    const el = element(id, inst);
    if (!el) return null;
    const role = refRole(el);
    return { role, name: nameOf(el), editable: TEXT_ENTRY.has(role) || isEditableRoot(el) };
  }

  // For ref resolution: distinguishes "another world" (the document or world was replaced)
  // from "element gone", and reports what the element is now.
  function refState(id: number, inst: string) {
    if (inst !== instance) return { state: "world" };
    const d = describe(id);
    return d ? { state: "ok", ...d } : { state: "gone" };
  }

  api.idOf = idOf;
  api.refState = refState;
  api.element = element;
  api.instance = instance;
  api.snapshot = snapshot;
  api.describe = describe;
  api.refRole = refRole;
}
