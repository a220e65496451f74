/// <reference lib="dom" />
/**
 * Page-side form reading, installed in browxai's isolated world after the
 * snapshot and action libs (it uses `nameOf`, `isSecret`, `maskSecret` and
 * `queryAll`): a form's fields, its submit controls and its rich-text
 * editors (`formDescribe`). `form_publish_lib.ts` (publish/draft controls)
 * and `form_edit_lib.ts` (writing) build on the helpers this part leaves in
 * `api.formKit`.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { PageFailure } from "./page_types.ts";

/** Adds `formDescribe` and the shared `formKit` to the utility api. */
export function installFormLib(api: PageApi): void {
  const { localOf, attrOf, parentElOf, visibleEl, rectOf, closestOf, matchesOf } = api.dom;
  const { containsOf, qsaOf, qsOf, formElementsOf, childrenOf, docFormsOf, docBodyOf } = api.dom;
  const { connectedOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  const nameOf = api.nameOf as Fn<[Element], string>;
  const isSecret = api.isSecret as Fn<[Element], boolean>;
  const maskSecret = api.maskSecret as Fn<[string], string>;
  const invalidOf = api.invalidOf as Fn<[Element], string | null>;
  const queryAll = api.queryAll as Fn<[string], Element[]>;
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  // The server makes the cut (browser/page_cuts.ts): it can keep it clear of secrets' values.
  const cut = (s: string, n: number) =>
    s.length > n ? `\u0000${n}\u0000${s.slice(0, n + 4096)}` : s;
  const MAX_OPTIONS = 50;

  const isControl = (el: Element | null): el is Control =>
    el instanceof HTMLInputElement || el instanceof HTMLSelectElement ||
    el instanceof HTMLTextAreaElement || el instanceof HTMLButtonElement;
  const typeOf = (el: Control): string =>
    el instanceof HTMLSelectElement
      ? (el.multiple ? "select-multiple" : "select")
      : el instanceof HTMLTextAreaElement
      ? "textarea"
      : el instanceof HTMLButtonElement
      ? "button"
      : el.type || "text";
  /** What a submit control is named like, from its start (`Save notes`, `Sign in`). */
  const SUBMIT_WORDS =
    /^(submit|save|send|search|sign ?in|sign ?up|log ?in|register|continue|next|confirm|apply|check ?out|place order|pay|subscribe|post|publish|update|create|go|done|finish)\b/i;
  const isSubmit = (el: Control) =>
    (el instanceof HTMLButtonElement && el.type === "submit") ||
    (el instanceof HTMLInputElement && (el.type === "submit" || el.type === "image"));

  const shown = (el: Element): boolean => {
    if (!connectedOf(el) || !visibleEl(el, { visibilityProperty: true })) return false;
    const r = rectOf(el);
    return r.width > 0 && r.height > 0;
  };
  /** Whether a user could set the control now: not disabled, and on screen. */
  const usable = (el: Control): boolean => {
    if (matchesOf(el, ":disabled")) return false;
    if (shown(el)) return true;
    if (!(el instanceof HTMLInputElement)) return false;
    // Styled checkboxes and radios hide the input and show its label; styled file
    // pickers hide the input behind a button (it still takes files).
    if (el.type === "checkbox" || el.type === "radio") return [...(el.labels ?? [])].some(shown);
    if (el.type === "file") {
      const up = parentElOf(el);
      return !!up && shown(up);
    }
    return false;
  };

  const cssString = (s: string) =>
    '"' + s.replace(/["\\]/g, "\\$&").replace(/\n/g, "\\a ").replace(/\r/g, "\\d ") + '"';
  /** A selector that matches exactly this element in its document. */
  const selectorFor = (el: Element): string => {
    const doc = el.ownerDocument;
    const unique = (s: string) => qsaOf(doc, s).length === 1;
    if (el.id && unique("#" + CSS.escape(el.id))) return "#" + CSS.escape(el.id);
    const name = attrOf(el, "name");
    if (name !== null) {
      const s = `${localOf(el)}[name=${cssString(name)}]`;
      if (unique(s)) return s;
      const v = attrOf(el, "value");
      if (v !== null && unique(`${s}[value=${cssString(v)}]`)) return `${s}[value=${cssString(v)}]`;
    }
    const parts: string[] = [];
    for (let n: Element | null = el; n && n !== doc.documentElement; n = parentElOf(n)) {
      if (n !== el && n.id && unique("#" + CSS.escape(n.id))) {
        parts.unshift("#" + CSS.escape(n.id));
        break;
      }
      const parent: Element | null = parentElOf(n);
      const tag = localOf(n);
      const same = parent ? [...childrenOf(parent)].filter((c) => localOf(c) === tag) : [n];
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(n) + 1})` : tag);
    }
    return parts.join(" > ");
  };

  /** The form to read: `root` (a form, inside one, or holding one), else the page's biggest form. */
  const rootOf = (
    root: string | null,
  ): { form: HTMLFormElement | null; scope: Element } | PageFailure => {
    if (root) {
      const el = queryAll(root)[0];
      if (!el) return { error: `No element matches root "${root}"`, code: "not-found" };
      const form = el instanceof HTMLFormElement ? el : closestOf(el, "form") ?? qsOf(el, "form");
      return { form, scope: form ?? el };
    }
    // The page's first form is often a header's search box: take the one with most fields.
    let best: HTMLFormElement | null = null, most = -1;
    for (const f of docFormsOf(document)) {
      const n = [...formElementsOf(f)].filter((e) => isControl(e) && usable(e)).length;
      if (n > most) [best, most] = [f, n];
    }
    return { form: best, scope: best ?? docBodyOf(document)! };
  };
  /** The controls that post with the form (also those outside it with form=…). */
  const controlsOf = (form: HTMLFormElement | null, scope: Element): Control[] =>
    form
      ? [...formElementsOf(form)].filter(isControl)
      : [...qsaOf(scope, "input, select, textarea, button")].filter(
        (c): c is Control => isControl(c) && !c.form,
      );

  /** The editable element of an editor: its own element, or an iframe's editable body. */
  const editableOf = (ed: Element): HTMLElement | null => {
    if (!(ed instanceof HTMLIFrameElement)) {
      return (ed as HTMLElement).isContentEditable ? ed as HTMLElement : null;
    }
    try {
      const d = ed.contentDocument;
      if (!d?.body) return null;
      if (d.designMode === "on" || d.body.isContentEditable) return d.body;
      return d.body.querySelector<HTMLElement>("[contenteditable]:not([contenteditable=false])");
    } catch {
      return null;
    }
  };
  /** Rich-text editors inside a scope: contenteditable roots and iframes with an editable body. */
  const editorsIn = (scope: Element | Document): Element[] =>
    [...qsaOf(scope, "[contenteditable], iframe")].filter((el) =>
      el instanceof HTMLIFrameElement
        ? !!editableOf(el)
        : (el as HTMLElement).isContentEditable && !parentElOf(el)?.isContentEditable
    );
  const byIdOrName = (
    doc: Document,
    key: string,
  ): HTMLInputElement | HTMLTextAreaElement | null => {
    const el = doc.getElementById(key) ??
      qsOf(doc, `textarea[name=${cssString(key)}], input[name=${cssString(key)}]`);
    return el instanceof HTMLTextAreaElement ||
        (el instanceof HTMLInputElement && el.type === "hidden")
      ? el
      : null;
  };
  /**
   * The field an editor's content posts as: TinyMCE's `X_ifr` iframe for `#X`, CKEditor 4's
   * `#cke_X` around it, Trix's `input=` attribute, an id stem (`summary-editor` → `summary`),
   * else the one hidden textarea next to it (CKEditor 5). Never a guessed hidden input: those
   * also carry tokens.
   */
  const backingOf = (ed: Element): HTMLInputElement | HTMLTextAreaElement | null => {
    const id = ed.id;
    // The editor's own document: the caller's world may sit in an iframe the editor owns.
    const find = (key: string) => byIdOrName(ed.ownerDocument, key);
    if (ed instanceof HTMLIFrameElement && id.endsWith("_ifr")) {
      const t = find(id.slice(0, -4));
      if (t) return t;
    }
    const cke = closestOf(ed, '[id^="cke_"]');
    if (cke) {
      const t = find(cke.id.slice(4));
      if (t) return t;
    }
    const linked = attrOf(ed, "input") ?? attrOf(ed, "data-input");
    if (linked && find(linked)) return find(linked);
    const stem = id.replace(/[-_]?(editor|ifr|iframe|content|rte|wysiwyg)$/i, "");
    if (stem && stem !== id && find(stem)) return find(stem);
    let a = parentElOf(ed);
    for (let i = 0; a && i < 3; i++, a = parentElOf(a)) {
      const hidden = [...qsaOf(a, "textarea")].filter((t) => !shown(t));
      if (hidden.length === 1) return hidden[0]!;
      if (hidden.length > 1) break;
    }
    return null;
  };
  const editorInfo = (ed: Element, full: boolean) => {
    const body = editableOf(ed);
    const backing = backingOf(ed);
    const text = norm(body?.innerText ?? "");
    const label = labelText(ed) || (backing ? labelText(backing) : "");
    return {
      kind: ed instanceof HTMLIFrameElement ? "iframe" : "contenteditable",
      selector: selectorFor(ed),
      ...(label ? { label } : {}),
      usable: shown(ed),
      postsAs: backing?.name || null,
      text: full ? cut(body?.innerText ?? "", 20000) : cut(text, 200),
      ...(full ? { html: cut(body?.innerHTML ?? "", 20000) } : {}),
    };
  };

  const labelText = (el: Element) => norm(nameOf(el));
  const optionList = <T>(list: T[]) => list.slice(0, MAX_OPTIONS);
  /** One entry per field (radio groups and same-name checkbox groups are one field). */
  const fieldsOf = (controls: Control[], form: HTMLFormElement | null, editors: Element[]) => {
    const backings = new Map(editors.map((e) => [backingOf(e), e] as const));
    const out: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    let hidden = 0;
    for (const el of controls) {
      const type = typeOf(el);
      if (type === "hidden") {
        hidden++;
        continue;
      }
      if (type === "button" || type === "submit" || type === "reset" || type === "image") continue;
      const f: Record<string, unknown> = { name: el.name || null, type };
      const outside = form && !containsOf(form, el);
      if (type === "radio" || type === "checkbox") {
        const group = el.name
          ? controls.filter((c) =>
            c instanceof HTMLInputElement && c.type === type &&
            c.name === el.name
          ) as HTMLInputElement[]
          : [el as HTMLInputElement];
        if (type === "radio" || group.length > 1) {
          if (el.name && seen.has(type + ":" + el.name)) continue;
          seen.add(type + ":" + el.name);
          const legend = closestOf(el, "fieldset")?.querySelector(":scope > legend");
          f.label = norm(legend?.textContent) || el.name;
          f.options = optionList(group).map((c) => ({
            value: c.value,
            label: labelText(c),
            ...(c.checked ? { checked: true } : {}),
            ...(usable(c) ? {} : { usable: false }),
          }));
          const on = group.filter((c) => c.checked).map((c) => c.value);
          f.value = type === "radio" ? on[0] ?? null : on;
          f.usable = group.some(usable);
          if (group.some((c) => c.required)) f.required = true;
        } else {
          f.label = labelText(el);
          f.checked = (el as HTMLInputElement).checked;
          if (el.value !== "on") f.value = el.value;
          f.usable = usable(el);
          if ((el as HTMLInputElement).required) f.required = true;
        }
      } else {
        f.label = labelText(el) || (el as HTMLInputElement).placeholder || "";
        if (el instanceof HTMLSelectElement) {
          f.options = optionList([...el.options]).map((o) => ({
            value: o.value,
            label: norm(o.label),
            ...(o.selected ? { selected: true } : {}),
          }));
          if (el.options.length > MAX_OPTIONS) f.optionCount = el.options.length;
          f.value = el.multiple ? [...el.selectedOptions].map((o) => o.value) : el.value;
        } else if (el instanceof HTMLInputElement && el.type === "file") {
          f.value = [...(el.files ?? [])].map((x) => x.name);
        } else if (isSecret(el)) {
          f.value = maskSecret(el.value);
          f.secret = true;
        } else f.value = cut(el.value, 1000);
        f.usable = usable(el);
        if ((el as HTMLInputElement).required) f.required = true;
      }
      const editor = backings.get(el as HTMLTextAreaElement);
      if (editor) f.editor = selectorFor(editor);
      if (!el.name || el.ownerDocument.getElementsByName(el.name).length > 1 && !f.options) {
        f.selector = selectorFor(el);
      }
      // What the page (aria-invalid) or the browser (:user-invalid) marks wrong, and its
      // shown error: "2 fields need attention" says neither which nor why.
      const bad = ((type === "radio" || type === "checkbox") && el.name
        ? controls.filter((c) =>
          c.name === el.name && typeOf(c) === type
        )
        : [el])
        .map(invalidOf).find((v) => v !== null);
      if (bad !== undefined) {
        f.invalid = true;
        if (bad) f.error = bad;
      }
      if (outside) f.outside = true;
      if (form && !el.form) f.posts = false;
      out.push(f);
    }
    return { fields: out, hidden };
  };

  /**
   * Describes a form. opts: { root: CSS | null, wholePage: also controls and editors outside
   * any form, full: whole editor bodies and attachments (review) }.
   */
  api.formDescribe = (opts: { root: string | null; wholePage: boolean; full: boolean }) => {
    const r = rootOf(opts.root);
    if ("error" in r) return r;
    const { form, scope } = r;
    let controls = controlsOf(form, scope);
    // An editor posts with the form when it sits in it or its field does (a dialog's editor).
    const editors = editorsIn(document).filter((e) =>
      opts.wholePage ||
      (form ? containsOf(form, e) || backingOf(e)?.form === form : containsOf(scope, e))
    );
    if (opts.wholePage && form) {
      const extra = [...document.querySelectorAll("input, select, textarea, button")].filter(
        (c): c is Control => isControl(c) && !c.form && !containsOf(form, c),
      );
      controls = [...controls, ...extra];
    }
    const { fields, hidden } = fieldsOf(controls, form, editors);
    // Installed after this part (form_publish_lib.ts): looked up when called.
    const { drafts, state } = (api.formDraftsOf as Fn<
      [Control[]],
      { drafts: unknown[]; state: string }
    >)(controls.filter((c) => !form || c.form === form));
    const textOf = (c: Control) => norm((c as HTMLElement).innerText) || c.value || labelText(c);
    // Without a form, a button submits nothing by itself: only the ones a person sees, outside
    // widgets' own buttons (an editor's toolbar, a calendar's days, a menu), that look like a
    // submit (typed so, or named like one) are offered: a new user was offered Delete, Bold
    // and Accept all as submit controls.
    const submitLike = (c: Control) =>
      c instanceof HTMLInputElement || attrOf(c, "type")?.toLowerCase() === "submit" ||
      SUBMIT_WORDS.test(textOf(c));
    const offered = (c: Control) =>
      form ? c.form === form : shown(c) &&
        !closestOf(c, "[role=toolbar],[role=grid],[role=menu],[role=menubar]");
    const candidates = controls.filter((c) => isSubmit(c) && offered(c));
    const kept = form ? candidates : candidates.filter(submitLike);
    const submits = kept.map((c) => ({
      text: textOf(c),
      selector: selectorFor(c),
      usable: usable(c),
    }));
    const out: Record<string, unknown> = {
      form: form
        ? {
          selector: selectorFor(form),
          action: form.action,
          method: form.method,
          ...(form.enctype !== "application/x-www-form-urlencoded"
            ? { enctype: form.enctype }
            : {}),
        }
        : null,
      formCount: docFormsOf(document).length,
      fields,
      hiddenInputs: hidden,
      submitText: submits,
      ...(kept.length < candidates.length
        ? {
          submitNote: `no <form> here: ${
            candidates.length - kept.length
          } other button(s) not listed, as none is typed or named like a submit (they act by the page's own scripts)`,
        }
        : {}),
      drafts,
      draftState: state,
      editors: editors.map((e) => editorInfo(e, opts.full)),
    };
    if (opts.full) {
      // What the form posts but no one sees: hidden inputs with a name (an editor's synced
      // body, ids, tokens), as the browser would send them (disabled ones are not sent).
      out.hidden = controls.filter((c): c is HTMLInputElement =>
        c instanceof HTMLInputElement && c.type === "hidden" && !!c.name && !c.disabled &&
        (!form || c.form === form)
      ).map((c) => ({
        name: c.name,
        value: isSecret(c) ? maskSecret(c.value) : cut(c.value, 20000),
      }));
      out.attachments = controls.filter((c): c is HTMLInputElement =>
        c instanceof HTMLInputElement && c.type === "file"
      ).map((c) => ({ name: c.name, files: [...(c.files ?? [])].map((x) => x.name) }));
    }
    return out;
  };

  api.formKit = {
    isControl,
    typeOf,
    usable,
    shown,
    selectorFor,
    cssString,
    controlsOf,
    rootOf,
    editorsIn,
    editableOf,
    backingOf,
    editorInfo,
    labelText,
    norm,
    cut,
    isSubmit,
  };
}
