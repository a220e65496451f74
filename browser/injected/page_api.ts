/// <reference lib="dom" />
/**
 * The page-side api (`globalThis.__browxai` in browxai's utility world) as
 * one interface, {@link PageApi}: every member the injected parts
 * (`*_lib.ts`) install, with its parameter and result types. The parts
 * take the api object typed as `PageApi`, so the compiler checks each
 * `api.name = …` against it (an unknown name or a wrong signature fails
 * `deno task check`); `page_api_test.ts` checks that every name is
 * installed. The Deno-side call helpers (`mod.ts`) are generic over the
 * names, by the views of `page_api_views.ts`.
 *
 * Parameter types are what the page code gets (an element handle's element
 * arrives as the first parameter); result types of methods called by value
 * are JSON shapes (page_types.ts): what crosses `returnByValue`.
 *
 * @module
 */
import type {
  ReadText,
  ScrollBox,
  SectionInfo,
  TextMatchInfo,
  TextSections,
  TextWalkHook,
} from "./text_types.ts";
import type {
  AlikeFacts,
  Box,
  CoverScan,
  ElementInfo,
  FieldKept,
  FillPrep,
  FrameMap,
  FrameSnapshot,
  HitResult,
  LinkWriter,
  Outline,
  PressVerdict,
  ProbeResult,
  ReadyResult,
  RefDescription,
  RefFacts,
  RefState,
  ScrollInfo,
  SelectResult,
  ShownAs,
  SnapshotOptions,
  SnapshotRef,
  SnapshotResult,
  TypeLanded,
  WalkLines,
  WalkScope,
} from "./page_types.ts";
import type { OnDemandApi } from "./page_api_on_demand.ts";
import type { DomSafe } from "./dom_safe_types.ts";

/**
 * Every member of `__browxai`, by the part that installs it. Members the
 * Deno side calls say so; the others are shared between parts only.
 */
export interface PageApi extends OnDemandApi {
  // dom_safe_lib.ts (installed first: the other parts read it at their install)
  /** DOM reads a page cannot clobber through a form's named controls. */
  dom: DomSafe;

  // first_listeners.ts (the utility world's first listeners on window)
  /** A capture listener on `window` that runs before the page's own (see first_listeners.ts). */
  onFirst: (type: string, fn: (ev: Event) => void) => void;
  /** Removes a listener {@link PageApi.onFirst} added. */
  offFirst: (type: string, fn: (ev: Event) => void) => void;

  // mutation_lib.ts
  /** Starts observing an open shadow root (the walker calls it). */
  observeRoot: (root: ShadowRoot) => void;
  /** The frame's mutation generation: it changes whenever the observed DOM changed. */
  generation: () => number;
  /** The frame's DOM mutation count alone (input, change and focus events leave it). */
  domGeneration: () => number;
  /**
   * Whether the document finished loading, and how long the observed DOM (and what a snapshot
   * shows: typed values, focus, hover) has not changed, ms (since the library came, at most).
   */
  pageQuiet: () => { loaded: boolean; quietMs: number };
  /** A snapshot, the generation it reflects and the title (snapshot/capture.ts). */
  snapshotWithGeneration: (opts?: SnapshotOptions) => FrameSnapshot;
  /** An element's shadow root: its open one, or a closed one handed over by `addClosedRoot`. */
  shadowOf: (el: Element) => ShadowRoot | null;
  /**
   * Called on a closed shadow root itself (snapshot/closed_hosts.ts): the walks read it from
   * now on (`shadowOf`), and a change inside counts as a change.
   */
  addClosedRoot: (root: ShadowRoot) => boolean;
  /** Marks hosts as checked for closed roots: later snapshots stop listing them in `hosts`. */
  hostsChecked: (ids: number[]) => boolean;
  /**
   * Whether the walker should list `el` (its local name `tag`) for CDP to check for a closed
   * shadow root: a custom element not checked yet, or an undefined one or an empty built-in host
   * that draws only what a shadow root would.
   */
  hostUnchecked: (el: Element, tag: string) => boolean;

