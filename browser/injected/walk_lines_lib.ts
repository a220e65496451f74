/// <reference lib="dom" />
/**
 * Page-side snapshot lines of targets and structure, for the walk of `walker_lib.ts`: a
 * control's line (`- button "Save" [ref=#3]`, its states, value and hint; a link inline in its
 * text, markdown style), headings (`### Title`), landmarks, lists, dialogs and other named
 * structure, and generic containers whose content is hoisted. See `snapshot_lib.ts` for the
 * format.
 *
 * Sent as source text: {@link installWalkLinesLib} must not use anything from its module
 * scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { SnapshotRef, WalkLines, WalkScope } from "./page_types.ts";

/**
 * Adds `walkLines(scope) → { walkTarget, walkStruct, walkGeneric }` to the utility api: the
 * line writers of one snapshot walk, over the walk's outline, refs and links (`scope`), calling
 * back into the walk for an element's children, a row, and the name and context of an element
 * (static checks only inside skipped content).
 */
export function installWalkLinesLib(api: PageApi): void {
  const { localOf, attrOf, textContentOf, childrenOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const nameFromContent = api.nameFromContent as Fn<[Element, string], boolean>;
  const isInline = api.isInline as Fn<[Element, string?], boolean>;
  const q = api.quote as Fn<[string], string>;
  const safe = api.safeText as Fn<[string], string>;
  const idOf = api.idOf as Fn<[Element], number>;
  const refRole = api.refRole as Fn<[Element], string>;
  const isEditableRoot = api.isEditableRoot as Fn<[Element], boolean>;
  const statesOf = api.statesOf as Fn<[Element, string, Element | null], string>;
  const valueText = api.valueText as Fn<[Element, string], string>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const hintOf = api.hintOf as Fn<[Element], string>;
  const refTuple = api.refTuple as Fn<[Element, SnapshotRef], SnapshotRef | [number]>;
  const scrollMark = api.scrollMark as Fn<[Element], string>;
  const drawnText = api.drawnText as Fn<[Element, string], string>;
  const linkMayLie = api.linkMayLie as Fn<[Element], boolean>;

  const LEAF_TAGS = new Set(
    "svg img input textarea select video audio canvas object embed".split(" "),
  );
  // Roles named by their content unless a label overrides it: the drawn text is then checked.
  const LABEL_OVER_TEXT = new Set(
    "button checkbox menuitem menuitemcheckbox menuitemradio option radio switch tab treeitem"
      .split(" "),
  );
  // Struct roles that show a name.
  const NAMED_STRUCT = new Set(
    ("heading navigation main banner contentinfo complementary region search form dialog " +
      "alertdialog img table group radiogroup tablist tabpanel menu menubar toolbar tree " +
      "treegrid grid article progressbar meter").split(" "),
  );
  // A line only when it groups two or more lines; one child line is hoisted in its place.
  const CONDITIONAL = new Set(["listitem", "group", "article"]);
  // Their child lines are items: never fold the first one into the container's line.
  const ITEM_CONTAINERS = new Set(
    ("list table menu menubar tablist tree treegrid grid radiogroup toolbar feed navigation " +
      "main banner contentinfo complementary region form search").split(" "),
  );
  // The walk's flags (walker_lib.ts) these lines read or set.
  const NAMED = 1, PTR = 2, PRE = 8, SKIP = 16, INERT = 32, BEHIND = 64;

  function walkLines(scope: WalkScope): WalkLines {
    const { o, refs, links, focused, focus, walkKids, walkEl, walkRow, nameIn, contextIn } = scope;

    function walkSelect(el: HTMLSelectElement, depth: number) {
      const opts = el.options;
      if (!opts.length) return;
      const shown: string[] = [];
      for (let i = 0; i < opts.length && i < 100; i++) shown.push(q(opts[i]!.text.trim()).slice(1));
      const more = opts.length > 100 ? `, … ${opts.length - 100} more` : "";
      o.raw(depth, "- options: " + shown.join(", ") + more);
    }

    function walkTarget(el: Element, depth: number, flags: number, stateEl: Element) {
      const tag = localOf(el);
      const id = idOf(el);
      const r = refRole(el);
      const name = nameIn(el, flags);
      const inert = (flags & (INERT | BEHIND)) !== 0;
      // A field's own scrolling (a textarea) hides nothing: its value is on the line.
      const mark = LEAF_TAGS.has(tag) || (flags & SKIP) ? "" : scrollMark(el);
      const st = statesOf(stateEl, stateEl === el ? r : roleOf(stateEl), focused) +
        (inert ? " [inert]" : "") + mark;
      // A heading's own `#` link: no line, no ref (a selector still reaches it).
      if (r === "link" && !st && links.isPermalink(el, name)) return;
      // An inert control's line has no ref: an action on it would do nothing.
      const refText = inert ? "" : ` [ref=#${id}]`;
      if (!inert) refs.push(refTuple(el, [id, r, name, ...contextIn(el, flags, r, name)]));
      if (!inert && (el === focused || stateEl === focused)) focus(id);
      const url = r === "link" ? links.urlOf(el) : "";
      const fromContent = nameFromContent(el, r);
      // A link whose drawn words are not its name is a line, to show them (a name from a label,
      // or a link the cheap pre-check cannot clear: drawnText is ~35 µs a link).
      const linkDrawn = r === "link" && !(flags & SKIP) && (!fromContent || linkMayLie(el))
        ? drawnText(el, name)
        : "";
      if (r === "link" && !st && !linkDrawn) {
        // Links join the text they sit in, markdown style: far fewer tokens than a line each,
        // and prose stays readable. Text inside is the name; nested controls still get lines.
        const shown = links.shownUrl(el, name, url);
        const label = `[${safe(name)}]${shown ? `(${safe(shown)})` : ""}${refText.trim()}`;
        o.addText(label, depth, (flags & PRE) !== 0);
        return walkKids(el, depth, flags | PTR | NAMED);
      }
      const value = valueText(el, r);
      // An unnamed control (an icon button, a bare checkbox) gets a hint of
      // what it is from its id or first class: "(.destroy)", "(#toggle-all)".
      const hint = name || value || textContentOf(el)?.trim() ? "" : hintOf(el);
      // What a person sees on a control when its name is other words (text off-screen or
      // clipped in the name; aria-hidden or CSS generated text drawn): a red team's button read
      // "Keep my account" and showed "Delete account". An `aria-label` over drawn text too.
      const unsaid = r === "link" ? linkDrawn : !value && !(flags & SKIP) && !LEAF_TAGS.has(tag) &&
          (fromContent || LABEL_OVER_TEXT.has(r))
        ? drawnText(el, name)
        : "";
      const line = `- ${r}${q(name)}${refText}${st}${hint}${url ? " " + safe(url) : ""}${value}` +
        (unsaid ? `: ${safe(unsaid)}` : "");
      const idx = o.node(depth, line, name, 2);
      if (tag === "select") return walkSelect(el as HTMLSelectElement, depth + 1);
      // A masked contenteditable region is a secret field: its text is its value.
      if (LEAF_TAGS.has(tag) || (isEditableRoot(el) && isSecret(el))) return;
      // Its content is text of its own unless it is its name (inside a label that names another
      // element too: a labelled button's content is not the label's text).
      // (Drawn words shown on the line are not repeated as its text.)
      walkKids(el, depth + 1, (flags & ~NAMED) | PTR | (fromContent || unsaid ? NAMED : 0));
      o.finish(idx, depth, false, !value && !unsaid);
    }

    // Markdown style, `### Title`: a third of the tokens of `- heading "Title" [level=3]`.
    function walkHeading(el: Element, depth: number, flags: number) {
      const name = links.headingName(el, nameIn(el, flags));
      const level = Math.min(
        9,
        Number(attrOf(el, "aria-level")) || Number(/^h(\d)$/.exec(localOf(el))?.[1]) || 2,
      );
      const st = statesOf(el, "heading", focused).replace(/ \[level=\d+\]/, "");
      const idx = o.node(depth, "#".repeat(level) + (name ? " " + safe(name) : "") + st, name, 4);
      walkKids(el, depth + 1, flags | (nameFromContent(el, "heading") ? NAMED : 0));
      // Never `## Title: more`: without quotes the name would not end anywhere.
      o.finish(idx, depth, false, false);
    }

    function walkStruct(el: Element, role: string, depth: number, flags: number) {
      if (role === "row") return walkRow(el, depth, flags);
      if (role === "heading") return walkHeading(el, depth, flags);
      if (role === "img" || localOf(el) === "svg") {
        const alt = nameIn(el, flags);
        if (alt) o.node(depth, `- img${q(alt)}`, alt, 1);
        return;
      }
      // A scroll box that hides content (a virtual list) says so, with its name and a ref to
      // scroll it by: its unseen items are in no line.
      const mark = flags & SKIP ? "" : scrollMark(el);
      const name = NAMED_STRUCT.has(role) || mark ? nameIn(el, flags) : "";
      // An unnamed group or list has no line: its items' `*` bullets mark them, which saves a
      // line and a level.
      if ((role === "group" || role === "list") && !name && !mark) {
        return walkGeneric(el, depth, flags);
      }
      // A list item is a markdown bullet, `* first line` (see `finish`); an item that is one
      // control hoists it in its place.
      let line = role === "listitem" ? "*" : `- ${role}${q(name)}`;
      if (role === "dialog" || role === "alertdialog" || mark) {
        // Dialogs get a ref so a snapshot can be scoped to one; a scroll box to scroll it.
        if (mark && role === "listitem") line = "- listitem";
        line += refOf(el, role, name, flags);
      }
      const value = valueText(el, role);
      const kind = role === "listitem" && !mark ? 5 : 1;
      const idx = o.node(depth, line + statesOf(el, role, focused) + mark + value, name, kind);
      walkKids(el, depth + 1, flags);
      o.finish(
        idx,
        depth,
        CONDITIONAL.has(role) && !name && !mark,
        !value && !ITEM_CONTAINERS.has(role),
      );
    }

    // ` [ref=#N]` of a line that is no control (a dialog, a scroll box); none when inert.
    function refOf(el: Element, role: string, name: string, flags: number): string {
      if (flags & (INERT | BEHIND)) return "";
      const id = idOf(el);
      refs.push(refTuple(el, [id, role, name, ...contextIn(el, flags, role, name)]));
      return ` [ref=#${id}]`;
    }

    // A scroll box of no role of its own: `- generic "name" [ref=#N] [scroll: 4% shown, more below]`.
    function walkScrollBox(el: Element, depth: number, flags: number, mark: string) {
      const name = nameIn(el, flags);
      const r = refRole(el);
      const line = `- ${r}${q(name)}${refOf(el, r, name, flags)}${mark}` +
        (name ? "" : hintOf(el));
      const idx = o.node(depth, line, name, 1);
      walkKids(el, depth + 1, flags);
      o.finish(idx, depth, false, true);
    }

    function walkGeneric(el: Element, depth: number, flags: number) {
      const block = !isInline(el, flags & SKIP ? "tag" : "text");
      const mark = block && !(flags & SKIP) ? scrollMark(el) : "";
      if (mark) return walkScrollBox(el, depth, flags, mark);
      if (block) o.flush();
      if (localOf(el) === "pre") flags |= PRE;
      if (localOf(el) === "details" && !(el as HTMLDetailsElement).open) {
        const summary = [...childrenOf(el)].find((c) => localOf(c) === "summary");
        if (summary) walkEl(summary, depth, flags);
      } else walkKids(el, depth, flags);
      if (block) o.flush();
    }

    return { walkTarget, walkStruct, walkGeneric };
  }

  api.walkLines = walkLines;
}
