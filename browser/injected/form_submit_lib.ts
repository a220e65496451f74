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
import type { SubmitWatch } from "./form_types.ts";

/** Adds `formWatchSubmit`, `formSubmitState`, `formUnwatchSubmit` and `formEnterBlocker`. */
export function installFormSubmitLib(api: PageApi): void {
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  const kit = api.formKit;
  const { selectorFor } = kit;
  const describe = api.describeElement as Fn<[Element], string>;

  /** The form a submit control sends: its owner, or (a scripted div button) the one around it. */
  const formOf = (el: Element): HTMLFormElement | null =>
    kit.isControl(el) ? (el as Control).form : el.closest("form");

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
      (state.invalid as string[]).push(`${t.name || selectorFor(t)}: ${t.validationMessage}`);
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
    const root = form.getRootNode() as ParentNode;
    const listed = [...root.querySelectorAll("button, input")].filter((c) =>
      (c as Control).form === form
    ) as Control[];
    const button = listed.find((c) => kit.isSubmit(c));
    if (button) {
      return button.matches(":disabled")
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
}
