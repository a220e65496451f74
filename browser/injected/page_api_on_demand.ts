/// <reference lib="dom" />
/**
 * The members of the page-side api (`page_api.ts`) that the parts installed on demand add:
 * the form parts, the control and inspect parts, the find parts (each installed on the first
 * call of one of its methods in a world, see `mod.ts`). `PageApi` extends this interface.
 *
 * @module
 */
import type {
  ArmInfo,
  DraftControl,
  DraftState,
  DraftStateName,
  EditorInfo,
  EditorWriteResult,
  EnterBlocker,
  FormControl,
  FormKit,
  FormSendFact,
  SendCandidate,
  SetFieldResult,
  SubmitWatch,
} from "./form_types.ts";
import type {
  ControlState,
  CoverFacts,
  DomTreeInfo,
  FindHint,
  FindQuery,
  FindScan,
  FindScorer,
  OptionSearch,
  PageFailure,
  ShownAs,
  StylesInfo,
  StyleWriteInfo,
} from "./page_types.ts";

/** The on-demand parts' members, by the part that installs them. */
export interface OnDemandApi {
  // form_lib.ts (installed on a form method's first call in a world, see mod.ts)
  formDescribe: (
    opts: { root: string | null; wholePage: boolean; full: boolean },
  ) => Record<string, unknown> | PageFailure;
  /** Helpers the other form parts share (not a method). */
  formKit: FormKit;

  // form_publish_lib.ts
  formDraftsOf: (controls: FormControl[]) => { drafts: DraftControl[]; state: DraftStateName };
  formDraftState: (el: Element) => DraftState;
  formsArmedPublic: () => string[];
  formsSendTo: () => string[];
  /** Both of the above in one call. */
  formsSendInfo: (seed: number) => { armed: string[]; sendsTo: string[]; forms: FormSendFact[] };
  formPublishArm: (submit: Element, target: Element, dryRun: boolean) => ArmInfo | PageFailure;
  formPublishRestore: (el: Element, token: number) => DraftStateName;
  // form_submit_lib.ts
  formWatchSubmit: (submit: Element) => SubmitWatch;
  formSubmitState: (submit: Element) => SubmitWatch | null;
  formUnwatchSubmit: (submit: Element) => void;
  formEnterBlocker: (field: Element) => EnterBlocker | null;
  /** What each form of the document would send (`seed`: the value hashes' key). */
  formsSendFacts: (seed: number) => FormSendFact[];
  /** The ways the action on `el` (null: the focused element) may send a form, with the data. */
  formSendData: (el: Element | null) => SendCandidate[];

  // sanitize_lib.ts
  sanitizeHtml: (
    html: string,
    target?: Element | null,
  ) => { html: string; fragment: DocumentFragment; removed: string[] } | PageFailure;

  // form_edit_lib.ts
  formFieldByName: (root: string | null, name: string) => FormControl | null;
  formFieldsLabelled: (root: string | null, label: string) => string[];
  /** With `shown` (a ref's): `ref-gone` with `changed` when the field was re-used for another item. */
  formSetField: (
    el: Element,
    value: unknown,
    byName: boolean,
    shown?: ShownAs | null,
  ) => SetFieldResult;
  formFindEditor: (el: Element | null) => Element | null;
  formEditorInfo: (ed: Element) => EditorInfo & { backingValue: string | null };
  formEditorFocus: (ed: Element) => boolean;
  formEditorWrite: (ed: Element, content: { html?: string; text?: string }) => EditorWriteResult;
  formEditorContent: (ed: Element) => { text: string; html: string };
  formEditorSync: (
    ed: Element,
    before: string | null,
    byApi: string | null,
  ) => { postsAs: string | null; syncedBy: string | null };
  formSubmitControl: (spec: string) => string | null;

  // control_lib.ts (installed on a control method's first call in a world, see mod.ts)
  /** What kind of control the element is, its label and what it shows as chosen. */
  controlState: (el: Element) => ControlState;
  /** The shown control an element labels by `aria-labelledby`, or null. */
  controlLabelled: (el: Element) => Element | null;
  /** Looks for the option with the text in the control's list (remembered for `controlOption`). */
  controlFind: (el: Element, text: string, exact: boolean) => OptionSearch;
  /**
   * Notes the options (and, for a list without ARIA roles, the elements whose text matches)
   * shown before the control is opened: a control that names no list of its own may only take
   * an option that showed once it opened, never one of another control's list.
   */
  controlMark: (el: Element, text: string, exact: boolean) => void;
  /** The option the last `controlFind` on the control found, or null. */
  controlOption: (el: Element) => Element | null;
  /** Scrolls the control's list down a page; false at its end or when none scrolls. */
  controlScroll: (el: Element) => boolean;

