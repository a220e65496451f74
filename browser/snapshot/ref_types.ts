/**
 * The shapes of the ref registry (`refs.ts`): where a ref's element lives, the context it sits
 * in, a registered entry and what a capture saw of it.
 *
 * @module
 */

/** Where a ref's element lives: tab, frame, document, world, page-local id. */
export interface RefTarget {
  /** The tab's target id (its main frame id). */
  targetId: string;
  /** The frame whose document holds the element. */
  frameId: string;
  /** The frame's document (`loaderId`) when the ref was issued. */
  loaderId: string;
  /** The page-side library's world token (page-local ids restart in a new world). */
  instance: string;
  /** The page-local element id (`__browxai.idOf`). */
  localId: number;
}

/**
 * Where an element sits, as the page-side `contextOf` reports it (see
 * `browser/injected/context_lib.ts`): the kind and text of its item container
 * (`"list item"`, `"row"`, `"option"`, `"article"`, `"label"`; text at most 80
 * characters — a longer one is its first 72, `… #` and hashes of the rest (`SKELETON~EXACT`), or
 * fewer, `…`, the item's number past them (see `row_identity.ts` identityOf) and ` #` and those
 * hashes —, with the container's aria-label, images' alt text and aria-labels, fields' values as
 * the page set them (not as typed), and without the element's own text (a text field in a row:
 * its value as the page set it) unless it is the container), or for a nameless clickable
 * `"content"` and its own text, or the role and name of the nearest named structure (`"dialog"`,
 * `"region"`, …), or `""` and `""`. A node recycled for another item (a list
 * re-rendered without keys) keeps its role and name but not its context.
 */
export interface RefContext {
  kind: string;
  text: string;
}

/** A registered ref: its target plus the role, name and context it was last shown with. */
export interface RefEntry extends RefTarget {
  /** The global ref, `e1`, `e2`, … (`p1`, `p2`, … for picks). */
  ref: string;
  /** Its role when last shown to the agent: what an action on the ref is checked against. */
  role: string;
  /** Its name when last shown to the agent (checked, except for text fields). */
  name: string;
  /**
   * Its context when last shown to the agent (checked); undefined when not
   * recorded (then not checked).
   */
  context?: RefContext | undefined;
  /** What the last capture saw; may differ from the shown values until the agent sees it. */
  latest?: SeenAs | undefined;
  /**
   * `RefRegistry.settle` returned it as held, and it has stayed held since: a delta's
   * note said so once, the next ones need not (until it is shown or taken over).
   */
  heldSaid?: boolean;
  /**
   * The agent was told its row's prices, counts or amounts changed on their own (`ref-gone`
   * with what it read then): acting on the ref again says the agent wants the row whatever its
   * numbers read, so a later such change is acted on, and the result says what it read
   * (resolve.ts checkLive, refind.ts).
   */
  liveValues?: boolean;
  /**
   * A result carried the ref to the agent (`RefRegistry.markShown`); picks are shown when
   * made. An action on a ref never shown (a delta that left its line out, a page cut off) is
   * refused: the agent could only have guessed it.
   */
  shown?: boolean;
}

/** A ref's element as one capture saw it. */
export interface SeenAs {
  role: string;
  name: string;
  context: RefContext | undefined;
}

/** Options of `RefRegistry.refFor`. */
export interface RefForOptions {
  /** Where the element sits now (see {@link RefContext}). */
  context?: RefContext | undefined;
  /**
   * The capture is not shown to the agent whole (an action's before and
   * after snapshots, shown as a delta): a known ref keeps the role, name and
   * context it was shown with; `RefRegistry.settle` decides what to take over.
   */
  hold?: boolean;
}
