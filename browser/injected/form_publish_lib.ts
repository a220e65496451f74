/// <reference lib="dom" />
/**
 * Page-side publish/draft controls, installed after `form_lib.ts` (uses its
 * `api.formKit`): which controls of a form decide whether an item is a
 * draft or public, what each option means, the form's overall state, and
 * arming a control to public with a way back. The watch that tells whether a form was really
 * sent is in `form_submit_lib.ts`.
 *
 * An option's words (its label, then its value) decide what it means
 * (`Draft`, `Private`, `Not published` → draft; `Public`, `Publish`, `Live`
 * → public); otherwise the control's name says what a true value means
 * (`is_draft=1` is a draft, `is_live=1` is public). Failures are returned as
 * `{ error, code }`, never thrown.
 *
 * @module
 */
import type { FormSendFact } from "./form_types.ts";
import type { PageApi } from "./page_api.ts";
import type { PageErrorCode, PageFailure } from "./page_types.ts";

/** Adds `formDraftsOf`, `formDraftState` and publish arming to the api. */
export function installFormPublishLib(api: PageApi): void {
  const { closestOf, matchesOf } = api.dom;
  type Fn<A extends unknown[], R> = (...a: A) => R;
  type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement;
  type Means = "draft" | "public" | null;
  const kit = api.formKit;
  const { usable, selectorFor, cssString, labelText, norm } = kit;
  const describe = api.describeElement as Fn<[Element], string>;
  // The prototypes' own getters and methods: a page's `<input name=action>` (or `method`,
  // `hasAttribute`) shadows the form's member in every world, and `<img name=forms>` (or
  // `body`) the document's (`api.dom`): read through them, the question would be blank or throw.
  const own = <T>(proto: object, name: string) => {
    const get = Object.getOwnPropertyDescriptor(proto, name)!.get!;
    return (o: object) => get.call(o) as T;
  };
  const { docFormsOf: formsOf } = api.dom;
  const bodyOf = (d: Document) => api.dom.docBodyOf(d)!;
  const fail = (code: PageErrorCode, error: string): PageFailure => ({ error, code });
  const fire = (el: Element, type: string) => el.dispatchEvent(new Event(type, { bubbles: true }));
  // A click toggles a checkbox and picks a radio, firing click, input and change like a user.
  const setChecked = (el: HTMLInputElement, on: boolean) => {
    if (el.checked !== on) el.click();
    return el.checked === on;
  };
  const groupOf = (el: HTMLInputElement) =>
    el.name
      ? kit.controlsOf(el.form, el.form ?? el.ownerDocument.body).filter((c) =>
        c instanceof HTMLInputElement && c.type === el.type && c.name === el.name
      ) as HTMLInputElement[]
      : [el];

  const PRIVATE_TEXT =
    /\b(drafts?|private|hidden|unpublish(ed)?|not (yet )?(published|public|live)|offline|unlisted|pending)\b/i;
  const PUBLIC_TEXT = /\b(publish(ed)?|public|live|online|visible|listed)\b/i;
  const DRAFT_NAME = /^(is_?|as_?)?(draft|private|hidden|unpublished|unlisted|offline)$/;
  const LIVE_NAME = /^(is_?)?(live|public|published|publish|visible|online|listed)$/;
  const STATE_NAME = /^(status|state|visibility|publish(ed)?_?(status|state)?|post_?status)$/;
  const TRUE = /^(1|true|yes|on|y)$/i, FALSE = /^(0|false|no|off|n|)$/i;
  const baseName = (name: string) =>
    name.toLowerCase().split(/[[\].]/).filter(Boolean).pop()?.replace(/-/g, "_") ?? "";
  const byText = (s: string): Means =>
    PRIVATE_TEXT.test(s) ? "draft" : PUBLIC_TEXT.test(s) ? "public" : null;
  const byName = (name: string, value: string): Means => {
    const b = baseName(name);
    const flip = DRAFT_NAME.test(b) ? false : LIVE_NAME.test(b) ? true : null;
    if (flip === null) return null;
    if (TRUE.test(value)) return flip ? "public" : "draft";
    if (FALSE.test(value)) return flip ? "draft" : "public";
    return null;
  };
  const optionMeans = (name: string, value: string, label: string): Means =>
    byText(label) ?? byText(value) ?? byName(name, value);
  const opposite = (m: Means): Means => m === "draft" ? "public" : m === "public" ? "draft" : null;
  /** What a checked checkbox means (unchecked means the opposite). */
  const checkedMeans = (el: HTMLInputElement): Means =>
    byText(labelText(el)) ?? byName(el.name, el.value || "on");
  const namedLikePublish = (name: string) => {
    const b = baseName(name);
    return DRAFT_NAME.test(b) || LIVE_NAME.test(b) || STATE_NAME.test(b);
  };

  interface DraftOption {
    value: string;
    label: string;
    selected: boolean;
    means: Means;
    selector: string;
  }
  interface DraftControl {
    name: string;
    type: string;
    state: "draft" | "public" | "unknown";
    usable: boolean;
    options: DraftOption[];
  }
  const stateOf = (opts: DraftOption[]): DraftControl["state"] =>
    opts.find((o) => o.selected)?.means ?? "unknown";

  /** The publish/draft controls among a form's controls. */
  const draftsOf = (controls: Control[]): DraftControl[] => {
    const out: DraftControl[] = [];
    const seen = new Set<string>();
    for (const el of controls) {
      if (!el.name || matchesOf(el, ":disabled")) continue;
      if (el instanceof HTMLInputElement && el.type === "radio") {
        if (seen.has("r:" + el.name)) continue;
        seen.add("r:" + el.name);
        const group = controls.filter((c): c is HTMLInputElement =>
          c instanceof HTMLInputElement && c.type === "radio" && c.name === el.name
        );
        const options = group.map((r) => ({
          value: r.value,
          label: labelText(r),
          selected: r.checked,
          means: optionMeans(r.name, r.value, labelText(r)),
          selector: selectorFor(r),
        }));
        const kinds = new Set(options.map((o) => o.means));
        if (namedLikePublish(el.name) || (kinds.has("draft") && kinds.has("public"))) {
          out.push({
            name: el.name,
            type: "radio",
            state: stateOf(options),
            usable: group.some(usable),
            options,
          });
        }
      } else if (el instanceof HTMLInputElement && el.type === "checkbox") {
        const means = checkedMeans(el);
        if (!means && !namedLikePublish(el.name)) continue;
        const selector = selectorFor(el);
        const label = labelText(el);
        out.push({
          name: el.name,
          type: "checkbox",
          state: (el.checked ? means : opposite(means)) ?? "unknown",
          usable: usable(el),
          options: [
            { value: "checked", label, selected: el.checked, means, selector },
            { value: "unchecked", label, selected: !el.checked, means: opposite(means), selector },
          ],
        });
      } else if (el instanceof HTMLSelectElement && !el.multiple) {
        const options = [...el.options].map((o) => ({
          value: o.value,
          label: norm(o.label),
          selected: o.selected,
          means: optionMeans(el.name, o.value, norm(o.label)),
          selector: `${selectorFor(el)} option[value=${cssString(o.value)}]`,
        }));
        const kinds = new Set(options.map((o) => o.means));
        if (namedLikePublish(el.name) || (kinds.has("draft") && kinds.has("public"))) {
          out.push({
            name: el.name,
            type: "select",
            state: stateOf(options),
            usable: usable(el),
            options,
          });
        }
      }
    }
    return out;
  };
  /** The item's state from its publish controls: any public control makes it public. */
  const overallState = (drafts: DraftControl[]) =>
    !drafts.length
      ? "none"
      : drafts.some((d) => d.state === "public")
      ? "public"
      : drafts.every((d) => d.state === "draft")
      ? "draft"
      : "unknown";

  /** The publish controls among controls, and the item's overall state. */
  api.formDraftsOf = (controls: Control[]) => {
    const drafts = draftsOf(controls);
    return { drafts, state: overallState(drafts) };
  };
  /** The draft state of the form an element (a submit control, a publish control) belongs to. */
  api.formDraftState = (el: Element) => {
    const form = formOf(el);
    const drafts = draftsOf(kit.controlsOf(form, form ?? bodyOf(document)));
    return { state: overallState(drafts), drafts, form: form ? selectorFor(form) : null };
  };

  /**
   * Forms of this document whose publish control is on its public setting:
   * sending one of them publishes (selectors, for the question a human reads).
   */
  api.formsArmedPublic = () =>
    [...formsOf(document)].filter((f) =>
      (api.formDraftState as Fn<[Element], { state: string }>)(f).state === "public"
    ).map((f) => selectorFor(f));
  const actionOf = own<string>(HTMLFormElement.prototype, "action");
  const methodOf = own<string>(HTMLFormElement.prototype, "method");
  const hasAttribute = Element.prototype.hasAttribute;

  /**
   * Where this document's forms send (`"POST https://host/path"`, action resolved, distinct,
   * first 5): what a human approving "send a form" is told, the page URL alone being no
   * answer to where the data goes.
   */
  api.formsSendTo = () =>
    [
      ...new Set(
        [...formsOf(document)].map((f) => {
          const to = `${methodOf(f).toUpperCase()} ${actionOf(f)}`;
          // No action of its own: the browser would send it to the page itself, which a
          // script-driven form (a login posting JSON by fetch) never does.
          return hasAttribute.call(f, "action") ? to : `${to} by the browser, unless a page ` +
            "script sends it (no action set: such forms are usually sent by fetch, anywhere)";
        }),
      ),
    ].slice(0, 5);

  /**
   * `formsArmedPublic`, `formsSendTo` and `formsSendFacts` in one call (an action that may
   * send a form asks the first two, and holds the human's yes to the third).
   */
  api.formsSendInfo = (seed: number) => {
    // The publish controls' reading may trip on a hostile page (a member shadowed by a
    // field's name): the destinations and facts the yes is held to must not go with it, and
    // the publish question is asked all the same (a form that cannot be read may publish).
    let armed: string[];
    try {
      armed = (api.formsArmedPublic as () => string[])();
    } catch {
      armed = ["a form whose publish setting could not be read"];
    }
    return {
      armed,
      sendsTo: (api.formsSendTo as () => string[])(),
      forms: (api.formsSendFacts as Fn<[number], FormSendFact[]>)(seed),
    };
  };

  /** The form a submit control sends: its owner, or (a scripted div button) the one around it. */
  const formOf = (el: Element): HTMLFormElement | null =>
    kit.isControl(el) ? (el as Control).form : closestOf(el, "form");

  // Publish arming: each arm keeps a way back, by token.
  const restorers = new Map<number, () => void>();
  let nextToken = 1;
  const draftState = (el: Element) => api.formDraftState(el).state;

  /** The item's title as a human would name it: the form's first filled text field. */
  const itemTitle = (submit: Element) => {
    const form = formOf(submit);
    const text = kit.controlsOf(form, form ?? bodyOf(document)).find((c) =>
      (c instanceof HTMLInputElement && ["text", ""].includes(c.type) ||
        c instanceof HTMLTextAreaElement) && c.value.trim() && usable(c)
    );
    return text ? norm(text.value).slice(0, 80) : null;
  };

  /**
   * Sets the publish control `target` (a radio, a checkbox, a select or one of its options) to
   * its public setting, keeping a way back (a token for `formPublishRestore`). It must post
   * with the form `submit` sends. `dryRun` only checks, and says what it would do.
   */
  api.formPublishArm = (submit: Element, target: Element, dryRun: boolean) => {
    const el = target instanceof HTMLOptionElement ? closestOf(target, "select") : target;
    if (!el || !kit.isControl(el) || el instanceof HTMLButtonElement) {
      return fail(
        "invalid-argument",
        `${describe(target)} is not a publish control (a radio, checkbox or select)`,
      );
    }
    const control = el as Control;
    const form = formOf(submit);
    if (control.form !== form) {
      return fail(
        "invalid-argument",
        "the publish control does not post with the form the submit control sends",
      );
    }
    if (matchesOf(control, ":disabled")) {
      return fail("not-enabled", "the publish control is disabled");
    }
    let apply: () => void, restore: () => void, means: Means;
    if (control instanceof HTMLInputElement && control.type === "radio") {
      const group = groupOf(control);
      const was = group.find((r) => r.checked);
      means = optionMeans(control.name, control.value, labelText(control));
      apply = () => setChecked(control, true);
      restore = () => {
        if (was) setChecked(was, true);
        else for (const r of group) r.checked = false;
      };
    } else if (control instanceof HTMLInputElement && control.type === "checkbox") {
      const was = control.checked;
      // The public setting of a checkbox: unchecked for "is_draft", checked otherwise.
      const on = checkedMeans(control) !== "draft";
      means = checkedMeans(control) === null ? null : "public";
      apply = () => setChecked(control, on);
      restore = () => setChecked(control, was);
    } else if (control instanceof HTMLSelectElement) {
      const was = control.selectedIndex;
      const option = target instanceof HTMLOptionElement
        ? target
        : [...control.options].find((o) =>
          optionMeans(control.name, o.value, o.label) === "public"
        );
      if (!option) {
        return fail("invalid-argument", "no option of this select means public: name the option");
      }
      means = optionMeans(control.name, option.value, option.label);
      const select = (i: number) => {
        control.selectedIndex = i;
        fire(control, "input");
        fire(control, "change");
      };
      apply = () => select(option.index);
      restore = () => select(was);
    } else return fail("invalid-argument", `${describe(control)} is not a publish control`);
    if (means === "draft") {
      return fail(
        "invalid-argument",
        `${describe(target)} is the draft setting, not the public one`,
      );
    }
    const before = draftState(submit);
    const info = { means, before, control: selectorFor(control), item: itemTitle(submit) };
    if (dryRun) return info;
    apply();
    const token = nextToken++;
    restorers.set(token, restore);
    return { ...info, token, after: draftState(submit) };
  };

  /** Puts a publish control (`el`: any control of its form) back as it was before arming. */
  api.formPublishRestore = (el: Element, token: number) => {
    restorers.get(token)?.();
    restorers.delete(token);
    return draftState(el);
  };
}
