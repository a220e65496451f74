/// <reference lib="dom" />
/**
 * Types of the values the page-side parts (`*_lib.ts`) hand each other and
 * the Deno side: objects with methods that stay in the page (an outline
 * buffer, a link writer) and the JSON shapes results take
 * across `Runtime.evaluate` / `Runtime.callFunctionOn` with `returnByValue`.
 * The form parts' types are in `form_types.ts`, the text parts' in `text_types.ts`, the control
 * and find parts' in `control_types.ts` and `find_types.ts`. Types only: nothing here is sent to the page.
 *
 * @module
 */

/** The outline buffer `newOutline()` (outline_lib.ts) creates (documented for the Deno side's types). */
export interface Outline {
  /** Appends text to the current run; a run becomes one line (whitespace collapsed unless `pre`). */
  addText(s: string, depth: number, pre: boolean): void;
  /** Ends the current run. */
  flush(): void;
  /**
   * Adds a node line (`kind` 1, 2 when it carries a ref, 4 a `## heading`, 5 a `*` list item);
   * returns its index.
   */
  node(depth: number, text: string, name: string, kind: number): number;
  /** Adds a line as is (no folding). */
  raw(depth: number, text: string): void;
  /** Folds after a node's children; see the rules in the module doc. */
  finish(idx: number, depth: number, conditional: boolean, canMerge: boolean): void;
  /** Number of lines so far (after a flush). */
  size(): number;
  /** True when every line from `start` on is plain text. */
  plainFrom(start: number): boolean;
  /**
   * Turns the lines of a row's cells (`[start, end, header]`: line range, 1 a column header,
   * 2 a row header, else 0) into one line, `prefix: | a | button "Edit" [ref=#3]` (no
   * `prefix: ` when `prefix` is empty; a row header's text in `**bold**`; a row of column
   * headers followed by `|---|---|`), or, when a cell holds structure, a `prefix` (or `- row`)
   * node with its cells' lines under it.
   */
  foldRow(
    start: number,
    depth: number,
    cells: Array<[number, number, number]>,
    prefix: string,
  ): void;
  /** The outline text, 2 spaces of indentation per depth. */
  render(): string;
}

/** What `newLinks()` returns: one per snapshot walk (it remembers the URLs it showed). */
export interface LinkWriter {
  /** The URL to show for a link: same-origin as a path, none for in-page anchors and `#`. */
  urlOf(el: Element): string;
  /** `url`, or `""` when this text with this URL was shown already or the link targets itself. */
  shownUrl(el: Element, name: string, url: string): string;
  /** True for a permalink mark: `#`, `¶`, `§`, 🔗 or no text, linking to its own heading. */
  isPermalink(el: Element, name: string): boolean;
  /** The heading's name without a trailing permalink mark it holds. */
  headingName(el: Element, name: string): string;
}

/**
 * What the line writers of a snapshot walk (`walkLines`, walk_lines_lib.ts) share with the walk
 * (walker_lib.ts): its outline, refs, links and focused element, and its own steps.
 */
export interface WalkScope {
  o: Outline;
  /** The walk's refs (`SnapshotResult.refs`). */
  refs: Array<SnapshotRef | [number]>;
  links: LinkWriter;
  /** The focused element (through open shadow roots), or null. */
  focused: Element | null;
  /** The focused element got ref `#id` (`SnapshotResult.focus`). */
  focus(id: number): void;
  /** Walks an element's children (its shadow root's, or a slot's assigned nodes). */
  walkKids(el: Element, depth: number, flags: number): void;
  /** Walks an element: its line, if any, and its content. */
  walkEl(el: Element, depth: number, flags: number): void;
  /** Writes a table row (`target`: the row has a ref of its own). */
  walkRow(el: Element, depth: number, flags: number, target?: boolean): void;
  /** The element's name (static checks only inside skipped content). */
  nameIn(el: Element, flags: number): string;
  /** The element's context, `[kind, text]` (static checks only inside skipped content). */
  contextIn(el: Element, flags: number, role: string, name: string): [string, string];
}