  // aria_lib.ts
  roleOf: (el: Element) => string;
  /** The element a node's flat-tree parent is (slots and shadow hosts followed). */
  flatParent: (n: Node) => Element | null;
  /** A field whose value must never be shown (password, CSS-masked, one-time code). */
  isSecret: (el: Element) => boolean;
  /** A secret value's mask: `••••`, or `""` for no value. */
  maskSecret: (v: string) => string;
  hiddenForAria: (el: Element) => boolean;
  staticHidden: (el: Element) => boolean;
  /** Turns static-only hiding checks on or off (inside `content-visibility: auto` skips). */
  setStaticOnly: (on: boolean) => void;
  /**
   * The one visibility decision of a flat-tree walk (snapshot and text model): -1 when `el`
   * and its subtree are not shown, else the flags to walk its content with (bit 4 inside
   * `visibility: hidden`, bit 16 inside skipped `content-visibility: auto` content). `walk` is
   * the walk's state, one object per walk.
   */
  shownStep: (el: Element, flags: number, walk: { skippingParent: Node | null }) => number;
  isInline: (el: Element, how?: "text" | "name" | "tag") => boolean;
  /** An element's children in the flat tree. */
  childNodesOf: (el: Element) => ArrayLike<Node>;

  // accname_lib.ts
  /** The accessible name, whitespace collapsed. */
  nameOf: (el: Element) => string;
  /**
   * `[roleOf(el), nameOf(el)]` in one call (the audit's note of what an action hit, when no
   * actionability check reads it: `readyBox`'s `roleName`).
   */
  roleNameOf: (el: Element) => [string, string];
  /** Whether the role takes its name from the element's content. */
  nameFromContent: (el: Element, role: string) => boolean;
  /** Caches `<label>` lookups during one walk. */
  cacheLabels: (on: boolean) => void;
  /** The elements an id-list attribute (`aria-describedby`) names, in the element's root. */
  idRefs: (el: Element, attr: string) => Element[];

  // outline_lib.ts
  newOutline: (wholeLines?: boolean) => Outline;
  /** ` "name"` with `\` and `"` escaped, or `""`. */
  quote: (name: string) => string;
  /** Page text that cannot forge the Deno side's placeholders. */
  safeText: (s: string) => string;

  // snapshot_lib.ts (element ids and ref facts)
  /** The element's page-local id (assigned on first sight). */
  idOf: (el: Element) => number;
  /** The element of a page-local id, null when gone or `inst` is another world's. */
  element: (id: number, inst?: string) => Element | null;
  /** The world's instance id (not a method). */
  instance: string;
  refRole: (el: Element) => string;
  isEditableRoot: (el: Element) => boolean;
  // row_kind_lib.ts (what counts as one item of a list)
  /** An item container's kind by its tag or role (`li`: "list item"), else undefined. */
  containerKind: (el: Element) => string | undefined;
  /** {@link containerKind}, or `"item"` for a row of plain elements; else undefined. */
  itemKind: (el: Element) => string | undefined;
  /** Whether the element is itself a plain row told by its own text (a card among cards). */
  ownItem: (el: Element) => boolean;
  /** `[contextKind, contextText]` of an element. */
  /**
   * The context text of `root` without `skip`'s subtree (`ownValue`: with `skip`'s value as
   * the page set it): collapsed, cut and hashed past 80 characters (context_text_lib.ts).
   */
  contextText: (root: Element, skip: Element | null, ownValue?: boolean) => string;
  /**
   * Sets the memo of context texts for one snapshot walk (a map the walk owns, one per style
   * mode), or null after it: within a walk, each subtree's text is read once.
   */
  memoContexts: (memo: Map<Element, unknown> | null) => void;
  contextOf: (el: Element, role: string, name: string) => [string, string];
  /** A context text with its counts, times and prices made equal (row_identity.ts skeleton). */
  contextSkeleton: (text: string) => string;
  /** A context text with what ticks on its own made equal (row_identity.ts steady). */
  contextSteady: (text: string) => string;
  /**
   * Marks a value set in a field as typed, not the page's (its row keeps its item: see
   * context_lib.ts): call before setting it, then with `done` after.
   */
  noteEdit: (
    field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
    done?: boolean,
  ) => void;
  // ref_check_lib.ts
  describe: (id: number, inst?: string) => RefDescription | null;
  /** What a ref's element is now (snapshot/resolve.ts). */
  refState: (id: number, inst: string) => RefState;
  /**
   * The ref's element when its role, name and context (null: unchecked) are as given (and with
   * `notLabel`, it is no `<label>`), else null.
   */
  refElement: (
    id: number,
    inst: string,
    role: string,
    name: string,
    context: [string, string] | null,
    notLabel?: boolean,
  ) => Element | null;
  statesOf: (el: Element, role: string, focused: Element | null) => string;
  /** null: not invalid; else the field's shown error text ("" when none shows). */
  invalidOf: (el: Element) => string | null;
  // scroll_box_lib.ts (inner scroll containers that hide content)
  scrollMark: (el: Element) => string;
  scrollBoxOf: (el: Element, axis: "x" | "y") => Element | null;
  scrollBoxes: (max: number) => { instance: string; boxes: ScrollBox[] };
  /** The focused element, through open shadow roots. */
  deepActive: () => Element | null;
  /** An `onclick`, a `tabindex` ≥ 0, or `draggable="true"`. */
  clickHandler: (el: Element) => boolean;
  /** ` (#id)` or ` (.firstClass)`: what an unnamed control is, or `""`. */
  hintOf: (el: Element) => string;
  valueText: (el: Element, role: string) => string;
  /** Why the element takes no input (`""`: it does): a modal dialog, an inert container. */
  inertOf: (el: Element) => string;

