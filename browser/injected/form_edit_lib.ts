/// <reference lib="dom" />
/**
 * Page-side form writing, installed after `form_lib.ts` (uses its
 * `api.formKit`): set a field like a user would, find and write a rich-text
 * editor and sync the field it posts as, find a submit control by its
 * text; and after `sanitize_lib.ts` (markup goes through its
 * `api.sanitizeHtml`). Failures are returned as `{ error, code }` (code: a
 * ToolError code), never thrown.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { SetFieldResult } from "./form_types.ts";
import type { PageErrorCode, PageFailure, ShownAs } from "./page_types.ts";

/** Adds the form-writing methods to the utility api. */
export function installFormEditLib(api: PageApi): void {
  const { parentElOf, closestOf, matchesOf, textContentOf, containsOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  const kit = api.formKit;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const describe = api.describeElement as Fn<[Element], string>;
  const sanitize = api.sanitizeHtml;
  const fail = (code: PageErrorCode, error: string): PageFailure => ({ error, code });
  const fire = (el: Element, type: string) =>
    el.dispatchEvent(
      type === "input"
        ? new InputEvent("input", {
          bubbles: true,
          composed: true,
          inputType: "insertReplacementText",
        })
        : new Event(type, { bubbles: true }),
    );
  const same = (a: string, b: string) => kit.norm(a).toLowerCase() === kit.norm(b).toLowerCase();
  const groupOf = (el: HTMLInputElement) =>
    el.name
      ? kit.controlsOf(el.form, el.form ? el.form : el.ownerDocument.body).filter((c) =>
        c instanceof HTMLInputElement && c.type === el.type && c.name === el.name
      ) as HTMLInputElement[]
      : [el];
  const pick = (group: HTMLInputElement[], v: string) =>
    group.find((c) => c.value === v) ?? group.find((c) => same(kit.labelText(c), v));
  // A click toggles a checkbox and picks a radio, firing click, input and change like a user.
  const setChecked = (el: HTMLInputElement, on: boolean) => {
    if (el.checked !== on) el.click();
    return el.checked === on;
  };

  const inside = (scope: Element) => [...qsaOf(scope, "input, select, textarea")] as Control[];
  /** The root's controls, then (without a root) the page's: where names are looked up. */
  const scopes = (root: string | null): Control[][] | null => {
    const r = kit.rootOf(root);
    if ("error" in r) return null;
    const first = r.form ? kit.controlsOf(r.form, r.form) : inside(r.scope);
    return root === null ? [first, inside(document.documentElement)] : [first];
  };
  /**
   * The fields whose label (as read_form reports it: the accessible name — a <label>,
   * aria-label…; a radio or checkbox group's legend) is `label`, trimmed and case-insensitive;
   * one control per same-name radio/checkbox group. From the first scope with any.
   */
  const byLabel = (root: string | null, label: string): Control[] => {
    for (const controls of scopes(root) ?? []) {
      const found: Control[] = [];
      const groups = new Set<string>();
      for (const c of controls) {
        const type = kit.typeOf(c);
        if (["hidden", "button", "submit", "reset", "image"].includes(type)) continue;
        const grouped = (type === "radio" || type === "checkbox") && c.name !== "";
        const legend = grouped ? closestOf(c, "fieldset")?.querySelector(":scope > legend") : null;
        if (
          !same(kit.labelText(c), label) && !(legend && same(textContentOf(legend) ?? "", label))
        ) {
          continue;
        }
        if (grouped) {
          if (groups.has(type + ":" + c.name)) continue;
          groups.add(type + ":" + c.name);
        }
        found.push(c);
      }
      if (found.length) return found;
    }
    return [];
  };

  /**
   * The control named `name`: in the root form (default: read_form's default form), else —
   * without a root — anywhere on the page. The first usable one of several. When no control
   * has that name attribute, the one field labelled `name` ({@link byLabel}); none when
   * several are (`formFieldsLabelled` lists them).
   */
  api.formFieldByName = (root: string | null, name: string) => {
    const pickFrom = (controls: Control[]) => {
      const all = controls.filter((c) => c.name === name);
      return all.find((c) => kit.usable(c)) ?? all[0] ?? null;
    };
    for (const controls of scopes(root) ?? []) {
      const hit = pickFrom(controls);
      if (hit) return hit;
    }
    const labelled = byLabel(root, name);
    return labelled.length === 1 ? labelled[0]! : null;
  };

  /** Descriptions of the fields labelled `label` ({@link byLabel}), for an ambiguity error. */
  api.formFieldsLabelled = (root: string | null, label: string) =>
    byLabel(root, label).slice(0, 10).map((c) =>
      c.name ? `${describe(c)} (name "${c.name}")` : describe(c)
    );

  /**
   * Sets a field like a user: text by value, select by value or label, checkbox by boolean
   * (a same-name group by value or array of values), radio by value or label.
   */
  api.formSetField = (
    el: Element,
    value: unknown,
    byName: boolean,
    shown?: ShownAs | null,
  ): SetFieldResult => {
    // Still the item its ref was shown as (a ref's field): before, once focused (a focus
    // handler may re-render the list, re-using the field for another item), and after its
    // input and change events ran (the value is in: `landed`, said, not undone).
    const reused = (during = false) => {
      const changed = shown ? api.refChanged(el, shown, during) : undefined;
      return changed && { error: "re-used for another item", code: "ref-gone" as const, changed };
    };
    const early = reused();
    if (early) return early;
    const r = setField(el, value, byName, reused);
    const late = "error" in r ? undefined : reused(true);
    return late ? { ...late, landed: true } : r;
  };

  const setField = (
    el: Element,
    value: unknown,
    byName: boolean,
    reused: () => SetFieldResult | undefined,
  ): SetFieldResult => {
    if (!kit.isControl(el)) {
      if ((el as HTMLElement).isContentEditable || el instanceof HTMLIFrameElement) {
        return fail("invalid-argument", `${describe(el)} is a rich-text editor: use set_editor`);
      }
      return fail("invalid-argument", `${describe(el)} is not a form field`);
    }
    const c = el as Control;
    const type = kit.typeOf(c);
    if (type === "hidden") return fail("not-visible", "it is a hidden input (the page sets it)");
    if (type === "file") return fail("invalid-argument", "it is a file input: use upload_file");
    if (c instanceof HTMLButtonElement || ["submit", "reset", "button", "image"].includes(type)) {
      return fail("invalid-argument", `${describe(c)} is a button, not a field`);
    }
    const group = c instanceof HTMLInputElement && (type === "radio" || type === "checkbox")
      ? groupOf(c)
      : [c];
    if (matchesOf(c, ":disabled")) return fail("not-enabled", "it is disabled");
    if (!group.some((g) => kit.usable(g))) {
      return fail("not-visible", "it is hidden right now (reveal its section first)");
    }
    if ((c as HTMLInputElement).readOnly) return fail("not-editable", "it is read-only");
    const options = () => group.map((g) => g.value);
    if (type === "radio") {
      const want = value === true
        ? c as HTMLInputElement
        : pick(group as HTMLInputElement[], String(value));
      if (value === false) {
        return fail("invalid-argument", "a radio cannot be unchecked: choose another option");
      }
      if (!want) {
        return fail("not-found", `no option "${value}"; options: ${JSON.stringify(options())}`);
      }
      if (!kit.usable(want)) {
        return fail("not-visible", `option "${want.value}" is hidden or disabled`);
      }
      return setChecked(want, true)
        ? { ok: true, value: want.value }
        : fail("not-actionable", "the page kept it unchecked");
    }
    if (type === "checkbox") {
      const boxes = group as HTMLInputElement[];
      const asBool = typeof value === "boolean"
        ? value
        : /^(true|on|yes)$/i.test(String(value))
        ? true
        : /^(false|off|no)$/i.test(String(value))
        ? false
        : null;
      if (boxes.length > 1 && (Array.isArray(value) || (byName && asBool === null))) {
        const wanted = (Array.isArray(value) ? value : [value]).map(String);
        const missing = wanted.filter((w) => !pick(boxes, w));
        if (missing.length) {
          return fail(
            "not-found",
            `no option ${JSON.stringify(missing)}; options: ${JSON.stringify(options())}`,
          );
        }
        const on = new Set(wanted.map((w) => pick(boxes, w)!));
        // An array says which boxes are checked; a single value only checks that one.
        for (const b of boxes) if (on.has(b) || Array.isArray(value)) setChecked(b, on.has(b));
        return { ok: true, value: boxes.filter((b) => b.checked).map((b) => b.value) };
      }
      if (boxes.length > 1 && byName) {
        return fail(
          "invalid-argument",
          `"${c.name}" names ${boxes.length} checkboxes: pass the values to check, e.g. ${
            JSON.stringify(options().slice(0, 2))
          }`,
        );
      }
      const box = c as HTMLInputElement;
      const on = asBool ?? (String(value) === box.value ? true : null);
      if (on === null) return fail("invalid-argument", "a checkbox takes true or false");
      return setChecked(box, on)
        ? { ok: true, checked: box.checked }
        : fail("not-actionable", "the page reverted it");
    }
    if (c instanceof HTMLSelectElement) {
      const wanted = (Array.isArray(value) ? value : [value]).map(String);
      const find = (w: string) =>
        [...c.options].find((o) => o.value === w) ??
          [...c.options].find((o) => same(o.label, w) || same(o.text, w));
      const found = wanted.map(find);
      if (found.some((o) => !o)) {
        return fail(
          "not-found",
          `no option ${JSON.stringify(wanted.filter((_, i) => !found[i]))}; options: ${
            JSON.stringify([...c.options].slice(0, 30).map((o) => o.label))
          }`,
        );
      }
      if (found.some((o) => o!.disabled)) return fail("not-enabled", "that option is disabled");
      if (wanted.length > 1 && !c.multiple) {
        return fail("invalid-argument", "a single <select> takes one value");
      }
      c.focus();
      const moved = reused();
      if (moved) return moved;
      api.noteEdit(c);
      for (const o of c.options) o.selected = found.includes(o);
      api.noteEdit(c, true);
      fire(c, "input");
      fire(c, "change");
      return { ok: true, value: c.multiple ? [...c.selectedOptions].map((o) => o.value) : c.value };
    }
    if (typeof value !== "string" && typeof value !== "number") {
      return fail("invalid-argument", `a ${type} field takes a string`);
    }
    const text = String(value);
    c.focus();
    const moved = reused();
    if (moved) return moved;
    // Typed, not the page's: the row keeps its item (context_lib.ts).
    const typed = c instanceof HTMLInputElement || c instanceof HTMLTextAreaElement;
    if (typed) api.noteEdit(c);
    const before = c.value;
    c.value = text;
    if (c.value !== text) {
      // A refused value empties the field (a date not in its format): put back what it held
      // (no event fired: the page saw no change).
      c.value = before;
      return fail(
        "invalid-argument",
        `the field rejected the value (a ${type} field)${
          c.value === before ? "; it was left as it was" : ""
        }`,
      );
    }
    if (typed) api.noteEdit(c, true);
    fire(c, "input");
    fire(c, "change");
    return { ok: true, value: isSecret(c) ? (text ? "••••" : "") : kit.cut(text, 200) };
  };

  /** The editor an element stands for (itself, its iframe, the field it posts as, or one inside it). */
  api.formFindEditor = (el: Element | null) => {
    if (!el) return kit.editorsIn(document)[0] ?? null;
    if (el instanceof HTMLIFrameElement) return kit.editableOf(el) ? el : null;
    if ((el as HTMLElement).isContentEditable) {
      let root = el as HTMLElement;
      while (parentElOf(root)?.isContentEditable) root = parentElOf(root)!;
      // The body of an iframe editor: the iframe is the editor.
      const frame = root.ownerDocument.defaultView?.frameElement;
      return root === root.ownerDocument.body && frame ? frame : root;
    }
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
      return kit.editorsIn(el.ownerDocument).find((e) => kit.backingOf(e) === el) ?? null;
    }
    return kit.editorsIn(el)[0] ?? null;
  };

  /** What set_editor reports about an editor, with the posted field's current value. */
  api.formEditorInfo = (ed: Element) => ({
    ...kit.editorInfo(ed, false),
    backingValue: kit.backingOf(ed)?.value ?? null,
  });

  /** Focuses the editor and selects all its content, ready for typing over it. */
  api.formEditorFocus = (ed: Element) => {
    const body = kit.editableOf(ed);
    if (!body) return false;
    const win = body.ownerDocument.defaultView;
    if (ed instanceof HTMLIFrameElement) ed.contentWindow?.focus();
    body.focus();
    const range = body.ownerDocument.createRange();
    range.selectNodeContents(body);
    const sel = win?.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    return body.ownerDocument.activeElement === body ||
      containsOf(body, body.ownerDocument.activeElement);
  };

  /**
   * Replaces the editor's content with markup, or with text (newlines become line breaks).
   * Markup is never assigned as a string: `sanitizeHtml` (sanitize_lib.ts) parses it inertly and
   * cleans it, and its nodes are imported, so no script or handler of it ever runs. Returns the
   * clean markup (what an editor API gets) and what was removed.
   */
  api.formEditorWrite = (ed: Element, content: { html?: string; text?: string }) => {
    const body = kit.editableOf(ed);
    if (!body) return fail("not-editable", "the editor has no editable body");
    if (content.html === undefined) {
      body.innerText = content.text ?? "";
      fire(body, "input");
      return { ok: true };
    }
    const clean = sanitize(content.html, body);
    if ("error" in clean) return clean;
    body.replaceChildren(body.ownerDocument.importNode(clean.fragment, true));
    fire(body, "input");
    return { ok: true, html: clean.html, removed: clean.removed };
  };

  /** The editor's current content. */
  api.formEditorContent = (ed: Element) => {
    const body = kit.editableOf(ed);
    return { text: body?.innerText ?? "", html: body?.innerHTML ?? "" };
  };

  /**
   * Makes the posted field carry the editor's content. A page that synced it already (its
   * field changed since `before`) is left alone: its own format wins. Returns who synced.
   */
  api.formEditorSync = (ed: Element, before: string | null, byApi: string | null) => {
    const backing = kit.backingOf(ed);
    const body = kit.editableOf(ed);
    if (!backing || !body) return { postsAs: null, syncedBy: null };
    let syncedBy = byApi ?? "page";
    if (!byApi && backing.value === before) {
      backing.value = body.innerHTML;
      fire(backing, "input");
      fire(backing, "change");
      syncedBy = "browxai";
    }
    return { postsAs: backing.name || null, syncedBy };
  };

  /** The submit control `spec` names: a submit button's text, else a selector. */
  api.formSubmitControl = (spec: string) => {
    const submits = [...document.querySelectorAll(
      "button, input[type=submit], input[type=image], input[type=button], [role=button]",
    )];
    const byText = submits.filter((b) =>
      same((b as HTMLElement).innerText || (b as HTMLInputElement).value || "", spec)
    );
    const hit = byText.find((b) => kit.shown(b)) ?? byText[0];
    if (hit) return kit.selectorFor(hit);
    try {
      const el = (api.queryAll as Fn<[string], Element[]>)(spec)[0];
      return el ? kit.selectorFor(el) : null;
    } catch {
      return null;
    }
  };
}