/** The line writers of one snapshot walk (`walkLines`, walk_lines_lib.ts). */
export interface WalkLines {
  /** A targetable element's line (`stateEl`: the element whose states it shows, its control). */
  walkTarget(el: Element, depth: number, flags: number, stateEl: Element): void;
  /** A line of structure (`role`): a heading, landmark, list, dialog, image, … */
  walkStruct(el: Element, role: string, depth: number, flags: number): void;
  /** A container without a line of its own: its content in its place. */
  walkGeneric(el: Element, depth: number, flags: number): void;
}

// JSON shapes: what by-value results look like once they crossed (no nodes, no functions).
// Type aliases, not interfaces: a Deno-side `Record<string, unknown>` takes them.

/** Codes of the failures page-side form code answers with (a subset of `ToolErrorCode`). */
export type PageErrorCode =
  | "invalid-argument"
  | "not-found"
  | "not-visible"
  | "not-enabled"
  | "not-editable"
  | "not-actionable"
  | "ref-gone";

/** A failure page-side code answers with instead of throwing. */
export type PageFailure = { error: string; code: PageErrorCode };

/** A rectangle in the element's frame, CSS px. */
export type Box = { x: number; y: number; width: number; height: number };

/** Actionability of an element (`probe`). */
export type ProbeResult =
  | { state: "ok"; box: Box }
  | {
    state: "notconnected" | "notvisible" | "disabled" | "noteditable" | "inert";
    detail?: string;
  };

/**
 * `readyBox`'s answer: the probe's failure, or the element's box after its scroll into view and
 * two animation frames, and whether it stayed put meanwhile.
 */
export type ReadyResult =
  & (
    | {
      state: "ok";
      box: Box;
      stable: boolean;
      /** Asked for and stable: `hitTest` at the box's center (frame CSS px), unarmed. */
      hit?: HitResult;
    }
    /** Asked with `shown`: the element was re-used for another item (what it is now). */
    | { state: "changed"; now: ShownAs }
    | Exclude<ProbeResult, { state: "ok" }>
  )
  & {
    /** Asked with `roleName`: the element's role and accessible name, read before the checks. */
    roleName?: [string, string];
  };

/**
 * How a child frame's points map into its parent frame: parent = (x, y) +
 * child × (scaleX, scaleY), CSS px (the `<iframe>`'s content origin and scale).
 */
export type FrameMap = { x: number; y: number; scaleX: number; scaleY: number };

/**
 * What a press guard saw (`pressVerdict`): `armed` false when there was none
 * for the element; `seen` whether a trusted press event reached this document;
 * `bad` the element the press went to instead, and whether the element is gone, or (`changed`)
 * that the element itself was re-used for another item before the press's first event;
 * `events` the trusted event types that reached this document, in order (first of each);
 * `name` the element's name at the first event when it differs from the name it was shown with;
 * `clickedElsewhere` what the press's click landed on when not the element (the page changed
 * under the pointer during the press). `bad.during`: the element was re-used after the press's
 * first event, before its click (stopped there; the page saw the press begin).
 */
export type PressVerdict = {
  armed: boolean;
  seen: boolean;
  bad?: { coveredBy: string; gone: boolean; changed?: ShownAs; during?: boolean };
  events?: string[];
  /**
   * The press's trusted events that reached the element (its own frame's guard only): one the
   * window saw (`events`) that is missing here was stopped on the way by the page.
   */
  reached?: string[];
  name?: string;
  clickedElsewhere?: string;
  /**
   * The press clicked a checkbox (or its label) and the box kept its state: the page stopped
   * the toggle (`preventDefault` in a click handler, or one that set it back); the state kept.
   */
  boxKept?: boolean;
};

