/// <reference lib="dom" />
/**
 * Page-side sections: what a heading's section is (the snapshot scoped to a heading's ref walks
 * it, `walker_lib.ts`) and the sections of the page's text model that `text_search` maps its
 * matches to (`browser/snapshot/page_text_search.ts`).
 *
 * A heading's section is the heading and what follows it in the flat tree up to the next shown
 * heading of the same or a higher level (a smaller or equal number), and never past the end of
 * the heading's nearest sectioning ancestor ({@link installSectionLib}'s `sectionBoundary`: a
 * `<section>`, `<article>`, landmark, list item, table cell, …). Both sides use these two
 * functions, so a match's section and the scoped snapshot agree.
 *
 * Sent as source text: {@link installSectionLib} must not use anything from its module scope.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { SectionInfo, TextSections, TextWalkHook } from "./text_types.ts";

/**
 * Adds to the utility api:
 * - `headingLevel(el)`: 1..9 for a heading (`h1`–`h6`, `role=heading`; `aria-level` wins), else 0.
 * - `sectionBoundary(el)`: the element ends the sections of the headings inside it.
 * - `headingOf(el)`: what names the part of the page an element sits in, for telling matches
 *   alike apart (three `button "Buy"`, one per plan): its nearest ancestor's own label
 *   (`aria-label`/`aria-labelledby`: `[its role, or "" for a generic one, its name]`), or the
 *   nearest ancestor holding a shown heading: the last one before the element in it, else the
 *   first after it (`["heading", its name]`); `["", ""]` when none up to the body.
 * - `textSections(token)`: the text model's collapsed text (`textWalk`, text_lib.ts), its
 *   sections (headings' sections, tables, table rows, outermost lists, forms, landmarks and
 *   dialogs) and
 *   its iframes; remembered for `textSectionInfo`. Null when `token` names the last walk and
 *   the frame has not changed since (mutation generation): the caller's copy is current.
 * - `textSectionInfo(token, indexes)`: for sections of the last `textSections` (when `token`
 *   is its token and the element is still connected), the page-local id, the role, name and
 *   context a ref records (`describe`) and the name to show (a heading's without its `#`
 *   permalink); null for the others.
 */
