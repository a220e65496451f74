/**
 * The types of actionability (`actionability.ts`): what an action needs of its element, the
 * action point, and the page-side steps of one element ({@link ElementSteps}: the seam between
 * the schedule and the page; `element_steps.ts` has the real one, unit tests a fake).
 *
 * @module
 */
import type {
  Box,
  CoverFacts,
  FrameMap,
  HitResult,
  ProbeResult,
  ReadyResult,
  ShownAs,
} from "../injected/page_types.ts";
import type { ToolError } from "../tool_error.ts";
import type { RemoteHandle } from "../injected/mod.ts";

/** What an action needs of its element. */
export interface ActionabilityOptions {
  /** Must be enabled (click, fill, select). */
  enabled?: boolean;
  /** Must be a text field or contenteditable (fill). */
  editable?: boolean;
  /** Must receive the pointer at its center (click, hover). */
  hitTest?: boolean;
  /** Absolute deadline (epoch ms) from the call's timeoutMs. */
  deadline: number;
  /** The call's signal: the wait stops with its reason when it aborts. */
  signal?: AbortSignal | undefined;
  /** Fail-fast budget for hidden/disabled/covered states, ms. @default 2000 */
  failFastMs?: number;
  /** Pointer actions: an element shown on an ancestor's hover gets that hover first. */
  revealByHover?: boolean;
  /**
   * Told the element's `[role, name]` by the first check's page call that reads them (the
   * audit's note of what the action hit, `acted_target.ts`): no page call of its own.
   */
  roleName?: ((roleName: readonly [string, string]) => void) | undefined;
}

/** A point in the top-level viewport, CSS px. */
export interface Point {
  x: number;
  y: number;
}

/** An action point: top-level viewport coordinates plus the same point in the element's frame. */
export interface ActionPoint extends Point {
  frameX: number;
  frameY: number;
  /** The ancestor the pointer was moved over first to show the element (`revealByHover`). */
  hoveredFirst?: string;
}

/** What the page-side `probe` says of an element. */
export type Probe = ProbeResult;

/**
 * What the page-side hit test says: the element gets the pointer, what would
 * instead, or the ancestor that clips the element at the point.
 */
export type Hit = HitResult;

/**
 * The page-side steps of actionability on one element: the seam between the
 * schedule (pure logic, unit-tested with a fake) and the page.
 * `element_steps.ts`'s `elementSteps` is the real one.
 */
export interface ElementSteps {
  /** Attached, visible, enabled, editable, as asked. */
  probe(checks: { enabled: boolean; editable: boolean }): Promise<Probe>;
  /** Scrolls the element into view when it is not fully inside the viewport. */
  scrollIntoView(): Promise<void>;
  /** The element's box after two animation frames, and whether it stayed put. */
  stableBox(): Promise<{ stable: boolean; box: Box }>;
  /**
   * {@link probe}, then when ok {@link scrollIntoView} and {@link stableBox}, in one page call
   * (one round trip per attempt instead of three). With `hit`, a stable box's center is hit
   * tested in the same call: the next {@link hitTest} of that point, unarmed, answers it
   * without asking the page again. Optional: without it the loop takes the steps one by one
   * ({@link readyStep}).
   */
  ready?:
    | ((checks: { enabled: boolean; editable: boolean }, hit: boolean) => Promise<ReadyResult>)
    | undefined;
  /**
   * Whether a pointer event at (x, y) (frame CSS px) would land on the element (in
   * a subframe: through every frame above it). With `arm`, a passing test arms the
   * press guard: the next press's events are checked, and stopped when they go elsewhere.
   * With `arm` and a ref (`shown`), the element must still be what the ref was shown as (or
   * what {@link accept} took instead): `{ changed }` when not.
   */
  hitTest(frameX: number, frameY: number, arm?: boolean): Promise<Hit>;
  /** Offset and scale of the element's frame in the top-level viewport (top = x + frame × scale). */
  frameOffset(): Promise<FrameMap>;
  /**
   * Reads and removes the armed press guards: the error when they stopped the press, and
   * what the result should say of a press that went through (a name changed by the hover, a
   * press whose `expect` event, e.g. `click`, never came).
   */
  pressVerdict(expect?: string): Promise<PressOutcome>;
  /** The element's frame (CDP frame id), when known: names a cover's ref in a covered error. */
  frameId?: string | undefined;
  /**
   * What kind of cover is at (frameX, frameY), when its description alone would mislead (the
   * card's stretched link, a transparent layer); asked only once a hit test found the element
   * covered. Optional: without it, covers are only described.
   */
  coverKind?: ((frameX: number, frameY: number) => Promise<CoverFacts | null>) | undefined;
  /** What the element's ref was shown as (from its handle), checked by the armed hit test. */
  shown?: RemoteHandle["shown"];
  /**
   * The pointer has been moved onto the element in this action (set by the pointer sequence):
   * a change of its row from then on may be the hover's doing.
   */
  arrived?: boolean;
  /**
   * Takes the element's row as it is now (a change the hover made) for what later checks of
   * this action compare with; its role and shown name stay.
   */
  accept?(now: ShownAs): void;
  /**
   * When the element is hidden only until an ancestor is hovered (a `:hover` style rule), moves
   * the pointer over that ancestor and returns its description; else undefined, nothing done.
   */
  revealByHover?: (() => Promise<string | undefined>) | undefined;
  /**
   * Told the element's `[role, name]` once, by the next {@link ready} call (which then asks the
   * page for them too); cleared once told.
   */
  onRoleName?: ((roleName: readonly [string, string]) => void) | undefined;
}

/** What became of a press (see {@link ElementSteps.pressVerdict}). */
export interface PressOutcome {
  /** The guards stopped the press: nothing reached the page's elements. */
  error?: ToolError | undefined;
  /** Said in the result beside a press that went through. */
  warnings?: string[] | undefined;
}
