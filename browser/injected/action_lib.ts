/// <reference lib="dom" />
/**
 * Page-side actionability probes, selector queries and element facts,
 * installed in browxai's isolated world. Checks return tagged results
 * instead of throwing; the Deno side retries on them.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { AlikeFacts, FillPrep, ReadyResult, RefFacts, ShownAs } from "./page_types.ts";

/** Adds actionability probes, queries and element facts to the utility api. */
export function installActionLib(api: PageApi): void {
  const { localOf, attrOf, visibleEl, rectOf, closestOf, tagNameOf, qsOf, qsaOf } = api.dom;
  // A form's own members may be its controls (`<input name=scrollIntoView>`): acting on a
  // <form> reads them through the prototypes.
  const { clientRectsOf, focusOf, connectedOf } = api.dom;
  type El = Element & { disabled?: boolean; readOnly?: boolean; value?: string; type?: string };
  const roleOf = (el: Element): string => {
    const f = api.roleOf as ((e: Element) => string) | undefined;
    return f ? f(el) : attrOf(el, "role") ?? tagNameOf(el).toLowerCase();
  };
  const nameOf = (el: Element): string => {
    const f = api.nameOf as ((e: Element) => string) | undefined;
    return f ? f(el) : attrOf(el, "aria-label") ?? "";
  };

  const describeEl = (el: Element): string => {
    let s = tagNameOf(el).toLowerCase();
    if (el.id) s += `#${el.id}`;
    const cls = typeof el.className === "string"
      ? el.className.trim().split(/\s+/).filter(Boolean)
      : [];
    if (cls.length) s += "." + cls.slice(0, 3).join(".");
    const name = nameOf(el) || (el as HTMLElement).innerText?.trim().slice(0, 40) || "";
    const role = roleOf(el);
    return `${role && role !== tagNameOf(el).toLowerCase() ? role + " " : ""}${s}${
      name ? ` "${name.replace(/\s+/g, " ").slice(0, 40)}"` : ""
    }`;
  };
  api.describeElement = describeEl;
  // Open shadow roots and the closed ones CDP handed over (snapshot/closed_hosts.ts).
  const shadowOf = (el: Element): ShadowRoot | null =>
    (api.shadowOf as (e: Element) => ShadowRoot | null)(el);

  const isDisabled = (el: El): boolean => {
    if (attrOf(el, "aria-disabled") === "true") return true;
    const tag = tagNameOf(el);
    if (["BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION", "OPTGROUP", "FIELDSET"].includes(tag)) {
      if (el.disabled) return true;
      // A disabled fieldset disables its controls (but not those in its first legend).
      const fs = closestOf(el, "fieldset:disabled");
      if (fs && !qsOf(fs, ":scope > legend")?.contains(el)) return true;
    }
    return false;
  };

  const TEXT_INPUTS = [
    "",
    "text",
    "search",
    "email",
    "url",
    "tel",
    "password",
    "number",
  ];
  const SET_INPUTS = ["date", "time", "datetime-local", "month", "week", "color", "range"];

  const editKind = (el: El): string => {
    if (el instanceof HTMLTextAreaElement) return el.readOnly ? "readonly" : "text";
    if (el instanceof HTMLInputElement) {
      const t = (attrOf(el, "type") ?? "").toLowerCase();
      if (TEXT_INPUTS.includes(t)) return el.readOnly ? "readonly" : "text";
      if (SET_INPUTS.includes(t)) return el.readOnly ? "readonly" : "set";
      return "not-text";
    }
    if ((el as HTMLElement).isContentEditable) return "contenteditable";
    return "not-text";
  };

  const visibleBox = (el: Element): DOMRect | null => {
    if (!connectedOf(el)) return null;
    if (!visibleEl(el, { visibilityProperty: true })) return null;
    const r = rectOf(el);
    if (r.width > 0 && r.height > 0) return r;
    // display:contents and zero-size wrappers: use the first visible child box.
    for (const rect of clientRectsOf(el)) if (rect.width > 0 && rect.height > 0) return rect;
    return null;
  };

  /**
   * Checks an element before an action. opts: { enabled?, editable? }.
   * Returns { state: "ok", box } or { state: "notconnected" | "notvisible" |
   * "inert" | "disabled" | "noteditable", detail? } ("inert" only with enabled or editable).
   */
  api.probe = (el: El, opts: { enabled?: boolean; editable?: boolean }) => {
    if (!el || !connectedOf(el)) return { state: "notconnected" };
    const box = visibleBox(el);
    if (!box) return { state: "notvisible" };
    // An acting check only: an inert element is still visible (wait_for, screenshots).
    if (opts.enabled || opts.editable) {
      const inert = api.inertOf(el);
      if (inert) return { state: "inert", detail: inert };
    }
    // Only the page's script turns aria-disabled off: said as such (the loop does not wait).
    const disabled = () =>
      attrOf(el, "aria-disabled") === "true" && !(el as { disabled?: boolean }).disabled
        ? { state: "disabled" as const, detail: "aria-disabled" }
        : { state: "disabled" as const };
    if (opts.enabled && isDisabled(el)) return disabled();
    if (opts.editable) {
      const kind = editKind(el);
      if (isDisabled(el)) return disabled();
      if (kind === "readonly") return { state: "noteditable", detail: "it is read-only" };
      if (kind === "not-text") {
        // The article goes with the role: "a link "Active" (<a>)", "an img", "a heading".
        const role = roleOf(el) || "element";
        const name = nameOf(el).replace(/\s+/g, " ").trim().slice(0, 40);
        const what = `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}${name ? ` "${name}"` : ""}`;
        const tag = `<${localOf(el)}${el.id ? `#${el.id}` : ""}>`;
        return { state: "noteditable", detail: `${what} (${tag}) is not a text field` };
      }
    }
    return { state: "ok", box: { x: box.x, y: box.y, width: box.width, height: box.height } };
  };

  /** The element's box after two animation frames, and whether it stayed put. */
  api.stableBox = async (el: Element) => {
    const frame = () =>
      new Promise<void>((r) => {
        let done = false;
        requestAnimationFrame(() => {
          done = true;
          r();
        });
        // Background tabs do not run rAF; never hang on it.
        setTimeout(() => {
          if (!done) r();
        }, 50);
      });
    const a = rectOf(el);
    await frame();
    const b = rectOf(el);
    const stable = a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    return { stable, box: { x: b.x, y: b.y, width: b.width, height: b.height } };
  };

  /**
   * `probe`, then (when ok) `scrollIntoViewIfNeeded` and `stableBox`, and with `hit` a stable
   * box's `hitTest` at its center (unarmed), in one call: the steps an action takes on each
   * attempt, one round trip instead of three or four. With `roleName`, the answer carries the
   * element's role and name too, read first (the audit's note of what the action hit).
   */
  api.readyBox = async (
    el: El,
    opts: { enabled?: boolean; editable?: boolean },
    inSubframe?: boolean,
    hit?: boolean,
    shown?: ShownAs | null,
    roleName?: boolean,
  ): Promise<ReadyResult> => {
    let named: [string, string] | undefined;
    try {
      // Before the checks move or re-render anything; a failure leaves the note out, never
      // the check.
      if (roleName) named = api.roleNameOf(el);
    } catch { /* no note */ }
    const ready = await readySteps(el, opts, inSubframe, hit, shown);
    return named ? { ...ready, roleName: named } : ready;
  };

  /** {@link PageApi.readyBox}'s steps. */
  const readySteps = async (
    el: El,
    opts: { enabled?: boolean; editable?: boolean },
    inSubframe?: boolean,
    hit?: boolean,
    shown?: ShownAs | null,
  ) => {
    const probe = api.probe(el, opts);
    if (probe.state !== "ok") return probe;
    const scrolled = api.scrollIntoViewIfNeeded(el, inSubframe);
    const { stable, box } = await api.stableBox(el);
    // Gone on its own scroll into view: the page re-rendered it there (a virtual list).
    if (scrolled && !connectedOf(el)) return { state: "notconnected" as const, detail: "scrolled" };
    // Its own scroll into view can make a virtual list re-use the element for another item.
    const now = stable && shown ? api.refChanged(el, shown) : undefined;
    if (now) return { state: "changed" as const, now };
    if (!hit || !stable) return { state: "ok" as const, stable, box };
    const at = api.hitTest(el, box.x + box.width / 2, box.y + box.height / 2, false);
    return { state: "ok" as const, stable, box, hit: at };
  };

  /** The page-local ids of the frame's shown iframes, in document order, and the instance. */
  api.frameOwners = () => {
    const idOf = api.idOf as (e: Element) => number;
    const ids: number[] = [];
    for (const el of allElements(document)) {
      const tag = localOf(el);
      if ((tag === "iframe" || tag === "frame") && visibleEl(el)) ids.push(idOf(el));
    }
    return { instance: api.instance as string, ids };
  };

  /**
   * Prepares a fill: focuses and selects the current content. Returns the edit kind ("text",
   * "limited": text with a maxlength or a number field, "set", "contenteditable") and what the
   * field held (`was`: up to {@link WAS_MAX} characters, never a secret's), for the result to
   * tell a page that undid the edit.
   */
  api.prepareFill = (el: El, shown?: ShownAs | null): FillPrep | { changed: ShownAs } => {
    const kind = editKind(el);
    const secret = (api.isSecret as (e: Element) => boolean)(el);
    const before = kind === "contenteditable" ? (el as HTMLElement).innerText : el.value ?? "";
    const held = secret
      ? { secret: true as const }
      : before.length <= WAS_MAX
      ? { was: before }
      : {};
    focusOf(el);
    // Focusing blurs the field typed in last: its change may re-render (an unkeyed list
    // re-sorted by the value committed), re-using this field for another item.
    const changed = shown ? api.refChanged(el, shown) : undefined;
    if (changed) return { changed };
    if (kind === "text") {
      const input = el as HTMLInputElement;
      try {
        input.setSelectionRange(0, input.value.length);
      } catch {
        input.select();
      }
    } else if (kind === "contenteditable") {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    // A field the browser may cut (maxlength) or refuse characters of (number): the fill
    // reads back what it kept (`fieldKept`).
    const field = el as HTMLInputElement;
    const limited = kind === "text" && (field.maxLength >= 0 || field.type === "number");
    return { kind: limited ? "limited" : kind, ...held };
  };

  /** Longest value a fill's `was` carries, characters (a longer one is not compared). */
  const WAS_MAX = 2000;

  /**
   * Sets a value directly (date, color, range inputs) and fires input + change. A value the
   * browser refuses (a date not in its format) empties the field: what it held is put back
   * (no event fired: the page saw no change), `restored` when it took.
   */
  api.setValue = (el: El, value: string) => {
    const input = el as HTMLInputElement;
    input.focus();
    api.noteEdit(input);
    const before = input.value;
    input.value = value;
    if (input.value !== value) {
      input.value = before;
      return { rejected: api.fieldKept(input)!, restored: input.value === before };
    }
    api.noteEdit(input, true);
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return { ok: true };
  };

  /**
   * The control a `<label>` labels (its `control`: the `for` target or the first labelable
   * descendant), or null when `el` is no label or labels nothing.
   */
  api.labeledControl = (el: El) => el instanceof HTMLLabelElement ? el.control : null;

  /** Selects an option of a native <select> by value, label or index. */
  api.selectOption = (
    el: El,
    by: { value?: string; label?: string; index?: number },
    shown?: ShownAs | null,
  ) => {
    if (!(el instanceof HTMLSelectElement)) {
      return { error: `${describeEl(el)} is not a native <select>` };
    }
    const options = [...el.options];
    const norm = (s: string) => s.replace(/\s+/g, " ").trim();
    let match = options.findIndex((o, i) =>
      by.value !== undefined
        ? o.value === by.value
        : by.label !== undefined
        ? norm(o.label) === norm(by.label) || norm(o.text) === norm(by.label)
        : i === by.index
    );
    // A label in another case ("germany"): taken when exactly one option reads so, and said.
    let caseFolded = false;
    if (match < 0 && by.label !== undefined) {
      const folded = norm(by.label).toLowerCase();
      const alike = options.flatMap((o, i) =>
        norm(o.label).toLowerCase() === folded || norm(o.text).toLowerCase() === folded ? [i] : []
      );
      if (alike.length === 1) [match, caseFolded] = [alike[0]!, true];
    }
    if (match < 0) {
      return {
        error: "no such option",
        options: options.slice(0, 30).map((o) => ({ value: o.value, label: norm(o.label) })),
      };
    }
    if (options[match]!.disabled) {
      return { error: `option "${norm(options[match]!.label)}" is disabled` };
    }
    const was = el.value;
    const labels = () => [...el.selectedOptions].map((o) => norm(o.label));
    const wasSelected = el.multiple ? labels() : undefined;
    el.focus();
    // The page may re-render on that focus, re-using this select for another item.
    const changed = shown ? api.refChanged(el, shown) : undefined;
    if (changed) return { changed };
    // Chosen, not the page's: its row keeps its item (context_lib.ts).
    api.noteEdit(el);
    el.selectedIndex = match;
    api.noteEdit(el, true);
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    // The option chosen, not what the page's change handler may have set since (said after).
    return {
      ok: true,
      value: options[match]!.value,
      label: norm(options[match]!.label),
      was,
      ...(caseFolded ? { caseFolded: true as const } : {}),
      // A multiple select: the choice replaced its selection; what it holds once the
      // handlers ran, and what was selected before.
      ...(wasSelected ? { multiple: { was: wasSelected, now: labels() } } : {}),
    };
  };

  const normText = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

  const allElements = function* (root: Document | ShadowRoot): Generator<Element> {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode() as Element | null; n; n = walker.nextNode() as Element | null) {
      yield n;
      const root = shadowOf(n);
      if (root) yield* allElements(root);
    }
  };

  /**
   * All elements matching a selector: CSS (piercing open shadow roots) or
   * `text=…` (`textMatches`: the innermost elements whose shown text contains
   * the words, any case; `text="…"` exact).
   * Throws SyntaxError text for invalid CSS.
   */
  api.queryAll = (selector: string): Element[] => {
    // The text model of text_lib.ts: the text the snapshot shows, skipped sections included.
    if (/^text=/.test(selector)) return (api.textMatches as (s: string) => Element[])(selector);
    const out: Element[] = [...document.querySelectorAll(selector)];
    for (const el of allElements(document)) {
      const root = shadowOf(el);
      if (root) out.push(...qsaOf(root, selector));
    }
    return out;
  };

  // query and queryCount come in pairs: the count reuses the match list
  // while the DOM is unchanged (a text= query walks the whole page).
  let lastQuery: { selector: string; generation: unknown; all: Element[] } | undefined;
  const generationNow = () => (api.generation as (() => number) | undefined)?.();

  /** The first match of a selector, or null. */
  api.query = (selector: string) => {
    const all = (api.queryAll as (s: string) => Element[])(selector);
    lastQuery = { selector, generation: generationNow(), all };
    return all[0] ?? null;
  };
  /** How many elements match a selector. */
  api.queryCount = (selector: string) => {
    if (lastQuery?.selector === selector && lastQuery.generation === generationNow()) {
      return lastQuery.all.length;
    }
    return (api.queryAll as (s: string) => Element[])(selector).length;
  };

  /**
   * What refs of a CSS selector's first `max` matches record (`refFacts`), for those alike its
   * first match (same role and name, a name there), that one first, the first 8 with what names
   * their section (`headingOf`); [] when fewer than two are.
   */
  api.cssAlike = (selector: string, max: number) => {
    const facts = api.refFacts as (el: Element) => RefFacts | null;
    const headingOf = api.headingOf as (el: Element) => [string, string];
    const all = (api.queryAll as (s: string) => Element[])(selector).slice(0, max);
    const first = all[0] ? facts(all[0]) : null;
    if (!first?.name || all.length < 2) return [];
    const alike: AlikeFacts[] = [{ ...first, heading: headingOf(all[0]!) }];
    for (const el of all.slice(1)) {
      const f = facts(el);
      if (!f || f.role !== first.role || f.name !== first.name) continue;
      // Only the ones a refusal lists (ALIKE_LISTED) are told by their section.
      alike.push(alike.length < 8 ? { ...f, heading: headingOf(el) } : f);
    }
    return alike.length > 1 ? alike : [];
  };

  // The page's text is the text model's (text_lib.ts): what the snapshot shows.
  const shownText = () => (api.shownText as () => string)();
  /** The start of the page's shown text, whitespace collapsed (for wait_for's lastSeen). */
  api.textExcerpt = (max: number) => shownText().replace(/\s+/g, " ").trim().slice(0, max);
  /** Shown text of the page (for wait_for text): whitespace-normalized, lower-cased. */
  api.pageText = () => normText(shownText());
  /** Whether the page's shown text contains `text` (case-insensitive). */
  api.hasText = (text: string) => normText(shownText()).includes(normText(text));
}