export function installSectionLib(api: PageApi): void {
  const { localOf, attrOf, hasAttrOf, shadowRootOf, connectedOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const BOUNDARY_TAGS = new Set(
    ("section article aside nav main header footer blockquote details dialog fieldset figure " +
      "td th li form search body").split(" "),
  );
  const BOUNDARY_ROLES = new Set(
    ("main navigation complementary banner contentinfo region search form dialog alertdialog " +
      "article listitem cell gridcell columnheader rowheader tabpanel").split(" "),
  );
  // Section kinds (see TextSections): 1 table, 2 list, 3 form, 4 landmark or dialog, 5 a table
  // row (a match in a row is shown as that row's one line, not the whole table).
  const ROLE_KIND = new Map<string, number>([
    ["table", 1],
    ["grid", 1],
    ["treegrid", 1],
    ["row", 5],
    ["list", 2],
    ["form", 3],
    ["main", 4],
    ["navigation", 4],
    ["complementary", 4],
    ["banner", 4],
    ["contentinfo", 4],
    ["region", 4],
    ["search", 4],
    ["dialog", 4],
    ["alertdialog", 4],
  ]);
  const TAG_KIND = new Map<string, number>([
    ["table", 1],
    ["tr", 5],
    ["ul", 2],
    ["ol", 2],
    ["menu", 2],
    ["form", 3],
    ["main", 4],
    ["nav", 4],
    ["aside", 4],
    ["search", 4],
    ["dialog", 4],
  ]);
  const HID = 4;
  /** Longest text handed over, chars (a CDP message holds at most 256 MB). */
  const MAX_TEXT = 16_000_000;

  function explicitRole(el: Element): string | null {
    const r = attrOf(el, "role");
    return r === null ? null : (r.trim().split(/\s+/)[0] ?? "");
  }

  const H_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

  // The three decisions below take the element's explicit role (read once per element).
  function levelOf(el: Element, r: string | null): number {
    const tag = localOf(el);
    const h = H_TAGS.has(tag) ? /^h([1-6])$/.exec(tag) : null;
    if (r !== null ? r !== "heading" : !h) return 0;
    const aria = Number(attrOf(el, "aria-level"));
    return Math.min(9, Number.isInteger(aria) && aria > 0 ? aria : h ? Number(h[1]) : 2);
  }

  function boundaryOf(el: Element, r: string | null): boolean {
    return r !== null && r !== "" && r !== "presentation" && r !== "none"
      ? BOUNDARY_ROLES.has(r)
      : BOUNDARY_TAGS.has(localOf(el));
  }

  function kindOf(el: Element, r: string | null): number {
    if (r !== null && r !== "") return ROLE_KIND.get(r) ?? 0;
    const tag = localOf(el);
    // A <section> is a region landmark only when it is named.
    if (tag === "section") {
      return hasAttrOf(el, "aria-label") || hasAttrOf(el, "aria-labelledby") ? 4 : 0;
    }
    return TAG_KIND.get(tag) ?? 0;
  }

  const headingLevel = (el: Element) => levelOf(el, explicitRole(el));
  const sectionBoundary = (el: Element) => boundaryOf(el, explicitRole(el));

  let last: { token: number; els: Element[]; generation: number } | undefined;
  let tokens = 0;

  function textSections(token: number | null): TextSections | null {
    const generation = (api.generation as Fn<[], number>)();
    if (token !== null && last?.token === token && last.generation === generation) return null;
    const observeRoot = api.observeRoot as Fn<[ShadowRoot], void>;
    const els: Element[] = [];
    const spans: number[] = [];
    const frames: Array<[number, number]> = [];
    // Open headings: [span offset, level, boundary depth when opened].
    const open: Array<[number, number, number]> = [];
    // Per element entered, what `leave` closes: its span (or -1), bit 1 a boundary, bit 2 a list.
    const entered: Array<[Element, number, number]> = [];
    let boundaries = 0, lists = 0;
    const idOf = api.idOf as Fn<[Element], number>;
    const close = (at: number, keep: (level: number, depth: number) => boolean) => {
      while (open.length && !keep(open.at(-1)![1], open.at(-1)![2])) spans[open.pop()![0] + 2] = at;
    };
    const hook: TextWalkHook = {
      enter(el, at, flags) {
        const tag = localOf(el);
        // Changes inside a shadow root count too (the document's observer does not see them).
        const shadow = shadowRootOf(el);
        if (shadow) observeRoot(shadow);
        if (tag === "iframe" || tag === "frame") {
          if (!(flags & HID)) frames.push([idOf(el), at]);
          entered.push([el, -1, 0]);
          return;
        }
        const r = explicitRole(el);
        const level = flags & HID ? 0 : levelOf(el, r);
        if (level) {
          // Headings nest: a level closes every open heading of that level or a deeper one.
          let i = open.length;
          while (i > 0 && open[i - 1]![1] < level) i--;
          for (let j = open.length - 1; j >= i; j--) spans[open[j]![0] + 2] = at;
          open.length = i;
          open.push([spans.length, level, boundaries]);
          spans.push(0, at, at, level, els.length);
          els.push(el);
        }
        const kind = kindOf(el, r);
        let span = -1, bits = 0;
        // Only the outermost list is a section.
        if (kind > 0 && (kind !== 2 || lists === 0)) {
          span = spans.length;
          spans.push(kind, at, at, 0, els.length);
          els.push(el);
        }
        if (kind === 2) {
          lists++;
          bits |= 2;
        }
        if (boundaryOf(el, r)) {
          boundaries++;
          bits |= 1;
        }
        entered.push([el, span, bits]);
      },
      leave(el, at) {
        const top = entered.pop();
        if (!top || top[0] !== el) return;
        if (top[1] >= 0) spans[top[1] + 2] = at;
        if (top[2] & 2) lists--;
        if (top[2] & 1) {
          boundaries--;
          // Headings opened inside the boundary end with it.
          close(at, (_level, depth) => depth <= boundaries);
        }
      },
    };
    let text = (api.textWalk as Fn<[TextWalkHook], string>)(hook);
    close(text.length, () => false);
    // The answer crosses CDP as one message: a page of more text is searched on its start.
    const cut = text.length > MAX_TEXT;
    if (cut) {
      text = text.slice(0, MAX_TEXT);
      for (let i = 0; i < spans.length; i += 5) {
        spans[i + 1] = Math.min(spans[i + 1]!, MAX_TEXT);
        spans[i + 2] = Math.min(spans[i + 2]!, MAX_TEXT);
      }
    }
    last = { token: ++tokens, els, generation };
    return { text, spans, frames, token: last.token, instance: api.instance as string, cut };
  }

  function textSectionInfo(token: number, indexes: number[]): Array<SectionInfo | null> {
    const describe = api.describe as Fn<[number], SectionInfo | null>;
    const idOf = api.idOf as Fn<[Element], number>;
    const links = (api.newLinks as Fn<[], { headingName: Fn<[Element, string], string> }>)();
    return indexes.map((i) => {
      const el = last?.token === token ? last.els[i] : undefined;
      if (!el || !connectedOf(el)) return null;
      const localId = idOf(el);
      const d = describe(localId);
      if (!d) return null;
      const shown = headingLevel(el) ? links.headingName(el, d.name) : d.name;
      return { ...d, localId, shown };
    });
  }

  const HEADINGS = "h1,h2,h3,h4,h5,h6,[role=heading]";
  /** See the module doc (`headingOf`). */
  function headingOf(el: Element): [string, string] {
    const nameOf = api.nameOf as Fn<[Element], string>;
    const roleOf = api.roleOf as Fn<[Element], string>;
    const flatParent = api.flatParent as Fn<[Node], Element | null>;
    for (let a = flatParent(el); a && a !== document.documentElement; a = flatParent(a)) {
      if (hasAttrOf(a, "aria-label") || hasAttrOf(a, "aria-labelledby")) {
        const name = nameOf(a);
        const role = roleOf(a);
        if (name) return [role === "generic" ? "" : role, name];
      }
      // The last shown heading before the element in this ancestor, else its first after it.
      let pick: Element | undefined;
      for (const h of qsaOf(a, HEADINGS)) {
        if (!headingLevel(h) || (h as HTMLElement).checkVisibility?.() === false) continue;
        if (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) pick = h;
        else {
          pick ??= h;
          break;
        }
      }
      const name = pick ? nameOf(pick) : "";
      if (name) return ["heading", name];
      if (a === document.body) break;
    }
    return ["", ""];
  }

  api.headingLevel = headingLevel;
  api.headingOf = headingOf;
  api.sectionBoundary = sectionBoundary;
  api.textSections = textSections;
  api.textSectionInfo = textSectionInfo;
}