/** Facts about an element after an action; `cuts`: field → length to cut to, on the server. */
export type ElementInfo = {
  stillAttached: boolean;
  focused?: boolean;
  value?: string;
  checked?: boolean;
  displayText?: string;
  /**
   * A submit control's form that fails the browser's validation (no `novalidate`): its invalid
   * fields as "name: message", at most 5. A click on the control does not send such a form.
   */
  formInvalid?: string[];
  /**
   * The element's row no longer reads as the item its ref was shown in (`refChanged`, asked
   * with the shown context): the row's text now, at most 120 characters.
   */
  reusedFor?: string;
  /**
   * An input's value the browser keeps but its validation refuses (a form with it is not
   * sent): out of `min`/`max` (`rangeUnderflow`, `rangeOverflow`) or off its `step`
   * (`stepMismatch`, with `near`: the values on the step below and above it), with the
   * field's `min`, `max` and `step` attributes as set (at most 40 characters each).
   */
  validity?: {
    issue: "rangeUnderflow" | "rangeOverflow" | "stepMismatch";
    min?: string;
    max?: string;
    step?: string;
    near?: string[];
  };
  cuts?: Record<string, number>;
};

/**
 * What a field holds after a fill (`fieldKept`): its type, the length of its value, its value
 * (left out for a secret field), its `maxlength` (-1: none) and its `min`/`max` attributes.
 */
export type FieldKept = {
  type: string;
  length: number;
  value?: string;
  maxLength: number;
  min: string;
  max: string;
};

/**
 * What `prepareFill` tells of a field it focused: its edit kind (`text`, `limited`, `set`,
 * `contenteditable`), and what it held before (`was`, when short and not secret) or that it
 * is a secret field (`secret`: its values are never sent).
 */
export type FillPrep = { kind: string; was?: string; secret?: true };

/**
 * Where typed text went (`typeEnd`): the characters the field focused at the start took
 * (`into`, from its `input` events), the field, whether the focus left it, what has the focus
 * now, and the other elements that took characters (the first 3; `elsewhereChars`: all).
 */
export type TypeLanded = {
  into: number;
  field: string;
  left: boolean;
  now: string;
  elsewhere: Array<{ what: string; chars: number }>;
  elsewhereChars: number;
};

/** Scroll geometry of an element or the document scroller, CSS px. */
export type ScrollInfo = {
  x: number;
  y: number;
  scrollWidth: number;
  scrollHeight: number;
  clientWidth: number;
  clientHeight: number;
  atTop: boolean;
  atBottom: boolean;
  /** What was scrolled instead of an element that does not scroll (`scrollElement`). */
  container?: string;
  /** A to/by scroll moved nothing: already at that edge. */
  moved?: false;
};

/**
 * What `selectOption` answers: the option picked, or why not (`options`: some to pick from;
 * `changed`: focusing it left the select another item than its ref was shown as, nothing
 * chosen).
 */
export type SelectResult = {
  ok?: true;
  changed?: ShownAs;
  error?: string;
  options?: Array<{ value: string; label: string }>;
  value?: string;
  label?: string;
  /** The value the select held before (the page may set it back). */
  was?: string;
  /** No option had the label as written: the one that has it in another case was chosen. */
  caseFolded?: true;
  /**
   * A `<select multiple>`: the labels selected before the choice and once the page's input
   * and change handlers ran (the choice replaces the selection).
   */
  multiple?: { was: string[]; now: string[] };
};

/** Options of `snapshot`: a subtree (`rootId`), long text runs kept on one line. */
export type SnapshotOptions = {
  rootId?: number;
  wholeLines?: boolean;
  /**
   * The Deno side's registry token: refs whose facts it read already are sent as `[id]`
   * (ref_memo_lib.ts). Undefined: every ref whole.
   */
  registry?: string;
  /** The walk (`SnapshotResult.walk`) the registry last read whole, of world `world`. */
  ack?: number;
  /** The world (`SnapshotResult.instance`) of `ack`: another world's ack counts as none. */
  world?: string;
};

/** A ref's facts: `[localId, role, name, contextKind, contextText]`. */
export type SnapshotRef = [number, string, string, string, string];