  // links_lib.ts, drawn_text_lib.ts, drawn_link_lib.ts, walk_lines_lib.ts, walker_lib.ts
  newLinks: () => LinkWriter;
  /**
   * The text drawn on a control when its words are not those of `name` (off-screen or clipped
   * text in the name, `aria-hidden` or CSS generated text drawn), else `""`.
   */
  drawnText: (el: Element, name: string) => string;
  /** Whether a link's drawn words may be other than its name (then `drawnText` compares). */
  linkMayLie: (el: Element) => boolean;
  /** The line writers of one snapshot walk. */
  walkLines: (scope: WalkScope) => WalkLines;
  /** The outline of the frame's document or of one subtree. */
  snapshot: (opts?: SnapshotOptions) => SnapshotResult;

  // ref_memo_lib.ts
  /** Starts a walk's refs for registry `registry`, which read walk `ack` last; its number. */
  beginRefs: (registry?: string, ack?: number, world?: string) => number;
  /** A ref's facts, or `[id]` when the Deno side holds them already. */
  refTuple: (el: Element, facts: SnapshotRef) => SnapshotRef | [number];

  // action_lib.ts, scroll_into_lib.ts
  describeElement: (el: Element) => string;
  /** Actionability: `{ state: "ok", box }` or why not. */
  probe: (el: Element, opts: { enabled?: boolean; editable?: boolean }) => ProbeResult;
  /**
   * Scrolls the element into view when not fully inside, only the scrollers that do not show it
   * (`inSubframe`: the frames above too); whether it scrolled.
   */
  scrollIntoViewIfNeeded: (el: Element, inSubframe?: boolean) => boolean;
  /** The element's box after two animation frames, and whether it stayed put. */
  stableBox: (el: Element) => Promise<{ stable: boolean; box: Box }>;
  /**
   * `probe`, then when ok `scrollIntoViewIfNeeded` and `stableBox` (with `hit`, a stable box's
   * unarmed `hitTest` at its center): one call per attempt. With `shown`, a stable element no
   * longer what its ref was shown as (`refChanged`) answers `{ state: "changed", now }`; one
   * its own scroll detached (the page re-rendered it) `{ state: "notconnected", detail:
   * "scrolled" }`. With `roleName`, every answer carries the element's `[role, name]` too
   * (`roleNameOf`, read before the checks; left out when it throws).
   */
  readyBox: (
    el: Element,
    opts: { enabled?: boolean; editable?: boolean },
    inSubframe?: boolean,
    hit?: boolean,
    shown?: ShownAs | null,
    roleName?: boolean,
  ) => Promise<ReadyResult>;
  /**
   * What refs of a CSS selector's first `max` matches alike its first one record (same role
   * and a name, the same), that one first; [] when fewer than two are alike.
   */
  cssAlike: (selector: string, max: number) => AlikeFacts[];
  /**
   * Why (x, y) (frame CSS px) does not show the element when an ancestor clips it there (an
   * overflow box the point is outside of, an empty one, a clip-path); undefined otherwise.
   */
  clipAt: (el: Element, x: number, y: number) => { clippedBy: string; how: string } | undefined;
  /**
   * The page-local ids of the frame's shown iframes, in document order (open and handed
   * closed shadow roots pierced), and the world's instance.
   */
  frameOwners: () => { instance: string; ids: number[] };
  /**
   * Focuses a field and selects its content; its edit kind (`text`, `limited`, `set`,
   * `contenteditable`) and what it held (`FillPrep`). With `shown`: `{ changed }` when focusing
   * (which blurs the field typed in last, whose change may re-render) left the element another
   * item than its ref was shown as.
   */
  prepareFill: (el: Element, shown?: ShownAs | null) => FillPrep | { changed: ShownAs };
  /**
   * Sets a value directly (date, color, range inputs), firing input and change; `rejected`
   * when the field did not keep it (what it holds then: `fieldKept`), `restored` when what it
   * held before was put back (no event fired).
   */
  setValue: (
    el: Element,
    value: string,
  ) => { ok: true } | { rejected: FieldKept; restored?: boolean };
  labeledControl: (el: Element) => Element | null;
  selectOption: (
    el: Element,
    by: { value?: string; label?: string; index?: number },
    shown?: ShownAs | null,
  ) => SelectResult;
  elementInfo: (el: Element, shown?: ShownAs | null) => ElementInfo;
  /**
   * The invalid fields ("name: message", at most 5) of the form Enter on `el` (null: the
   * focused element) would submit, when the browser's validation would stop it; else undefined.
   * With `el` null and the focus in an iframe: that iframe's page-local id (`frame`), for its
   * document to answer.
   */
  enterBlocked: (el: Element | null) => string[] | undefined | { frame: number };
  /** What an input or textarea holds now (null: neither), for a fill to compare. */
  fieldKept: (el: Element) => FieldKept | null;
  scrollInfo: (el?: Element | null) => ScrollInfo;
  /** Scrolls the window (`el` null) or an element to an edge or by an offset. */
  scrollElement: (
    el: Element | null,
    to?: string,
    by?: { x?: number | undefined; y?: number | undefined },
  ) => ScrollInfo;
  /** Every match of a selector (CSS or `text=`), innermost text matches. */
  queryAll: (selector: string) => Element[];
  query: (selector: string) => Element | null;
  queryCount: (selector: string) => number;
  textExcerpt: (max: number) => string;

