/**
 * Actionability before acting: attached, visible, stable, enabled, editable
 * (for fill), and receiving the pointer at the action point. Page-side checks
 * return tagged results; one loop ({@link untilActionable}) retries them on a
 * growing schedule and fails fast (~2 s) on hidden, disabled and covered
 * elements. The covered check and its message live here, in
 * {@link coveredAt}; the pointer sequence built on the loop is `pointer.ts`;
 * the types (options, action point, the element's steps) `actionability_types.ts`.
 *
 * @module
 */
import type { ReadyResult, ShownAs } from "../injected/page_types.ts";
import { ToolError } from "../tool_error.ts";
import { pause } from "../poll.ts";
import { reusedDuringAction } from "../snapshot/resolve.ts";
import { keepsIdentity, keepsValues } from "../snapshot/row_identity.ts";
import type { ActionPoint, ElementSteps } from "./actionability_types.ts";
import { inertError } from "./inert_error.ts";
import { coverKindError } from "./cover_error.ts";

export type {
  ActionabilityOptions,
  ActionPoint,
  ElementSteps,
  Hit,
  Point,
  PressOutcome,
  Probe,
} from "./actionability_types.ts";

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
  /** Give up now, whatever the budget left (retrying would chase a moving element, or wait on a stretched link that stays). */
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
  // A cover the description alone would hide (the card's stretched link, a transparent layer):
  // asked of the page only now, on the way to a covered failure.
  const cover = options.stage === "before"
    ? await el.coverKind?.(point.frameX, point.frameY)
    : undefined;
  const by = cover?.link ?? hit.coveredBy;
  const error = cover
    ? coverKindError(by, cover, { frameId: el.frameId })
    : options.stage === "before"
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
  // A stretched link is the page's layout, not a passing overlay: waiting will not move it.
  const final = cover?.kind === "stretched";
  return { stage: options.stage, error, ...(final ? { final } : {}) };
}

/**
 * Whether a change of the element's row, seen once the pointer arrived on it, is the hover's
 * doing: a row that reveals or swaps part of itself (its actions, a date) is the same item, acted
 * on as it is now; one that now shows what another ref's row showed, or another item number
 * than it was shown with ("Order 1011" for "Order 1001", numbers no row showed: `keepsIdentity`),
 * is a node re-used for another item, and a changed role or kind of context is another thing.
 * A row whose price or amount changed as the pointer arrived ("Gadget $500" for "$5":
 * `keepsValues`) is not acted on either.
 */
export function hoverChange(el: ElementSteps, now: ShownAs): boolean {
  const shown = el.shown;
  return !!shown && el.arrived === true && now.role === shown.role && !now.renamed &&
    now.context[0] === shown.context[0] && keepsIdentity(shown.context[1], now.context[1]) &&
    keepsValues(shown.context[1], now.context[1]) && !shown.elsewhere?.(now.context);
}

/**
 * The `ref-gone` failure of an element that its own scroll into view detached: the page
 * re-rendered it as it scrolled (a virtual list draws only the rows in view). `details.
 * scrolledAway` tells the caller to look the target up again (`run_action.ts`).
 */
export function scrolledAway(): ToolError {
  return new ToolError(
    "ref-gone",
    "The element went away as it was scrolled into view: the page re-rendered it on that scroll (a virtual list draws only the rows in view)",
    "take a new snapshot (the row is in view now) and use its new ref",
    { scrolledAway: true },
  );
}

/** Whether `e` is {@link scrolledAway}'s failure. */
export function isScrolledAway(e: unknown): e is ToolError {
  return e instanceof ToolError && e.details?.scrolledAway === true;
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
  /** A hidden element gets {@link ElementSteps.revealByHover} once (then the hidden budget). */
  revealByHover?: boolean;
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
  let hovered: string | undefined, triedHover = !options.revealByHover || !el.revealByHover;
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
        if (probe.detail === "scrolled") throw scrolledAway();
        throw new ToolError(
          "ref-gone",
          "The element is no longer attached to the page",
          "take a new snapshot and use the new ref",
        );
      }
      if (probe.state === "notvisible" && !triedHover) {
        triedHover = true;
        hovered = await el.revealByHover!();
        if (hovered) continue;
      }
      if (probe.state !== "ok") {
        last = probe.state;
        lastDetail = probe.detail;
        // A button or checkbox never turns into a text field, and a read-only field or an
        // aria-disabled control is the page's own choice (a date field filled by its picker, a
        // switch the app locks), seldom undone in the next seconds: no point waiting (a new
        // user waited 2 s for a generic hint). A natively disabled control is waited for: a
        // form enables its submit button as its fields validate.
        if (probe.state === "noteditable") break;
        if (probe.state === "disabled" && probe.detail === "aria-disabled") break;
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
    if (!failed) return hovered ? { ...point, hoveredFirst: hovered } : point;
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
        lastDetail === "aria-disabled"
          ? 'The element is disabled (aria-disabled="true")'
          : "The element is disabled",
        lastDetail === "aria-disabled"
          ? "the page has locked it: do first what unlocks it (a choice, a required field, a " +
            "setting it depends on; its section says which), then try again"
          : "complete what enables it (required fields, a choice) and try again",
      );
    case "noteditable":
      throw new ToolError(
        "not-editable",
        `The element cannot be filled: ${lastDetail ?? "it is not editable"}`,
        lastDetail === "it is read-only"
          ? "the page sets its value itself: use the control beside it (a calendar or picker " +
            "button, a stepper, an option list) shown in its row or section"
          : "target a text input, textarea or contenteditable element (use select for <select>)",
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
