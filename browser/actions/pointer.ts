/**
 * The one pointer-action sequence on an element: probe, scroll into view,
 * wait stable, hit test, move the mouse, hit test again with the pointer
 * there, press and release — retried from the probe when the element is
 * covered, until the fail-fast budget or the call's deadline. Every tool
 * that points at an element (click, hover, upload_file's chooser click,
 * publish and save_draft's submit) goes through {@link pointerAction}.
 *
 * A retry acts on the same element handle, re-probed: a cover that goes away
 * lets the press land on the element, one that stays fails `covered` naming
 * it, and a detached element fails `ref-gone`. Nothing is ever pressed at a
 * point whose hit test named another element: in a subframe the hit test
 * covers every frame above it, the press follows the last hit test without
 * another move, and a press guard (hit_lib.ts) stops the press's events when
 * they still reach another element (`covered`, or `ref-gone` when the element
 * was replaced; final, not retried). An element the pointer's
 * arrival moved away (the page reshapes on hover) is not chased: that fails
 * `covered` at once, for the agent to look again.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { RemoteHandle } from "../injected/mod.ts";
import { inputOf, inputTaken } from "./devices.ts";
import {
  type ActionPoint,
  type Clock,
  type Covered,
  coveredAt,
  type ElementSteps,
  type PressOutcome,
  realClock,
  untilActionable,
} from "./actionability.ts";
import { elementSteps } from "./element_steps.ts";

/** A press: which button, how many clicks, which modifier keys held. */
export interface Press {
  button?: "left" | "right" | "middle";
  /** 2: double click. @default 1 */
  clickCount?: number;
  modifiers?: Array<"Alt" | "Control" | "Meta" | "Shift">;
}

/** The pointer, in top-level viewport CSS px: real in production, a fake in unit tests. */
export interface PointerInput {
  move(x: number, y: number): Promise<void>;
  /**
   * Presses and releases (`clickCount` times) where the pointer is, (x, y),
   * WITHOUT moving it: a move after the last hit test could reshape the page
   * (hover handlers) under the press.
   */
  click(x: number, y: number, press: Press): Promise<void>;
}

/** Options of {@link pointerAction}. */
export interface PointerOptions {
  /** The press; omitted: move only (hover). */
  press?: Press;
  /** The element must be enabled (click). */
  enabled?: boolean;
  /** Absolute deadline, epoch ms. */
  deadline: number;
  /** The call's signal: the sequence stops with its reason when it aborts (between steps). */
  signal?: AbortSignal | undefined;
  /** Fail-fast budget for covered (and hidden, disabled) elements, ms. @default 2000 */
  failFastMs?: number;
  /**
   * The point `waitActionable` with `hitTest` returned just now: the first
   * attempt moves there at once (probe and first hit test already done).
   */
  start?: ActionPoint;
  /** Names the element in the covered message ("the submit control"). */
  what?: string;
  /**
   * Where the press's warnings go (a name changed as the pointer arrived, a click that never
   * came: see `pressOutcome`), for the result; omitted: dropped.
   */
  warnings?: string[];
}

/**
 * Runs the pointer sequence on an element's steps with a given pointer (the
 * seam unit tests drive with fakes). See {@link pointerAction}.
 *
 * @throws ToolError covered | ref-gone | not-visible | not-enabled | timeout
 */
export function pointerSequence(
  el: ElementSteps,
  input: PointerInput,
  options: PointerOptions,
  clock: Clock = realClock,
): Promise<ActionPoint> {
  const what = options.what;
  // Where the pointer arrived and found the element covered, and that failure.
  let arrived: { point: ActionPoint; covered: Covered } | undefined;
  return untilActionable(el, {
    enabled: options.enabled ?? false,
    deadline: options.deadline,
    signal: options.signal,
    ...(options.failFastMs !== undefined ? { failFastMs: options.failFastMs } : {}),
    ...(options.start ? { start: options.start } : {}),
    // Each probed point is hit tested before the pointer moves there.
    hitsFirst: true,
  }, async (point, fromStart) => {
    if (arrived && movedAway(arrived.point, point)) return { ...arrived.covered, final: true };
    if (!fromStart) {
      // Never move onto a cover: the cover would get the hover.
      const covered = await coveredAt(el, point, { stage: "before" });
      if (covered) return covered;
    }
    await input.move(point.x, point.y);
    el.arrived = true;
    if (!options.press) return undefined;
    // The pointer's arrival can move or cover the element (hover effects): check again, with
    // the pointer there, before pressing; a pass arms the press guard, which stops the press's
    // events if the page still puts something else under the pointer before they arrive.
    const covered = await coveredAt(el, point, {
      stage: "arrived",
      arm: true,
      ...(what ? { what } : {}),
    });
    if (covered) {
      arrived = { point, covered };
      return covered;
    }
    let outcome: PressOutcome | undefined;
    try {
      await input.click(point.x, point.y, options.press);
    } finally {
      const button = options.press.button ?? "left";
      const expect = button === "left" ? "click" : button === "right" ? "contextmenu" : "auxclick";
      outcome = await el.pressVerdict(expect).catch(() => undefined);
    }
    // The page saw none of the press: final (the page is changing under the pointer).
    if (outcome?.error) return { stage: "arrived", error: outcome.error, final: true };
    if (outcome?.warnings) options.warnings?.push(...outcome.warnings);
    return undefined;
  }, clock);
}

/** Whether the element's action point moved by a pixel or more. */
function movedAway(a: ActionPoint, b: ActionPoint): boolean {
  return Math.abs(a.x - b.x) >= 1 || Math.abs(a.y - b.y) >= 1;
}

/**
 * Points at an element and, with `press`, clicks it: the pointer sequence
 * (probe, scroll into view, stable, hit test, move, hit test at the pointer,
 * press), retried from the probe while the element is covered. CDP:
 * `Input.dispatchMouseEvent` (the tab's mouse), `Runtime.callFunctionOn`.
 *
 * @returns the point the pointer went to (top-level viewport and frame px).
 * @throws ToolError covered (names the cover; nothing was pressed) |
 *   ref-gone | not-visible | not-enabled | timeout; `options.signal`'s reason when it aborted
 */
export function pointerAction(
  page: Page,
  handle: RemoteHandle,
  options: PointerOptions,
): Promise<ActionPoint> {
  const { mouse } = inputOf(page);
  // The events take the call's signal: a cancelled call sends no more input (a pressed button
  // is still released).
  const signal = options.signal;
  return pointerSequence(elementSteps(page, handle, signal), {
    move: (x, y) => mouse.move(x, y, { signal }),
    click: (x, y, press) =>
      inputTaken(mouse.click(x, y, {
        button: press.button ?? "left",
        clickCount: press.clickCount ?? 1,
        modifiers: press.modifiers ?? [],
        move: false,
        signal,
      })),
  }, options);
}
