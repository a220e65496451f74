/// <reference lib="dom" />
/**
 * Page-side submission watch, installed after `form_lib.ts` (uses its `api.formKit`): whether
 * a submit event reached a form, whether the page took it over (`preventDefault`: a script
 * sends it) or the browser sends it, what the browser's validation said, and why Enter in a
 * field would not send its form.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { FormSendFact, SendCandidate, SubmitWatch } from "./form_types.ts";

/**
 * Adds `formWatchSubmit`, `formSubmitState`, `formUnwatchSubmit`, `formEnterBlocker`,
 * `formsSendFacts` and `formSendData` (the data a form would send, entry by entry, for the
 * human's yes to "send a form" and the navigation guard's check of the request:
 * `browser/nav_guard/approved_data.ts`).
 */
export function installFormSubmitLib(api: PageApi): void {
  const { hasAttrOf, closestOf, matchesOf, rootNodeOf, qsaOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  const kit = api.formKit;
  const { selectorFor } = kit;
  const describe = api.describeElement as Fn<[Element], string>;

  /** The form a submit control sends: its owner, or (a scripted div button) the one around it. */
  const formOf = (el: Element): HTMLFormElement | null =>
    kit.isControl(el) ? (el as Control).form : closestOf(el, "form");

  // Submission watch: whether a submit event reached the form, and whether the page took
  // it over (preventDefault: a script sends it) or the browser sends it.
  const watches = new WeakMap<Element, { state: SubmitWatch; off: () => void }>();
  /** Starts watching the form that `submit` sends. */
  api.formWatchSubmit = (submit: Element) => {
    watches.get(submit)?.off();
    const form = formOf(submit);
    const state: SubmitWatch = {
      form: !!form,
      submitted: false,
      prevented: false,
      settled: false,
      invalid: [],
    };
    if (!form) {
      watches.set(submit, { state, off: () => {} });
      return state;
    }
    // A page that takes the submit over and re-renders (an SPA adding the item) has handled
    // it: nothing else needs to follow.
    let observer: MutationObserver | undefined;
    const onSubmit = (e: Event) => {
      state.submitted = true;
      if (!observer) {
        observer = new MutationObserver(() => {
          state.changed = true;
          observer?.disconnect();
        });
        // Nodes and text only: a class or an attribute (a validation style) is not handling.
        observer.observe(document, { subtree: true, childList: true, characterData: true });
      }
      // Page handlers run after this capture listener: read their verdict a task later.
      setTimeout(() => {
        state.prevented = e.defaultPrevented;
        state.settled = true;
      }, 0);
    };
    const onInvalid = (e: Event) => {
      const t = e.target as Control;
      // The page's message (setCustomValidity) in quotes: its words, not browxai's advice.
      (state.invalid as string[]).push(
        `${t.name || selectorFor(t)}: ${JSON.stringify(t.validationMessage.slice(0, 200))}`,
      );
    };
    // Enter in a field: whether the page's key handler took the key over (no implicit submit).
    const onKey = (e: Event) => {
      if ((e as KeyboardEvent).key !== "Enter") return;
      // `fill` starts the watch before its value goes in: what the page's own checks said
      // meanwhile (checkValidity fires invalid) is not the verdict on this Enter.
      if (e.type === "keydown") (state.invalid as string[]).length = 0;
      setTimeout(() => {
        if (e.defaultPrevented) state.keyPrevented = true;
      }, 0);
    };
    // The form's events, seen by the world's first listeners (first_listeners.ts): a page's
    // window listener that stops them runs after these.
    const inForm = (fn: (e: Event) => void) => (e: Event) => {
      if (e.composedPath().includes(form)) fn(e);
    };
    const listeners = Object.entries({ submit: onSubmit, invalid: onInvalid, keydown: onKey })
      .concat([["keypress", onKey]]).map(([type, fn]) => [type, inForm(fn)] as const);
    for (const [type, fn] of listeners) api.onFirst(type, fn);
    watches.set(submit, {
      state,
      off: () => {
        observer?.disconnect();
        for (const [type, fn] of listeners) api.offFirst(type, fn);
      },
    });
    return state;
  };
  /** What the watch saw so far. */
  api.formSubmitState = (submit: Element) => watches.get(submit)?.state ?? null;
  /** Stops watching (the watch of `submit`, if any). */
  api.formUnwatchSubmit = (submit: Element) => {
    watches.get(submit)?.off();
    watches.delete(submit);
  };

  /**
   * Why Enter in `field` does not send its form (HTML implicit submission), or null when it
   * would (or the field has no form): `multiline` (a textarea or editable region adds a line),
   * `disabled-button` (the form's default button is disabled; `button` describes it), or
   * `no-button` (no submit button and more than one field that blocks implicit submission;
   * `fields` names them).
   */
  api.formEnterBlocker = (field: Element) => {
    const form = formOf(field);
    if (!form) return null;
    if (field instanceof HTMLTextAreaElement || (field as HTMLElement).isContentEditable) {
      return { kind: "multiline" };
    }
    // Tree order, with image buttons (form.elements leaves them out).
    const root = rootNodeOf(form) as ParentNode;
    const listed = [...qsaOf(root, "button, input")].filter((c) =>
      (c as Control).form === form
    ) as Control[];
    const button = listed.find((c) => kit.isSubmit(c));
    if (button) {
      return matchesOf(button, ":disabled")
        ? { kind: "disabled-button", button: describe(button) }
        : null;
    }
    const BLOCKS =
      /^(text|search|url|tel|email|password|date|month|week|time|datetime-local|number)$/;
    const fields = listed.filter((c) => c instanceof HTMLInputElement && BLOCKS.test(c.type));
    return fields.length > 1
      ? { kind: "no-button", fields: fields.map((f) => f.name || selectorFor(f)) }
      : null;
  };

  // The forms' own getters, taken from this world's prototypes: a page's `<input name=action>`
  // shadows `form.action` (and `<img name=forms>` `document.forms`) in every world.
  const getter = <T>(proto: object, name: string) => {
    const get = Object.getOwnPropertyDescriptor(proto, name)!.get!;
    return (o: object) => get.call(o) as T;
  };
  const formsOf = getter<HTMLCollectionOf<HTMLFormElement>>(Document.prototype, "forms");
  const F = HTMLFormElement.prototype;
  const actionOf = getter<string>(F, "action");
  const methodOf = getter<string>(F, "method");
  const targetOf = getter<string>(F, "target");
  const enctypeOf = getter<string>(F, "enctype");
  const elementsOf = getter<HTMLFormControlsCollection>(F, "elements");
  /**
   * A 53-bit hash of `s` under `seed` (cyrb53, as `snapshot/ticking.ts`: page code is sent as
   * source and imports nothing): the seed is the server's, unknown to the page, which so cannot
   * make another value with the same hash.
   */
  const hash = (s: string, seed: number) => {
    let h1 = 0xdeadbeef ^ seed, h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  /** What a control adds to its form's data set (HTML "constructing the entry list"). */
  const entriesOf = (c: Element): string[] => {
    const el = c as Control;
    if (!el.name || matchesOf(el, ":disabled") || el instanceof HTMLButtonElement) return [];
    if (el instanceof HTMLSelectElement) {
      return [...el.selectedOptions].map((o) => o.value);
    }
    if (el instanceof HTMLInputElement) {
      if (/^(submit|image|reset|button)$/.test(el.type)) return [];
      if (/^(checkbox|radio)$/.test(el.type)) return el.checked ? [el.value] : [];
      if (el.type === "file") return [...el.files ?? []].map((f) => `${f.name}:${f.size}`);
    }
    // An output, a fieldset, an object or a custom element sends nothing the page can't add
    // at submit time anyway (its formdata event).
    return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? [el.value] : [];
  };
  /**
   * What each form of this document would send, in document order: where (method and action
   * resolved), how (target, encoding, and each submit button's own `formaction` and the like)
   * and a hash of every field's value by name (`amount=<hash>`; `seed` keeps the page from
   * making a collision). A human's yes to "send a form" holds only while these stay the same.
   */
  api.formsSendFacts = (seed: number): FormSendFact[] =>
    [...formsOf(document)].map((f) => {
      const controls = [...elementsOf(f)];
      const fields = controls.flatMap((c) =>
        entriesOf(c).map((v) => `${(c as Control).name}=${hash(v, seed)}`)
      );
      const submitters = controls.filter((c) =>
        kit.isControl(c) && kit.isSubmit(c) &&
        ["formaction", "formmethod", "formtarget", "formenctype"].some((a) => hasAttrOf(c, a))
      ).map((c) => {
        const b = c as HTMLButtonElement;
        return {
          by: describe(b),
          to: `${b.formMethod.toUpperCase()} ${b.formAction}`,
          how: `target "${b.formTarget}", ${b.formEnctype}`,
        };
      });
      return {
        to: `${methodOf(f).toUpperCase()} ${actionOf(f)}`,
        how: `target "${targetOf(f)}", ${enctypeOf(f)}`,
        submitters,
        fields,
      };
    });

  /** The form's submit buttons in tree order, image buttons too (`form.elements` has none). */
  const submitsOf = (form: HTMLFormElement) =>
    [...qsaOf(rootNodeOf(form) as ParentNode, "button, input")].filter((c) =>
      (c as Control).form === form && kit.isSubmit(c as Control)
    ) as Control[];
  const isImage = (c: Element | null) => c instanceof HTMLInputElement && c.type === "image";

  /** One way of sending `form`: with `submitter`'s entry and its own destination, or none. */
  const candidate = (form: HTMLFormElement, submitter: Control | null): SendCandidate => {
    let data: FormData;
    try {
      // The browser's own entry list (form-associated custom elements and the page's formdata
      // listeners included: constructing it fires `formdata`, as sending does).
      data = new FormData(form, submitter as HTMLElement | null);
    } catch {
      data = new FormData();
    }
    const entries: Array<[string, string]> = [];
    for (const [name, v] of data) {
      entries.push([name, typeof v === "string" ? v : `\u0000file:${v.name}`]);
    }
    const b = submitter as HTMLButtonElement | null;
    const secret = [...qsaOf(rootNodeOf(form) as ParentNode, "input")].filter((c) =>
      (c as HTMLInputElement).form === form && (c as HTMLInputElement).type === "password"
    ).map((c) => (c as HTMLInputElement).name).filter((n) => n);
    // Fields a person does not see: a page may hide the one that matters among them.
    const hidden = [...qsaOf(rootNodeOf(form) as ParentNode, "input, select, textarea")].filter(
      (c) =>
        (c as HTMLInputElement).form === form && (c as HTMLInputElement).name &&
        ((c as HTMLInputElement).type === "hidden" ||
          !c.checkVisibility({ opacityProperty: true, visibilityProperty: true })),
    ).map((c) => (c as HTMLInputElement).name);
    return {
      form: [...formsOf(document)].indexOf(form),
      by: b ? describe(b) : null,
      // A button's own formmethod/formaction only when set (`formAction` is the document's URL
      // when not, not the form's action).
      to: `${(b && hasAttrOf(b, "formmethod") ? b.formMethod : methodOf(form)).toUpperCase()} ${
        b && hasAttrOf(b, "formaction") ? b.formAction : actionOf(form)
      }`,
      entries,
      ...(isImage(b) ? { image: b!.name } : {}),
      ...(secret.length ? { secret } : {}),
      ...(hidden.length ? { hidden: [...new Set(hidden)] } : {}),
    };
  };

  /**
   * The ways the action on `el` (or, null, on the focused element) may send a form of this
   * document, each with the data it would send. `el` in a form: with `el` as the submitter
   * when it is a submit button, else with the form's default button (Enter's implicit
   * submission) — and with no submitter (a page script's `requestSubmit()`). `el` in no form
   * (a scripted button): every form, with each of its submit buttons and with none.
   */
  api.formSendData = (el: Element | null): SendCandidate[] => {
    let at = el ?? document.activeElement;
    if (at === document.body || at === document.documentElement) at = null;
    const owner = at ? formOf(at) : null;
    if (owner) {
      const own = kit.isControl(at!) && kit.isSubmit(at as Control) && (at as Control).form ===
          owner
        ? at as Control
        : submitsOf(owner)[0] ?? null;
      return own ? [candidate(owner, own), candidate(owner, null)] : [candidate(owner, null)];
    }
    return [...formsOf(document)].flatMap((f) => [
      ...submitsOf(f).map((s) => candidate(f, s)),
      candidate(f, null),
    ]);
  };
}
