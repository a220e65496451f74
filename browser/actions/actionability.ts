/**
 * Actionability before acting: attached, visible, stable, enabled, editable
 * (for fill), and receiving the pointer at the action point. Page-side checks
 * return tagged results; one loop ({@link untilActionable}) retries them on a
 * growing schedule and fails fast (~2 s) on hidden, disabled and covered
 * elements. The covered check and its message live here, in
 * {@link coveredAt}; the pointer sequence built on the loop is `pointer.ts`.
 *
 * @module
 */
import type {
  Box,
  FrameMap,
  HitResult,
  ProbeResult,
  ReadyResult,
  ShownAs,
} from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";
import { pause } from "../poll.ts";
import type { RemoteHandle } from "../injected/mod.ts";
import { reusedDuringAction } from "../snapshot/resolve.ts";
import { keepsIdentity } from "../snapshot/row_identity.ts";
import { inertError } from "./inert_error.ts";

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
}

/** What became of a press (see {@link ElementSteps.pressVerdict}). */
export interface PressOutcome {
  /** The guards stopped the press: nothing reached the page's elements. */
  error?: ToolError | undefined;
  /** Said in the result beside a press that went through. */
  warnings?: string[] | undefined;
}

/** Time, for the schedule: real in production, virtual in unit tests. */
export interface Clock {
  /** Epoch ms. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => pause(ms, signal),
};

/** Waits between attempts, ms: attempt n waits `SCHEDULE[n]` (the last one repeats). */
export const SCHEDULE: readonly number[] = [0, 20, 50, 100, 100, 250, 500];

/** Default fail-fast budget for hidden, disabled and covered elements, ms. */
export const FAIL_FAST_MS = 2000;

/**
 * When a hit test runs: `before` the pointer moves (something covers the
 * element), or once the pointer `arrived` (its arrival moved or covered the
 * element, a hover effect).
 */
export type HitStage = "before" | "arrived";

/** A covered failure, with the stage it was found at. */
export interface Covered {
  stage: HitStage;
  error: ToolError;
  /** Give up now, whatever the budget left (retrying would chase a moving element). */
  final?: boolean;
}

/**
 * The covered check: hit-tests the action point and, when something else is
 * there, returns the `covered` error naming it (with `coveredBy` in its
 * details); when an ancestor clips the element there (the point lies outside
 * its visible box even after scrolling it, a `clip-path`, an empty box), the
 * `not-actionable` error saying "clipped by" it (`clippedBy` in its details).
 * The only place that words a covered or clipped failure.
 *
 * @param what names the element in the `arrived` message (e.g. "the submit control").
 * @param arm arms the press guard when the element gets the pointer (see {@link ElementSteps.hitTest}).
 * @returns undefined when the element gets the pointer.
 */
export async function coveredAt(
  el: ElementSteps,
  point: ActionPoint,
  options: { stage: HitStage; what?: string; arm?: boolean },
): Promise<Covered | undefined> {
  let hit = await el.hitTest(point.frameX, point.frameY, options.arm);
  const shown = el.shown;
  if (typeof hit === "object" && "changed" in hit && hoverChange(el, hit.changed)) {
    el.accept?.(hit.changed);
    hit = await el.hitTest(point.frameX, point.frameY, options.arm);
  }
  if (hit === "ok") return undefined;
  if ("inert" in hit) return { stage: options.stage, error: inertError(hit.inert) };
  if ("clippedBy" in hit) return { stage: options.stage, error: clippedError(hit) };
  // Re-used for another item while the action waited: retrying would act on that item.
  if ("changed" in hit) {
    const error = shown ? reusedDuringAction(shown, hit.changed) : new ToolError(
      "ref-gone",
      "The element changed while the action waited on it",
      "take a new snapshot",
    );
    return { stage: options.stage, error, final: true };
  }
  const by = hit.coveredBy;
  const error = options.stage === "before"
    ? new ToolError(
      "covered",
      `The element is covered by ${by}, which would receive the click`,
      "close or dismiss the covering element first (e.g. a dialog or overlay), then retry",
      { coveredBy: by },
    )
    : new ToolError(
      "covered",
      `Did not click${
        options.what ? ` ${options.what}` : ""
      }: when the pointer arrived, ${by} was at the click point instead (a hover effect moved or covered the element)`,
      "take a new snapshot and retry; hover first if the page reshapes on hover",
      { coveredBy: by },
    );
  return { stage: options.stage, error };
}

/**
 * Whether a change of the element's row, seen once the pointer arrived on it, is the hover's
 * doing: a row that reveals or swaps part of itself (its actions, a date) is the same item, acted
 * on as it is now; one that now shows what another ref's row showed, or another item number
 * than it was shown with ("Order 1011" for "Order 1001", numbers no row showed: `keepsIdentity`),
 * is a node re-used for another item, and a changed role or kind of context is another thing.
 */
export function hoverChange(el: ElementSteps, now: ShownAs): boolean {
  const shown = el.shown;
  return !!shown && el.arrived === true && now.role === shown.role &&
    now.context[0] === shown.context[0] && keepsIdentity(shown.context[1], now.context[1]) &&
    !shown.elsewhere?.(now.context);
}

/** The `not-actionable` failure of an element an ancestor clips at the action point. */
function clippedError(hit: { clippedBy: string; how: string }): ToolError {
  const why = hit.how === "clip-path"
    ? "its clip-path hides the click point"
    : hit.how === "zero-size"
    ? "that box has no visible area"
    : `the click point lies outside that box's visible area (${hit.how}), and scrolling it does not reveal the element`;
  return new ToolError(
    "not-actionable",
    `The element is clipped by ${hit.clippedBy}: ${why}`,
    "reveal it the way a user would (the container's own next/expand control, or a scroll " +
      "with the container's ref), then take a new snapshot; press or fill reach it by focus " +
      "without the pointer",
    { clippedBy: hit.clippedBy, clip: hit.how },
  );
}

/**
 * What to do at an actionable point: undefined when done, or the covered
 * failure to retry on. `fromStart` tells the point is the caller's `start`
 * (checked just now), not one this loop probed.
 */
export type AtPoint = (point: ActionPoint, fromStart: boolean) => Promise<Covered | undefined>;

/** Options of {@link untilActionable}. */
export interface LoopOptions {
  enabled?: boolean;
  editable?: boolean;
  /** Absolute deadline, epoch ms. */
  deadline: number;
  /** The call's signal: the loop stops with its reason when it aborts (between steps). */
  signal?: AbortSignal | undefined;
  /** Fail-fast budget for hidden/disabled/covered states, ms. @default 2000 */
  failFastMs?: number;
  /** A point found actionable just now: the first attempt goes straight to `atPoint` with it. */
  start?: ActionPoint;
  /**
   * `atPoint` begins with an unarmed hit test of the point: each attempt's page call takes it
   * too (see {@link ElementSteps.ready}).
   */
  hitsFirst?: boolean;
}

/**
 * The actionability loop: probe, scroll into view, wait stable, then
 * `atPoint` at the element's center; a not-ok state or a covered failure is
 * retried with {@link SCHEDULE}'s waits, every retry re-probing (the element
 * may have moved). Hidden, disabled and covered give up at the fail-fast
 * budget (or the deadline, when sooner), a moving element at the deadline,
 * a non-text field and a `final` covered failure at once. When `signal` aborts, the loop
 * stops before its next step.
 *
 * @returns the action point where `atPoint` succeeded.
 * @throws ToolError ref-gone (detached) | not-visible | not-enabled |
 *   not-editable | not-actionable (inert, clipped) | covered (names the covering element) | timeout;
 *   the signal's reason when it aborted.
 */
export async function untilActionable(
  el: ElementSteps,
  options: LoopOptions,
  atPoint?: AtPoint,
  clock: Clock = realClock,
): Promise<ActionPoint> {
  const started = clock.now();
  const failFastAt = Math.min(options.deadline, started + (options.failFastMs ?? FAIL_FAST_MS));
  let attempt = 0;
  let last = "";
  let lastDetail: string | undefined;
  let covered: Covered | undefined;
  while (true) {
    const wait = SCHEDULE[Math.min(attempt, SCHEDULE.length - 1)]!;
    if (wait) await clock.sleep(wait, options.signal);
    options.signal?.throwIfAborted();
    attempt++;
    let point: ActionPoint;
    const fromStart = attempt === 1 && options.start !== undefined;
    if (fromStart) point = options.start!;
    else {
      const probe = await readyStep(el, {
        enabled: options.enabled ?? false,
        editable: options.editable ?? false,
      }, options.hitsFirst ?? false);
      if (probe.state === "changed") {
        // The pointer is on it (an earlier attempt's): its hover may have changed the row.
        if (hoverChange(el, probe.now)) {
          el.accept?.(probe.now);
          last = "changed";
          if (clock.now() >= options.deadline) break;
          continue;
        }
        throw el.shown
          ? reusedDuringAction(el.shown, probe.now, "nothing was done to it")
          : new ToolError(
            "ref-gone",
            "The element was re-used for another item",
            "take a new snapshot",
          );
      }
      if (probe.state === "notconnected") {
        throw new ToolError(
          "ref-gone",
          "The element is no longer attached to the page",
          "take a new snapshot and use the new ref",
        );
      }
      if (probe.state !== "ok") {
        last = probe.state;
        lastDetail = probe.detail;
        // A button or checkbox never turns into a text field: no point waiting.
        if (probe.state === "noteditable" && !/read-only/.test(probe.detail ?? "")) break;
        if (clock.now() >= failFastAt) break;
        continue;
      }
      const { stable, box } = probe;
      if (!stable) {
        last = "unstable";
        if (clock.now() >= options.deadline) break;
        continue;
      }
      const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
      const off = await el.frameOffset();
      point = { x: off.x + cx * off.scaleX, y: off.y + cy * off.scaleY, frameX: cx, frameY: cy };
    }
    const failed = atPoint ? await atPoint(point, fromStart) : undefined;
    if (!failed) return point;
    // Once the pointer got there and found the element covered (a hover effect), that is
    // the news: a later attempt finding the same cover before moving says less.
    if (failed.final || !(failed.stage === "before" && covered?.stage === "arrived")) {
      covered = failed;
    }
    last = "covered";
    if (failed.final || clock.now() >= failFastAt) break;
  }
  switch (last) {
    case "notvisible":
      throw new ToolError(
        "not-visible",
        "The element is not visible (hidden, zero-size or display:none)",
        "reveal it first (hover its row or card for controls shown on hover, open its menu or section), or pick a visible element",
      );
    case "inert":
      throw inertError(lastDetail ?? "inert");
    case "disabled":
      throw new ToolError(
        "not-enabled",
        "The element is disabled",
        "complete what enables it (required fields, a choice) and try again",
      );
    case "noteditable":
      throw new ToolError(
        "not-editable",
        `The element cannot be filled: ${lastDetail ?? "it is not editable"}`,
        "target a text input, textarea or contenteditable element (use select for <select>)",
      );
    case "covered":
      throw covered!.error;
    default:
      throw new ToolError(
        "timeout",
        "The element kept moving (animation) until the timeout",
        "wait for the animation to end (wait_for) or raise timeoutMs",
      );
  }
}

/**
 * One attempt's page steps: probe, then when ok scroll into view and the box after two
 * frames; in one call when the steps have {@link ElementSteps.ready}, else one by one.
 */
export async function readyStep(
  el: ElementSteps,
  checks: { enabled: boolean; editable: boolean },
  hit = false,
): Promise<ReadyResult> {
  if (el.ready) return await el.ready(checks, hit);
  const probe = await el.probe(checks);
  if (probe.state !== "ok") return probe;
  await el.scrollIntoView();
  return { state: "ok", ...(await el.stableBox()) };
}