/** What `snapshot` returns for one frame. */
export type SnapshotResult = {
  /** The outline, with `[ref=#id]` and `[frame=#id]` marks. */
  text: string;
  /**
   * `[localId, role, name, contextKind, contextText]`, or `[localId]` for a ref whose facts are
   * those of the acknowledged walk (`SnapshotOptions.ack`).
   */
  refs: Array<SnapshotRef | [number]>;
  /** This walk's number in its world (acknowledge it with `SnapshotOptions.ack`). */
  walk: number;
  /** Page-local ids of the iframes in `text`. */
  frames: number[];
  /** The world's instance id (a new one per install of the library). */
  instance: string;
  /**
   * Page-local ids of custom elements without an open shadow root not checked yet: each may
   * hold a closed one, which only CDP sees (snapshot/closed_hosts.ts).
   */
  hosts: number[];
  /**
   * Page-local id of the element with the focus (the innermost one, through open shadow roots),
   * when it has a ref in `text`; absent otherwise. Only text fields show ` [focused]` in the
   * text: this says where a key press sent the focus (a button, a link) at no extra cost.
   */
  focus?: number;
};

/**
 * What kind of cover takes a click meant for an element (`coverKind`, asked once the hit test
 * found it covered), when it is
 * one an agent cannot tell from its description: `stretched`, a link or button of the
 * element's own card whose box or `::before`/`::after` (`pseudo`) spans the card (`card`,
 * described) — the page's "stretched link", where a person's click lands too; `transparent`, a
 * layer that paints nothing (no background, border, text or image, or opacity 0) and is no
 * control, yet takes the pointer (its `pointer-events` are on); `pinned`, a box of `position`
 * fixed or sticky (a header, a banner) that stays on screen as the page scrolls. `id` and
 * `inst`: the cover's page-local id and its world's instance (to name its ref).
 */
export type CoverFacts = {
  kind: "stretched" | "transparent" | "pinned";
  /** A pinned cover's CSS position: `fixed` or `sticky`. */
  position?: string;
  /** The stretched link, described. */
  link?: string;
  card?: string;
  pseudo?: string;
  id: number;
  inst: string;
};

/**
 * What the page-side hit test says: the element gets the pointer, something
 * else is on top (`coveredBy`), or the point lies outside the visible box of
 * an ancestor that clips the element (`clippedBy`; `how`: `overflow`,
 * `clip-path`, `zero-size`).
 */
export type HitResult =
  | "ok"
  | { coveredBy: string }
  | { clippedBy: string; how: string }
  /** The element takes no input: why (`inertOf`). */
  | { inert: string }
  | { changed: ShownAs };

/**
 * A ref's element as the agent was shown it, or as it is now: role, name and context
 * (`contextOf`'s `[kind, text]`). What an armed hit test and the press guard check the element
 * against (a node re-used for another item during the action).
 */
/**
 * What a ref was shown as; `others`: contexts other refs of its role and name were shown in
 * that read alike but for counts and times (a ticking row may not become one of them);
 * `names`: names other refs of its role were shown with that share a word with its own (it may
 * not come to read one of them). As it is now (`refChanged`): `renamed` when its name alone
 * says it is another item.
 */
export type ShownAs = {
  role: string;
  name: string;
  context: [string, string];
  others?: string[];
  names?: string[];
  renamed?: true;
};

/**
 * A snapshot, the mutation generation it reflects, and the document's title then
 * (`snapshotWithGeneration`: the title comes with the walk, not in a round trip of its own).
 */
export type FrameSnapshot = SnapshotResult & { generation: number; title: string };

/** What a ref's element is now (`describe`). */
export type RefDescription = {
  role: string;
  name: string;
  editable: boolean;
  /** `[contextKind, contextText]`. */
  context: [string, string];
};

/** A ref's element now (`refState`): there, gone, or its world replaced. */
export type RefState = ({ state: "ok" } & RefDescription) | { state: "gone" } | {
  state: "world";
};

/** What `coverScan` finds: texts, and per control the strings it shows. */
export type CoverScan = {
  texts: string[];
  values: string[][];
  /** Text nodes and controls (indices) of fields a secret was filled into, edited since. */
  held: { texts: number[]; values: number[] };
};

/** What a ref of an element records (`refFacts`). */
export type RefFacts = RefDescription & { localId: number; instance: string };

/**
 * A match alike others (`cssAlike`, `matchFacts`): what its ref records and, for the first 8
 * (the ones a refusal lists), what names the part of the page it sits in (`headingOf`).
 */
export type AlikeFacts = RefFacts & { heading?: [string, string] };

export type * from "./control_types.ts";
export type * from "./find_types.ts";
