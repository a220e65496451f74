/// <reference lib="dom" />
/**
 * Types of the form parts (`form_lib.ts`, `form_edit_lib.ts`, `form_publish_lib.ts`): the form
 * kit they share in the page, and the JSON shapes their answers take across CDP (editors,
 * set fields, publish/draft controls, the submission watch, what blocks Enter).
 * Types only: nothing here is sent to the page.
 *
 * @module
 */
import type { PageFailure, ShownAs } from "./page_types.ts";

// Page-side values that stay in the page (never cross the CDP boundary by value).

/** A form field element the form parts handle. */
export type FormControl =
  | HTMLInputElement
  | HTMLSelectElement
  | HTMLTextAreaElement
  | HTMLButtonElement;

/** The form part's shared helpers (`formKit`, form_lib.ts), used by the other form parts. */
export interface FormKit {
  isControl: (el: Element | null) => el is FormControl;
  /** `select`, `select-multiple`, `textarea`, `button`, or the input's type. */
  typeOf: (el: FormControl) => string;
  /** Enabled and shown (or a hidden checkbox or radio a shown label toggles). */
  usable: (el: FormControl) => boolean;
  shown: (el: Element) => boolean;
  /** A selector that matches exactly this element in its document. */
  selectorFor: (el: Element) => string;
  /** `s` as a CSS string literal. */
  cssString: (s: string) => string;
  /** The controls that post with the form (also those outside it with form=…). */
  controlsOf: (form: HTMLFormElement | null, scope: Element) => FormControl[];
  /** The form to read: `root` (a form, inside one, or holding one), else the biggest form. */
  rootOf: (root: string | null) => { form: HTMLFormElement | null; scope: Element } | PageFailure;
  editorsIn: (scope: Element | Document) => Element[];
  /** The editable element of an editor: its own element, or an iframe's editable body. */
  editableOf: (ed: Element) => HTMLElement | null;
  /** The field an editor posts as. */
  backingOf: (ed: Element) => HTMLInputElement | HTMLTextAreaElement | null;
  editorInfo: (ed: Element, full: boolean) => EditorInfo;
  labelText: (el: Element) => string;
  /** Whitespace collapsed and trimmed. */
  norm: (s: string | null | undefined) => string;
  /** `s`, marked to be cut at `n` characters on the server (browser/page_cuts.ts). */
  cut: (s: string, n: number) => string;
  isSubmit: (el: FormControl) => boolean;
}

// JSON shapes: what by-value results look like once they crossed (no nodes, no functions).
// Type aliases, not interfaces: a Deno-side `Record<string, unknown>` takes them.

/** A rich-text editor as read_form and set_editor report it. */
export type EditorInfo = {
  kind: string;
  selector: string;
  label?: string;
  usable: boolean;
  postsAs: string | null;
  text: string;
  html?: string;
};

/**
 * What `formSetField` answers (`changed`: what a ref's field is now, re-used; `landed`: after
 * its value was set).
 */
export type SetFieldResult =
  | (PageFailure & { changed?: ShownAs; landed?: true })
  | { ok: boolean; checked: boolean }
  | { ok: boolean; value: string | string[] };

/** What `formEditorWrite` answers: the clean markup written and what it lost. */
export type EditorWriteResult = PageFailure | { ok: true; html?: string; removed?: string[] };

/** What a publish/draft control's setting means. */
export type DraftMeaning = "draft" | "public" | null;

/** One option of a publish control. */
export type DraftOption = {
  value: string;
  label: string;
  selected: boolean;
  means: DraftMeaning;
  selector: string;
};

/** One publish control as the page-side library reports it. */
export type DraftControl = {
  name: string;
  type: string;
  state: "draft" | "public" | "unknown";
  usable: boolean;
  options: DraftOption[];
};

/** An item's state from its publish controls (`none`: it has none). */
export type DraftStateName = "draft" | "public" | "unknown" | "none";

/** The draft state of a form (`formDraftState`). */
export type DraftState = { state: DraftStateName; drafts: DraftControl[]; form: string | null };

/** What `formPublishArm` did or, on a dry run, would do (`token` to set it back). */
export type ArmInfo = {
  means: "public" | null;
  before: DraftStateName;
  control: string;
  item: string | null;
  token?: number;
  after?: DraftStateName;
};

/**
 * Where and what one form would send (`formsSendFacts`): `to` its method and resolved action
 * (`POST https://host/path`), `how` its target and encoding, `submitters` its submit buttons
 * that send elsewhere or otherwise (their own `formaction`, …), `fields` each entry of its data
 * set as `name=<hash of the value>`, in order.
 */
export type FormSendFact = {
  to: string;
  how: string;
  /** `by`: the button described; `to` and `how` as the form's. */
  submitters: Array<{ by: string; to: string; how: string }>;
  fields: string[];
};

/**
 * One way a form may be sent, and the data it would send (`formSendData`): `form` its index in
 * `document.forms`, `by` the submit button (described) or null (none: `requestSubmit()`), `to`
 * its method and resolved destination, `entries` its entry list as the browser builds it (a
 * file as `"\u0000file:NAME"`), `image` an image button's name (its `.x`/`.y` entries carry
 * the click's coordinates), `secret` the names of its password fields, `hidden` the names of
 * its fields a person does not see (`type=hidden`, or not rendered: the send question lists
 * them first when it cannot list all).
 */
export type SendCandidate = {
  form: number;
  by: string | null;
  to: string;
  entries: Array<[string, string]>;
  image?: string;
  secret?: string[];
  hidden?: string[];
};

/** What the submission watch saw (`formWatchSubmit`, `formSubmitState`). */
export type SubmitWatch = {
  form: boolean;
  submitted: boolean;
  prevented: boolean;
  settled: boolean;
  invalid: string[];
  keyPrevented?: boolean;
  /** The document changed after the submit event (the page re-rendered). */
  changed?: boolean;
};

/** Why Enter in a field does not send its form (`formEnterBlocker`). */
export type EnterBlocker =
  | { kind: "multiline" }
  | { kind: "disabled-button"; button: string }
  | { kind: "no-button"; fields: string[] };