  // typing_lib.ts (where typed keys go)
  focusInfo: () => { editable: boolean; what: string; none?: boolean; frame?: number };
  /** `focusInfo`, watching where the keys typed next go when the element takes text. */
  typeStart: () => {
    editable: boolean;
    what: string;
    none?: boolean;
    frame?: number;
    watching?: true;
  };
  /** What the typing since `typeStart` left where (`TypeLanded`); null: nothing watched. */
  typeEnd: () => TypeLanded | null;
  taskTurn: (field?: Element | null) => Promise<string | null>;
  taskTurnOn: (field: Element) => Promise<string | null>;
  pageText: () => string;
  hasText: (text: string) => boolean;

  // hit_lib.ts (hit tests and the press guard)
  /** The hit rule: whether `hit` may take a pointer meant for `el` (inside it, or a plain part of its label). */
  hitAccepted: (el: Element, hit: Element) => boolean;
  /** Whether `node` is `root` or inside it, across shadow roots. */
  composedContains: (root: Element, node: Element | null) => boolean;
  /** The element at a viewport point, down through open and handed-over closed shadow roots. */
  deepElementFromPoint: (x: number, y: number) => Element | null;
  /**
   * The fixed or sticky box over `el` at (x, y) (the element there or its ancestor), when one
   * is there, does not hold `el` and covers less than half the view: a header or banner that
   * stays on screen as the page scrolls, so `el` scrolled elsewhere in the view clears it.
   */
  pinnedCoverAt: (
    el: Element,
    x: number,
    y: number,
  ) => { el: Element; position: string } | null;
  /**
   * Whether a pointer at (x, y) (frame CSS px) lands on the element, else what covers it; `arm`:
   * guard the press; `shown` (with `arm`): the element must still be what the ref was shown as
   * (role and context; `{ changed }` when not), and the guard checks it again at the press.
   */
  hitTest: (el: Element, x: number, y: number, arm?: boolean, shown?: ShownAs | null) => HitResult;
  /** An iframe's content origin in its frame (CSS px) and its scale (transforms included). */
  frameMap: (frame: Element) => FrameMap;
  /** Maps a child-frame point into this frame and checks it lands on the iframe; `arm`: guard the press. */
  frameHit: (
    frame: Element,
    x: number,
    y: number,
    arm?: boolean,
  ) => { x: number; y: number; hit: "ok" | { coveredBy: string } };
  /**
   * The element as it is now when it is no longer what its ref was shown as (another role, or
   * another context: a node re-used for another item); undefined when it still is. Before the
   * action's input only its times may have ticked; `during` (after it) its counts and prices
   * too (the action's own effect).
   */
  refChanged: (el: Element, shown: ShownAs, during?: boolean) => ShownAs | undefined;
  /** What the press guard armed for `el` saw; removes it. */
  pressVerdict: (el: Element) => PressVerdict;