  // inspect_lib.ts (installed with control_lib.ts)
  /** The DOM under an element (null: the document element), `depth` levels, ≤ `maxNodes` nodes. */
  inspectTree: (el: Element | null, depth: number, maxNodes: number) => DomTreeInfo;
  /** Computed styles (`names` null: all) and the style attribute. */
  inspectStyles: (el: Element, names: string[] | null) => StylesInfo;
  /** Sets or (empty value) removes one inline style property. */
  inspectStyleWrite: (
    el: Element,
    property: string,
    value: string,
    important: boolean,
  ) => StyleWriteInfo;
  // cover_kind_lib.ts
  /**
   * What kind of cover is at (x, y) (frame CSS px) over `el`, when its description alone would
   * mislead (the card's stretched link, a transparent layer); null otherwise.
   */
  coverKind: (el: Element, x: number, y: number) => CoverFacts | null;
  // hover_reveal_lib.ts
  /**
   * For an element hidden until an ancestor is hovered (a `:hover` style rule): that ancestor
   * (described) and a point on it, frame CSS px; null when hidden for another reason.
   */
  hoverReveal: (el: Element) => { x: number; y: number; what: string } | null;
  /** The described ancestor whose hover shows `el` (as {@link hoverReveal}), nothing scrolled. */
  hoverHostOf: (el: Element) => string | null;
  /**
   * The hidden element holding a `text=` selector's text when a `:hover` rule of an ancestor
   * shows it (a CSS-only menu's item), or null.
   */
  hoverTextMatch: (selector: string) => Element | null;
  // refind_lib.ts
  /**
   * At most 2 elements `[localId, kind, text]` (`found`) matching a ref's role, name and context
   * (its times and counters may differ; with `loose`, its prices and amounts too; not reading
   * as a live one of `others`), where at most 2 that did not match sit (`near`: their local ids and
   * contexts), and at most 2 that differ from it only in prices and amounts (`alike`).
   */
  refFind: (
    role: string,
    name: string,
    context: [string, string],
    others: Array<[number, string]>,
    loose?: boolean,
  ) => {
    found: Array<[number, string, string]>;
    near: Array<[string, string, number]>;
    alike: Array<[string, string]>;
  };
  // find_words_lib.ts, find_place_lib.ts, find_score_lib.ts, find_lib.ts, find_hint_lib.ts
  // (installed with the form parts on a find method's first call)
  /** The words of a text as the ranker compares them. */
  findTokens: (s: string) => string[];
  /** How well a query word matches a page word, 0..1. */
  findWordMatch: (q: string, t: string) => number;
  /** How well a field's words cover the query's, 0..1. */
  findFieldScore: (field: string[], q: string[]) => number;
  /** Of the query's neighbouring words both in `toks`, the share side by side there (1: none). */
  findTogether: (toks: string[], q: string[]) => number;
  /** The best of an element's fields (`[label, value, weight]`) against a query, and its label. */
  findFieldsScore: (
    fields: Array<[string, string, number]>,
    words: string[],
    exact: string,
    phrase: string,
  ) => [number, string];
  /** A subtree's text, whitespace collapsed, at most `max` characters (`skip`'s subtree left out). */
  /** `findTextOf` when it read the whole subtree, else null. */
  findTextWhole: (root: Element, max: number) => string | null;
  findTextOf: (
    root: Element,
    max: number,
    skip?: Element | null,
    leave?: (e: Element) => boolean,
  ) => string;
  /** An element's test id, or `""`. */
  findTestId: (el: Element) => string;
  /** Words counted as the same as `w`. */
  findSynonyms: (w: string) => string[];
  /** For a query asking for an action: the action a weak field says, and the factor (0.8: none). */
  findAction: (
    fields: Array<[string, string, number]>,
    words: string[],
  ) => [[string, string, number] | null, number];
  // find_place_lib.ts: bags of `[word, weight, label]`
  /** Where an element sits (ancestors, the nearest heading's name, its frame's name). */
  /** While on (one scan), ancestors' place words and elements' visibility are read once each. */
  findPlaceCache: (on: boolean) => void;
  findPlaceBag: (el: Element, heading: string, frame?: string) => Array<[string, number, string]>;
  /** The text around an element (its ancestors up to 3 levels, not past `stop`). */
  findNearBag: (
    el: Element,
    asked: number,
    stop?: Element | null,
  ) => Array<[string, number, string]>;
  /** How well a bag covers words, and the best match's label. */
  findBagScore: (bag: Array<[string, number, string]>, q: string[]) => [number, string];
  /** Whether an element is a row or list item (its text names nameless controls in it). */
  findIsItem: (el: Element) => boolean;
  /** How well `el`'s own fields and its row's text cover the query's words, and the label. */
  /** At least what `findBagScore` answers for `left` against a control's near and place bags. */
  findPlaceBound: (
    el: Element,
    item: Element,
    heading: string,
    frame: string,
    left: string[],
  ) => number;
  /** At least what `findItemMatch` answers (the item's whole text read once per scan). */
  findItemBound: (
    item: Element,
    fields: Array<[string, string, number]>,
    words: string[],
    exact: string,
  ) => number;
  findItemMatch: (
    item: Element,
    el: Element,
    fields: Array<[string, string, number]>,
    q: string[],
    exact: string,
  ) => [number, string];
  // find_mention_lib.ts
  /** The query's item words neither `el` nor anything around it mentions. */
  findMissing: (
    el: Element,
    own: string,
    words: string[],
    at: { heading: string; frame: string; twin: boolean },
  ) => string[];
  /** The frame's elements scored against a `find` query, best first (browser/find/). */
  findScan: (query: FindQuery) => FindScan;
  /** A `find` query's scorer (find_score_lib.ts): `findScan`'s walk hands it the candidates. */
  findScorer: (query: FindQuery) => FindScorer;
  /** An element's test id and id attribute (find_feedback's keys). */
  findStable: (el: Element) => { testId: string; idAttr: string };
  /** Per page-local id: a selector verified unique now, actionability, viewport. */
  findHints: (ids: number[], instance: string) => Array<FindHint | null>;
  /** How many elements each selector matches in the frame (-1: invalid). */
  findCounts: (selectors: string[]) => number[];
}
