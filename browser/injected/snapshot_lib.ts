/// <reference lib="dom" />
/**
 * The page-side snapshot library: element ids for refs, what an element is
 * now (for ref checks), the states and values a line shows, and the
 * composition of all snapshot parts into one injectable function.
 *
 * Parts, installed in this order on the utility api (each sent as source):
 * `aria_lib.ts` (roles, visibility, flat tree), `accname_lib.ts` (names),
 * `outline_lib.ts` (the line buffer and its folding rules), this file's
 * {@link installElementLib}, `row_kind_lib.ts` (what counts as one item of a list),
 * `context_lib.ts` (where an element sits: a ref's
 * fingerprint), `ref_check_lib.ts` (whether a ref's element is still as shown), `links_lib.ts` (link URLs, permalink marks),
 * `section_lib.ts` (headings' sections), `ref_memo_lib.ts` (ref facts the Deno side holds),
 * `scroll_box_lib.ts` (inner scroll boxes that hide content, `[scroll: 4% shown, more below]`),
 * `walk_lines_lib.ts` (the lines of targets and structure), `walker_lib.ts` (`snapshot`, the
 * walk), `text_lib.ts` (the page's text as
 * the snapshot shows it, for text waits and `text=` selectors) and `text_miss_lib.ts` (why a
 * `text=` selector matched nothing shown).
 *
 * Output format (one line per meaningful node, 2 spaces per depth):
 *
 * ```
 * ## Intro
 * Plain visible text of a paragraph, with [inline links](/docs)[ref=#12] in it.
 * * A list item of one line
 * * A list item of several lines
 *   its second line
 * - textbox "Name" [ref=#13] [required]: current value
 * - checkbox "Remember" [ref=#14] [checked]
 * - combobox "Color" [ref=#15]: Green
 * - button "Avatar" [ref=#17] [file]: me.png
 * - textbox "Return" [ref=#20] [date]: 2026-12-24
 *   - options: "Red", "Green", "Blue"
 * - table "Prices"
 *   | Item | Price | Action
 *   |---|---|---|
 *   | **Tea** | $2 | button "Buy" [ref=#18]
 * - iframe "Payment" [ref=#16] [frame=#16]
 * - list "Destinations" [ref=#19] [scroll: <1% shown, more below]
 *   * Paris #1
 * ```
 *
 * An inner scroll box whose content is taller than its box (not the page's own scroller) says
 * how much of it shows and where the rest is, with a ref to scroll it by (scroll_box_lib.ts).
 *
 * A table row is one line, its cells between pipes and the controls in them inline; a row of
 * column headers is followed by `|---|`, a row header's text is `**bold**`; a row that is a
 * target itself, or has states, leads with `- row [ref=#N] [selected]: `; a row whose cells
 * hold structure (a list, a heading, a table) is a `- row` node with its cells' lines under it.
 *
 * `#N` placeholders are page-local element ids; the Deno side
 * (`browser/snapshot/capture.ts`) turns `[ref=#N]` into global refs `eN` and
 * splices each `[frame=#N]` frame's own snapshot under its line.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import { installAccnameLib } from "./accname_lib.ts";
import { installAriaLib } from "./aria_lib.ts";
import { installContextLib } from "./context_lib.ts";
import { installContextTextLib } from "./context_text_lib.ts";
import { installRefCheckLib } from "./ref_check_lib.ts";
import { installRowKindLib } from "./row_kind_lib.ts";
import { installLinksLib } from "./links_lib.ts";
import { installOutlineLib } from "./outline_lib.ts";
import { installRefMemoLib } from "./ref_memo_lib.ts";
import { installScrollBoxLib } from "./scroll_box_lib.ts";
import { installSectionLib } from "./section_lib.ts";
import { installTextLib } from "./text_lib.ts";
import { installTextMissLib } from "./text_miss_lib.ts";
import { installWalkLinesLib } from "./walk_lines_lib.ts";
import { installDrawnTextLib } from "./drawn_text_lib.ts";
import { installDrawnLinkLib } from "./drawn_link_lib.ts";
import { installWalkerLib } from "./walker_lib.ts";

/**
 * Adds to the utility api:
 * - `idOf(el): number`: a stable page-local id per element (WeakMap; never reused).
 * - `element(id, instance?): Element | null`: the element of an id, or null when
 *   it is gone, disconnected, or `instance` names another world (ids restart
 *   when the isolated world is recreated).
 * - `instance: string`: this world's random token.
 * - `refRole(el): string`: the role a ref line shows for a targetable element
 *   (`generic` for a clickable without a role, `textbox` for a contenteditable root).
 * - `isEditableRoot(el): boolean`: the root of a contenteditable region.
 * - `statesOf(el, role, focused): string`: ` [checked] [disabled] …` as a line shows them (a
 *   switch that is off: ` [checked=false]`; a date/time or password input: ` [date]`,
 *   ` [password]`, …; an invalid field: ` [invalid="its error"]`).
 * - `invalidOf(el): string | null`: null for a field that is not invalid, else its shown error
 *   text ("" when none shows).
 * - `valueText(el, role): string`: `: value` of a field, or `""`; a secret
 *   field (`isSecret`) shows `: ••••` (`""` when empty), never its value.
 * - `deepActive(): Element | null`: the focused element, through open shadow roots.
 * - `clickHandler(el): boolean`: an `onclick`, a `tabindex` ≥ 0, or `draggable="true"`.
 * - `hintOf(el): string`: ` (#id)` or ` (.firstClass)` for an unnamed control, or `""`.
 * - `inertOf(el): string`: why the element takes no input (`""` when it does): behind the
 *   open modal dialog, inside an `inert` container, or CSS `interactivity: inert`.
 */