  // text_lib.ts (the text model: what the snapshot shows, content-visibility skips included)
  /** The shown text of the page (`el` absent or null) or of an element, raw (`\n` between blocks). */
  shownText: (el?: Element | null) => string;
  /** While on, text matches reuse one walk of the page (one synchronous call's checks). */
  textKeepWalk: (on: boolean) => void;
  /** The innermost shown elements matching a `text=` selector, in snapshot order. */
  textMatches: (selector: string) => Element[];
  /** Those matches described for choosing one (remembered for `queryAt`); texts when asked. */
  queryMatches: (selector: string, withText: boolean) => TextMatchInfo[];
  /** The `index`-th match of the last `queryMatches`, if still there (and its text `expected`). */
  queryAt: (selector: string, index: number, expected: string | null) => Element | null;
  /**
   * What refs of the last `queryMatches`' matches at `indexes` record (each one's control's
   * `refFacts`, as an action there operates it); null where one is gone.
   */
  matchFacts: (selector: string, indexes: number[]) => Array<AlikeFacts | null>;
  /** The page's (or `root`'s) collapsed text, telling `hook` of each shown element around its content. */
  textWalk: (hook: TextWalkHook | null, root?: Element | null, lines?: boolean) => string;
  /** A `text=` selector's text, normalized, and whether it must be the whole text (quoted). */
  textSought: (selector: string) => { exact: boolean; want: string };
  /** The element (or, `display: contents`, a child) has a box of some size. */
  hasBox: (el: Element) => boolean;

  // text_miss_lib.ts (why a text= selector matched nothing shown)
  /** The innermost element holding a `text=` selector's text in its DOM text (see text_miss_lib.ts). */
  hiddenTextHolder: (selector: string) => Element | null;
  /** Where a `text=` selector's text is hidden when no shown element matches (see text_miss_lib.ts). */
  hiddenTextMatch: (selector: string) => string | null;
  /** A shown control whose name (not text) a `text=` selector's text is, described; or null. */
  namedTextMatch: (selector: string) => string | null;

  // section_lib.ts (headings' sections; the sections text_search maps matches to)
  /** 1..9 for a heading, else 0. */
  headingLevel: (el: Element) => number;
  /** What names the part of the page `el` sits in: `[kind, name]` (a label or heading). */
  headingOf: (el: Element) => [string, string];
  /** The element ends the sections of the headings inside it. */
  sectionBoundary: (el: Element) => boolean;
  /** The text model's text, sections and iframes; null when `token`'s walk is still current. */
  textSections: (token: number | null) => TextSections | null;
  /** Ref facts of sections of the last `textSections`; null when gone or another walk's. */
  textSectionInfo: (token: number, indexes: number[]) => Array<SectionInfo | null>;

  // read_lib.ts (read_page)
  /** The shown text of the page (`el` null) or of `el`, as lines; with `links`, its links. */
  readText: (el: Element | null, links: boolean) => ReadText;
  /** What a ref of `el` records. */
  refFacts: (el: Element) => RefFacts | null;

  // secret_lib.ts
  attrValues: (names: string[]) => { values: string[]; cut: boolean };
  rawText: () => string;
  focusIsOn: (el: Element) => boolean;
  frameOrigin: (el: Element) => string;
  focusedOrigin: () => string | null;
  copySource: () => { texts: string[]; held: boolean };
  holdSecret: (el: Element, shown: string[]) => boolean;
  holdFocusedSecret: (shown: string[]) => boolean;
  heldEdited: (el: Element) => boolean;
  focusHeld: () => "input" | "other" | null;
  focusedValue: () => string | null;
  fieldValues: () => string[];
  holdFields: (indexes: number[]) => boolean;
  anyHeld: () => boolean;

  // cover_lib.ts
  coverResetRoots: () => boolean;
  /** Called on a closed shadow root itself (screenshot/closed_roots.ts). */
  coverAddRoot: (root: ShadowRoot) => boolean;
  coverScan: () => CoverScan;
  coverDraw: (
    textIdx: number[],
    controlIdx: number[],
    color: string,
  ) => { covered: number; popover: boolean };
  coverCheck: (textIdx: number[], controlIdx: number[]) => boolean;
  coverRemove: () => boolean;
  coverDone: () => boolean;
}
