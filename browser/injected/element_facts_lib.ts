/// <reference lib="dom" />
/**
 * Page-side element facts after an action (the ActionResult's `element`: value, checked,
 * display text, a submit control's invalid form) and scroll geometry, installed in browxai's
 * isolated world with the acting group.
 *
 * @module
 */
import type { PageApi } from "./page_api.ts";
import type { ElementInfo, FieldKept, ScrollInfo, ShownAs } from "./page_types.ts";

/**
 * Adds `elementInfo`, `enterBlocked`, `fieldKept`, `scrollInfo` and `scrollElement` to the
 * utility api.
 */
export function installElementFactsLib(api: PageApi): void {
  const { attrOf, hasAttrOf, shadowRootOf, matchesOf, textContentOf, formElementsOf } = api.dom;
  type El = Element & { disabled?: boolean; readOnly?: boolean; value?: string; type?: string };
  /**
   * Characters sent past a cut, so that the server can move the cut before a
   * secret's value that spans it (a kept prefix would not be masked).
   */
  const CUT_SLACK = 4096;
  /**
   * Facts about an element after an action (ActionResult `element`). Long
   * texts come with `cuts` (field → length to cut to, on the server).
   */
  api.elementInfo = (el: El, shown?: ShownAs | null) => {
    const attached = !!el && el.isConnected;
    if (!attached) return { stillAttached: false };
    // Re-used for another item while the action ran (its row's identity changed under it).
    const now = shown ? api.refChanged(el, shown, true) : undefined;
    const cuts: Record<string, number> = {};
    const info: ElementInfo = {
      stillAttached: true,
      focused: el === document.activeElement ||
        (!!document.activeElement && shadowRootOf(document.activeElement)?.activeElement === el),
    };
    // Secret fields (passwords, CSS-masked or one-time-code inputs) show a
    // fixed mask when filled, never their value or its length.
    const secretFn = api.isSecret as ((e: Element) => boolean) | undefined;
    const secret = secretFn
      ? secretFn(el)
      : el instanceof HTMLInputElement && el.type === "password";
    if (
      el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
      el instanceof HTMLSelectElement
    ) {
      // A checkbox's or radio's value attribute ("on") says nothing: `checked` does.
      const checkable = el instanceof HTMLInputElement &&
        (el.type === "checkbox" || el.type === "radio");
      if (!checkable) info.value = secret ? (el.value ? "••••" : "") : el.value;
    } else if ((el as HTMLElement).isContentEditable) {
      const text = (el as HTMLElement).innerText;
      // Cut on the server (`cuts`), which can tell a secret's value from the text around it.
      info.value = secret ? (text ? "••••" : "") : text.slice(0, 200 + CUT_SLACK);
      if (!secret && text.length > 200) cuts.value = 200;
    }
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      info.checked = el.checked;
    } else if (hasAttrOf(el, "aria-checked")) {
      info.checked = attrOf(el, "aria-checked") === "true";
    }
    const text = el instanceof HTMLSelectElement
      ? el.selectedOptions[0]?.label ?? ""
      : ((el as HTMLElement).innerText ?? textContentOf(el) ?? "");
    const display = text.replace(/\s+/g, " ").trim().slice(0, 80 + CUT_SLACK);
    if (display && !secret) info.displayText = display;
    if (display.length > 80 && !secret) cuts.displayText = 80;
    const invalid = invalidFormOf(el);
    if (invalid) info.formInvalid = invalid;
    if (el instanceof HTMLInputElement && !secret && el.value) {
      const range = rangeOf(el);
      if (range) info.validity = range;
    }
    if (now) info.reusedFor = now.context[1].slice(0, 120);
    if (Object.keys(cuts).length) info.cuts = cuts;
    return info;
  };

  /**
   * The invalid fields of the form a submit control sends, when the browser validates it
   * (`:invalid`, which fires no `invalid` event): "name: message", at most 5.
   */
  const invalidFormOf = (el: El): string[] | undefined => {
    const submit = (el instanceof HTMLButtonElement && el.type === "submit") ||
      (el instanceof HTMLInputElement && (el.type === "submit" || el.type === "image"));
    if (!submit) return undefined;
    const control = el as HTMLButtonElement | HTMLInputElement;
    const form = control.form;
    if (!form || form.noValidate || control.formNoValidate) return undefined;
    return invalidFields(form);
  };

  /** A form's invalid fields, "name: message", at most 5; undefined when it is valid. */
  const invalidFields = (form: HTMLFormElement): string[] | undefined => {
    if (!matchesOf(form, ":invalid")) return undefined;
    // A fieldset is :invalid when a field in it is: that field is listed, not the fieldset.
    const fields = [...formElementsOf(form)]
      .filter((f) => !(f instanceof HTMLFieldSetElement) && matchesOf(f, ":invalid")).slice(0, 5);
    return fields.map((f) => {
      const c = f as HTMLInputElement;
      const label = (c.labels?.[0]?.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      // The page's message (setCustomValidity) in quotes: its words, not browxai's advice.
      return `${c.name || c.id || label || c.type}: ${
        JSON.stringify(c.validationMessage.slice(0, 100))
      }`;
    });
  };

  /** Input types a single one of which in a form lets Enter submit it (HTML "implicit submission"). */
  const BLOCKING = new Set([
    "text",
    "search",
    "url",
    "tel",
    "email",
    "password",
    "date",
    "month",
    "week",
    "time",
    "datetime-local",
    "number",
  ]);

  /**
   * What the browser's validation would stop if Enter were pressed on `el` (null: the focused
   * element, through open shadow roots): the invalid fields of the form Enter submits, as
   * `invalidFormOf` says them for a click on its submit button. Enter on a submit control
   * activates it; in a text-like field it submits the form implicitly (through its first submit
   * button, none disabled; without one only when it is the form's only such field).
   */
  api.enterBlocked = (el: Element | null) => {
    let t = el ?? document.activeElement;
    while (!el && t && shadowRootOf(t)?.activeElement) t = shadowRootOf(t)!.activeElement;
    if (!t) return undefined;
    // The focus is inside a frame: its document answers (the server asks it).
    if (!el && (t instanceof HTMLIFrameElement || t instanceof HTMLFrameElement)) {
      return { frame: api.idOf(t) };
    }
    const direct = invalidFormOf(t as El);
    if (direct || !(t instanceof HTMLInputElement) || !BLOCKING.has(t.type)) return direct;
    const form = t.form;
    if (!form || form.noValidate) return undefined;
    const submitter = [...formElementsOf(form)].find((f) =>
      (f instanceof HTMLButtonElement && f.type === "submit") ||
      (f instanceof HTMLInputElement && (f.type === "submit" || f.type === "image"))
    ) as HTMLButtonElement | HTMLInputElement | undefined;
    if (submitter) return submitter.disabled ? undefined : invalidFormOf(submitter as El);
    const fields = [...formElementsOf(form)].filter((f) =>
      f instanceof HTMLInputElement && BLOCKING.has(f.type)
    );
    return fields.length === 1 ? invalidFields(form) : undefined;
  };

  /**
   * An input's value out of its `min`/`max` or off its `step` (the browser keeps it, and its
   * validation stops the form): the ValidityState flag, the bounds, and for a step mismatch
   * the nearest values on the step (`stepDown`/`stepUp` of a detached copy).
   */
  function rangeOf(el: HTMLInputElement): ElementInfo["validity"] {
    const v = el.validity;
    const issue = v.rangeUnderflow
      ? "rangeUnderflow" as const
      : v.rangeOverflow
      ? "rangeOverflow" as const
      : v.stepMismatch
      ? "stepMismatch" as const
      : undefined;
    if (!issue) return undefined;
    const out: NonNullable<ElementInfo["validity"]> = { issue };
    for (const a of ["min", "max", "step"] as const) {
      const value = attrOf(el, a);
      if (value) out[a] = value.slice(0, 40);
    }
    if (issue === "stepMismatch") {
      const near: string[] = [];
      for (const dir of ["stepDown", "stepUp"] as const) {
        try {
          const copy = document.createElement("input");
          copy.type = el.type;
          for (const a of ["min", "max", "step"] as const) if (out[a]) copy[a] = out[a]!;
          copy.value = el.value;
          copy[dir]();
          if (copy.value && !copy.validity.rangeUnderflow && !copy.validity.rangeOverflow) {
            near.push(copy.value);
          }
        } catch { /* a type without steps, or no value on the step this way */ }
      }
      if (near.length) out.near = near;
    }
    return out;
  }

  /**
   * What an input or textarea holds now, for a fill to compare with what it was given (a
   * maxlength cut, a number field dropping letters); null for anything else.
   */
  api.fieldKept = (el: Element): FieldKept | null => {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return null;
    const secret = (api.isSecret as (e: Element) => boolean)(el);
    return {
      type: el instanceof HTMLInputElement ? el.type : "textarea",
      length: el.value.length,
      ...(secret ? {} : { value: el.value }),
      maxLength: el.maxLength,
      min: attrOf(el, "min") ?? "",
      max: attrOf(el, "max") ?? "",
    };
  };

  /** Scroll geometry of an element or the document scroller (seed 000 `element.scroll`). */
  api.scrollInfo = (el?: Element | null) => {
    const s = (el ?? document.scrollingElement ?? document.documentElement) as Element;
    const x = Math.round(s.scrollLeft), y = Math.round(s.scrollTop);
    return {
      x,
      y,
      scrollWidth: s.scrollWidth,
      scrollHeight: s.scrollHeight,
      clientWidth: s.clientWidth,
      clientHeight: s.clientHeight,
      atTop: y <= 0,
      atBottom: y + s.clientHeight >= s.scrollHeight - 1,
    };
  };

  /**
   * Scrolls the window (`el` null) or an element: to "top"|"bottom"|"left"|"right", or by
   * {x,y}. An element that does not scroll on that axis (a row of a list) has its nearest
   * scroll box scrolled instead (`scrollBoxOf`), named in `container` ("the page" for the
   * window); `moved: false` says a to/by scroll moved nothing (already at that edge).
   */
  /** The box each element's last to/by scroll moved (null: the page). */
  const scrolled = new WeakMap<Element, Element | null>();
  api.scrollElement = (
    el: Element | null,
    to?: string,
    by?: { x?: number | undefined; y?: number | undefined },
  ) => {
    const axis = to === "left" || to === "right" || (by?.x && !by.y) ? "x" : "y";
    const boxOf = api.scrollBoxOf as (e: Element, a: string) => Element | null;
    // A re-read (no to/by) reads the box the scroll moved: a virtual list may have dropped the
    // row meanwhile, and a horizontal scroll's box is not the vertical one.
    const box = el && (!to && !by && scrolled.has(el) ? scrolled.get(el)! : boxOf(el, axis));
    if (el && (to || by)) scrolled.set(el, box);
    const s = (box ?? document.scrollingElement ?? document.documentElement) as Element;
    const x0 = s.scrollLeft, y0 = s.scrollTop;
    if (to === "top") s.scrollTo({ top: 0, behavior: "instant" });
    else if (to === "bottom") s.scrollTo({ top: s.scrollHeight, behavior: "instant" });
    else if (to === "left") s.scrollTo({ left: 0, behavior: "instant" });
    else if (to === "right") s.scrollTo({ left: s.scrollWidth, behavior: "instant" });
    if (by) s.scrollBy({ left: by.x ?? 0, top: by.y ?? 0, behavior: "instant" });
    const info: ScrollInfo = api.scrollInfo(box);
    if (el && box !== el) {
      info.container = box ? (api.describeElement as (e: Element) => string)(box) : "the page";
    }
    // A by of zeros (a re-read of the geometry) asked for no move.
    const asked = !!to || !!(by?.x || by?.y);
    if (asked && s.scrollLeft === x0 && s.scrollTop === y0) info.moved = false;
    return info;
  };
}