export function installElementLib(api: PageApi): void {
  const { localOf, nodeTypeOf, attrOf, hasAttrOf, parentElOf, shadowRootOf, matchesOf } = api.dom;
  const { textContentOf, editableOf, elIdOf, connectedOf, visibleEl } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  const roleOf = api.roleOf as Fn<[Element], string>;
  const safeText = api.safeText as Fn<[string], string>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const maskSecret = api.maskSecret as Fn<[string], string>;
  const flatParent = api.flatParent as Fn<[Node], Element | null>;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const idRefsOf = api.idRefs as Fn<[Element, string], Element[]>;
  const TEXT_ENTRY = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
  const CHECKABLE = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
  /** Input types a line names (`[date]`, `[password]`, …): see statesOf. */
  const MARKED_TYPES = new Set(["date", "time", "datetime-local", "month", "week", "password"]);
  const RANGES = new Set(["slider", "spinbutton", "progressbar", "meter"]);

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
      // Dropping dead WeakRefs now and then keeps the map from growing on long-lived SPAs.
      if (elements.size % 50000 === 0) {
        for (const [k, ref] of elements) if (!ref.deref()) elements.delete(k);
      }
    }
    return id;
  }

  function element(id: number, inst?: string): Element | null {
    if (inst !== undefined && inst !== instance) return null;
    const el = elements.get(id)?.deref();
    return el && connectedOf(el) ? el : null;
  }

  function isEditableRoot(el: Element): boolean {
    // The attribute first: `isContentEditable` needs style.
    const ce = attrOf(el, "contenteditable");
    if (ce === null || ce === "false") return false;
    const h = el as HTMLElement;
    const up = parentElOf(el);
    return editableOf(h) && !(up && editableOf(up));
  }

  function refRole(el: Element): string {
    return roleOf(el) || (isEditableRoot(el) ? "textbox" : "generic");
  }

  function attrTrue(el: Element, name: string): boolean {
    return attrOf(el, name) === "true";
  }

  // Field error text is cut here: longer texts are shown as lines of their own anyway.
  const ERROR_CHARS = 100;
  const FIELD_TAGS = new Set(["input", "select", "textarea"]);

  /**
   * null when the field is not invalid; else its error text as a person sees it ("" when none
   * shows): the shown elements `aria-errormessage` (then `aria-describedby`) name, or the
   * browser's own message for a native field it marked `:user-invalid` (a submit attempt, an
   * edit). A `hidden` description is no error anyone reads, so it is not said; of several
   * named, only the ones marked as errors (`role="alert"`, `aria-live`, an id or class reading
   * error, err, invalid or warning) when some are (a hint beside the error is no error).
   */
  const ERROR_MARK = /(^|[^a-z])(err(or)?s?|invalid|warning)([^a-z]|$)/i;
  /** An element marked as an error message: an alert, a live region, an error id or class. */
  function errorLike(e: Element): boolean {
    const role = attrOf(e, "role");
    if (role === "alert" || hasAttrOf(e, "aria-live")) return true;
    // `emailError` reads as words too.
    const names = `${attrOf(e, "id") ?? ""} ${attrOf(e, "class") ?? ""}`;
    return ERROR_MARK.test(names.replace(/([a-z])([A-Z])/g, "$1 $2"));
  }

  function invalidOf(el: Element): string | null {
    const ai = attrOf(el, "aria-invalid");
    const aria = ai !== null && ai !== "false" && ai !== "";
    const native = !aria && FIELD_TAGS.has(localOf(el)) && matchesOf(el, ":user-invalid");
    if (!aria && !native) return null;
    let text = "";
    for (const attr of ["aria-errormessage", "aria-describedby"]) {
      const named = idRefsOf(el, attr);
      // A description of a hint and an error ("We never share it", "Enter a valid email"):
      // the error is the one marked as such, when one is (shown or not: a hint is no error).
      const errs = named.length > 1 ? named.filter(errorLike) : [];
      const els = (errs.length ? errs : named).filter((e) =>
        visibleEl(e, { visibilityProperty: true })
      );
      text = els.map((e) => textContentOf(e) ?? "").join(" ").replace(/\s+/g, " ").trim();
      if (text) break;
    }
    if (!text && native) text = (el as HTMLInputElement).validationMessage ?? "";
    text = safeText(text);
    return text.length > ERROR_CHARS ? text.slice(0, ERROR_CHARS - 1) + "…" : text;
  }

  function statesOf(el: Element, role: string, focused: Element | null): string {
    let s = "";
    const tag = localOf(el);
    // A file input's role is button: `[file]` says upload_file, not click, sets it.
    if (tag === "input" && (el as HTMLInputElement).type === "file") s += " [file]";
    // A date or time field takes its value in one format (fill says which), a password field
    // hides what it holds: the line says so, not only the failed fill that follows.
    if (tag === "input" && MARKED_TYPES.has((el as HTMLInputElement).type)) {
      s += ` [${(el as HTMLInputElement).type}]`;
    }
    if (CHECKABLE.has(role)) {
      const ac = attrOf(el, "aria-checked");
      // A native checkbox or radio is what its `checked` says, whatever aria-checked claims (as
      // Chromium's accessibility tree and a click read it): a page's aria-checked="true" on an
      // unticked box made an agent's "untick" tick it.
      const native = tag === "input" &&
        ((el as HTMLInputElement).type === "checkbox" || (el as HTMLInputElement).type === "radio");
      if (native || (tag === "input" && ac === null)) {
        const i = el as HTMLInputElement;
        if (i.indeterminate) s += " [mixed]";
        else if (i.checked) s += " [checked]";
        else if (role === "switch") s += " [checked=false]";
      } else if (ac === "true") s += " [checked]";
      else if (ac === "mixed") s += " [mixed]";
      // A switch is on or off: off is said (a switch without state looked the same; an
      // unchecked checkbox stays quiet, its box says so).
      else if (role === "switch") s += " [checked=false]";
    }
    if (role === "heading") {
      s += ` [level=${attrOf(el, "aria-level") || (/^h\d$/.test(tag) ? tag[1] : "2")}]`;
    }
    if (attrTrue(el, "aria-disabled") || ("disabled" in el && matchesOf(el, ":disabled"))) {
      s += " [disabled]";
    }
    const ex = attrOf(el, "aria-expanded");
    if (ex === "true") s += " [expanded]";
    else if (ex === "false") s += " [collapsed]";
    else if (tag === "summary" && parentElOf(el)?.localName === "details") {
      s += (parentElOf(el) as HTMLDetailsElement).open ? " [expanded]" : " [collapsed]";
    }
    if (attrTrue(el, "aria-selected")) s += " [selected]";
    const pr = attrOf(el, "aria-pressed");
    if (pr === "true") s += " [pressed]";
    else if (pr === "mixed") s += " [pressed=mixed]";
    if ((el as HTMLInputElement).required || attrTrue(el, "aria-required")) s += " [required]";
    const bad = invalidOf(el);
    if (bad !== null) s += bad ? ` [invalid=${JSON.stringify(bad)}]` : " [invalid]";
    const ro = (el as HTMLInputElement).readOnly || attrTrue(el, "aria-readonly");
    if (TEXT_ENTRY.has(role) && ro) s += " [readonly]";
    const cur = attrOf(el, "aria-current");
    if (cur && cur !== "false") s += " [current]";
    if (attrTrue(el, "aria-modal") || (tag === "dialog" && matchesOf(el, ":modal"))) {
      s += " [modal]";
    }
    // Focus matters where typing goes; on a just-clicked button or link it
    // is noise that changes the line (and the link's inline form) for nothing.
    if (el === focused && (TEXT_ENTRY.has(role) || role === "combobox" || role === "listbox")) {
      s += " [focused]";
    }
    return s;
  }

  function valueText(el: Element, role: string): string {
    const tag = localOf(el);
    let v = "";
    if (tag === "input") {
      const i = el as HTMLInputElement;
      if (i.type === "file") v = [...(i.files ?? [])].map((f) => f.name).join(", ");
      else if (CHECKABLE.has(role) || role === "button") return "";
      // A secret's value never leaves the page: a fixed mask says whether it is filled.
      else if (isSecret(i)) v = maskSecret(i.value);
      else v = i.value;
    } else if (tag === "textarea") {
      const t = el as HTMLTextAreaElement;
      v = isSecret(t) ? maskSecret(t.value) : t.value;
    } else if (isEditableRoot(el) && isSecret(el)) v = maskSecret(textContentOf(el) ?? "");
    else if (tag === "select") {
      v = [...(el as HTMLSelectElement).selectedOptions].map((o) => o.text.trim()).join(", ");
    } else if (tag === "progress" || tag === "meter") {
      const p = el as HTMLProgressElement;
      v = p.value + "/" + p.max;
    } else if (RANGES.has(role)) {
      v = attrOf(el, "aria-valuetext") ?? attrOf(el, "aria-valuenow") ?? "";
    }
    return v ? ": " + safeText(v).replace(/\r?\n/g, "\\n") : "";
  }

  function deepActive(): Element | null {
    let a = document.activeElement;
    while (a && shadowRootOf(a)?.activeElement) a = shadowRootOf(a)!.activeElement;
    return a;
  }

  // A click handler, focusability, or an HTML5 drag source (draggable="true": `drag` needs a
  // ref for it; sortable list items are rarely focusable).
  function clickHandler(el: Element): boolean {
    const tab = attrOf(el, "tabindex");
    return hasAttrOf(el, "onclick") || (tab !== null && Number(tab) >= 0) ||
      attrOf(el, "draggable") === "true";
  }

  function hintOf(el: Element): string {
    const id = elIdOf(el);
    if (id && id.length <= 30 && /^[A-Za-z][\w-]*$/.test(id)) return ` (#${id})`;
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/)[0] : "";
    if (cls && cls.length <= 30 && /^[A-Za-z][\w-]*$/.test(cls)) return ` (.${cls})`;
    return "";
  }

  api.deepActive = deepActive;
  api.clickHandler = clickHandler;
  api.hintOf = hintOf;
  const tagOf = (el: Element) => `<${localOf(el)}${el.id ? "#" + el.id : ""}>`;

  // Chromium's accessibility tree ignores these nodes ("activeModalDialog", "inertElement");
  // a click on one goes to what lies behind, a focus() does nothing. The topmost modal is
  // not known from the page: inside any open modal dialog counts as not blocked.
  function inertOf(el: Element): string {
    // Up the flat tree to the root element (its parent is the document, no element).
    const up = (a: Element) => {
      const p = flatParent(a);
      return p && nodeTypeOf(p) === 1 ? p : null;
    };
    const modals = document.querySelectorAll("dialog:modal");
    if (modals.length) {
      let a: Element | null = el;
      while (a && !(localOf(a) === "dialog" && matchesOf(a, ":modal"))) a = up(a);
      if (!a) {
        const m = modals[modals.length - 1]!;
        const name = nameOf(m);
        return `behind the open modal dialog ${
          name ? JSON.stringify(name.slice(0, 80)) : tagOf(m)
        }`;
      }
    }
    for (let a: Element | null = el; a; a = up(a)) {
      if (hasAttrOf(a, "inert")) {
        return a === el ? "it has the inert attribute" : `inside an inert container ${tagOf(a)}`;
      }
    }
    const cs = getComputedStyle(el) as CSSStyleDeclaration & { interactivity?: string };
    return cs.interactivity === "inert" ? "its CSS says interactivity: inert" : "";
  }

  api.inertOf = inertOf;
  api.idOf = idOf;
  api.element = element;
  api.instance = instance;
  api.refRole = refRole;
  api.isEditableRoot = isEditableRoot;
  api.statesOf = statesOf;
  api.invalidOf = invalidOf;
  api.valueText = valueText;
}

const PARTS = [
  installAriaLib,
  installAccnameLib,
  installOutlineLib,
  installElementLib,
  installRowKindLib,
  installContextTextLib,
  installContextLib,
  installRefCheckLib,
  installLinksLib,
  installSectionLib,
  installRefMemoLib,
  installScrollBoxLib,
  installDrawnTextLib,
  installDrawnLinkLib,
  installWalkLinesLib,
  installWalkerLib,
  installTextLib,
  installTextMissLib,
];

/**
 * Installs every snapshot part (see the module doc) on the utility api.
 * Sent as source text by `browser/injected/mod.ts`: its `toString` is
 * overridden to inline each part's source, so the text is self-contained.
 */
export function installSnapshotLib(api: PageApi): void {
  for (const part of PARTS) part(api);
}
installSnapshotLib.toString = () =>
  `function installSnapshotLib(api) {\n${
    PARTS.map((p) => `(${p.toString()})(api);`).join("\n")
  }\n}`;
