/**
 * A drag from one point or element to another, as a person makes it: the pointer pressed on
 * the source (after the same actionability checks and hit test as a click), moved in steps
 * to the destination, released there.
 *
 * HTML5 drag and drop (`draggable`, `dragstart`/`drop` handlers) does not follow mouse events
 * once it starts: the browser runs its own drag loop. So drag interception is on for the
 * drag (`Input.setInterceptDrags`): when the page starts a drag (a `dragstart` it did not
 * cancel, watched in the source's frame), the browser hands its data over
 * (`Input.dragIntercepted`) and the rest of the way is drag events at the pointer
 * (`Input.dispatchDragEvent` dragEnter, dragOver, then drop at the destination). When no
 * drag starts, the mouse moves do the work (pointer-based sortables, sliders, canvases).
 *
 * On an element destination the drop goes past its center in the direction of travel
 * (`drag_point.ts`), as a person drops an item onto another's place in a sortable list.
 *
 * Both ends must be in the viewport together: for an element source and destination, the
 * destination is revealed with the least scrolling of its scroll containers and the window
 * (`scrollIntoView` "nearest"; an actionability scroll centers, which can push the source out),
 * and the source is brought back into view if that hid it; when the two do not fit at once,
 * or the destination is a viewport point outside it (or an element and the source a point,
 * which a scroll would move), the drag fails before anything is pressed.
 * Element ends must share a frame: any one frame works, same-origin or cross-origin (out of
 * process: Chromium routes the top-level input and drag events); a drag from one frame into
 * another is refused (a page's drag code lives in one document).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import { ToolError } from "../tool_error.ts";
import { inputOf } from "./devices.ts";
import { type ActionPoint, coveredAt, type Point } from "./actionability.ts";
import { asDropError } from "./cover_error.ts";
import { elementSteps, waitActionable } from "./element_steps.ts";
import { pointerSequence } from "./pointer.ts";
import type { ResolvedTarget } from "./target.ts";
import { within } from "../poll.ts";
import { dragStarted, forgetDragStart, watchDragStart } from "./drag_watch.ts";
import { dropPointToward } from "./drag_point.ts";

/** How many mouse moves (or drag events) go from the source to the destination. */
export const DRAG_STEPS = 10;

/** The longest a clean-up step after the drag may take (a page stuck in a script), ms. */
const CLEANUP_MS = 2000;

/** How long a started HTML5 drag may take to hand its data over, ms. */
const INTERCEPT_WAIT_MS = 1000;

/** What a drag did, for the ActionResult (`drag`). */
export interface DragReport {
  /** Where the pointer was pressed, top-level viewport CSS px. */
  from: Point;
  /** Where it was released (or the drop went), top-level viewport CSS px. */
  to: Point;
  /** `html5`: the page started an HTML5 drag and got a drop; `pointer`: mouse events only. */
  via: "html5" | "pointer";
  /**
   * Set when the drag did nothing the page showed: no drop event (none fires on a destination
   * that did not accept the drag) and no change to the source frame's DOM during it. Not part
   * of the result's `drag` (the tool turns it into a warning).
   */
  quiet?: true;
}

/** Options of {@link dragBetween}. */
export interface DragOptions {
  /** Absolute deadline, epoch ms. */
  deadline: number;
  /** The call's signal: no more input once it aborts (a held button is released). */
  signal?: AbortSignal | undefined;
  /**
   * The source's point: for an element, its action point found actionable (hit test
   * included) just now; for coords, the point.
   */
  fromPoint: Point | ActionPoint;
}

/**
 * Drags from `from` to `to` (each an element or a viewport point). CDP: `Input.dispatchMouseEvent`,
 * `Input.setInterceptDrags`, `Input.dragIntercepted`, `Input.dispatchDragEvent`,
 * `Page.getLayoutMetrics`, `Runtime.callFunctionOn`.
 *
 * @throws ToolError invalid-argument (same element or point, ends in two frames, a button
 *   already held) | not-actionable (the ends do not fit in the viewport together) | the source's
 *   actionability errors (covered, not-visible, ref-gone, timeout)
 */
export async function dragBetween(
  page: Page,
  ends: { from: ResolvedTarget; to: ResolvedTarget },
  options: DragOptions,
): Promise<DragReport> {
  const { from, to } = ends;
  const { deadline, signal } = options;
  const { mouse } = inputOf(page);
  if (mouse.buttons !== 0) {
    throw new ToolError(
      "invalid-argument",
      "A mouse button is held (mouse down): a drag presses its own",
      'release it first with mouse({ action: "up", x, y })',
    );
  }
  await checkEnds(from, to);
  let fromPoint: Point | ActionPoint = options.fromPoint;
  const view = await viewportOf(page, signal);
  let toPoint: Point;
  try {
    // An element's center, found actionable: the drop goes past it (`dropPointToward`).
    let center: ActionPoint | undefined;
    if (to.kind === "coords") toPoint = { x: to.x, y: to.y };
    else if (from.kind !== "element") {
      // A point source is not scrolled away from: the destination is hit-tested where it is.
      toPoint = center = await dropPointNow(page, to, { view, ends, signal });
    } else {
      // Reveal the destination with the least scrolling (its containers', the window's), so
      // the source likely stays in view (an actionability scroll centers, which can push it
      // out); then hit-test it as a click's target is, scrolled clear of a sticky header or
      // fixed banner over it (a drop there would land on the banner: nothing dropped).
      const before = await scrollNearest(to.handle, signal);
      const at = await waitActionable(page, to.handle, { hitTest: true, deadline, signal });
      toPoint = center = at;
      // Either scroll may have moved the source out of view or under a cover: checked again,
      // and the destination again where that left it (no more scrolling: it could go on).
      // In a subframe the frames above may have scrolled unseen: checked always.
      const inMain = to.handle.frameId === page.mainFrameId;
      if (!inMain || before === null || before.x !== at.frameX || before.y !== at.frameY) {
        fromPoint = await waitActionable(page, from.handle, { hitTest: true, deadline, signal });
        toPoint = center = await dropPointNow(page, to, { view, ends, signal });
      }
    }
    if (center && to.kind === "element") {
      toPoint = await dropPointToward(page, to.handle, { center, from: fromPoint }, signal);
    }
  } catch (e) {
    throw asDropError(e, DROP_INSTEAD);
  }
  // A viewport point is not scrolled under (it would then name other content).
  if (!inside(toPoint, view)) throw outOfView(toPoint, view, ends);
  const frameId = from.kind === "element" ? from.handle.frameId : page.mainFrameId;
  const session = page.session;
  let data: Protocol.Input.DragData | undefined;
  let handed: ((d: Protocol.Input.DragData) => void) | undefined;
  const off = session.on("Input.dragIntercepted", (e) => {
    data ??= e.data;
    handed?.(e.data);
  });
  let dropped = false, watching = true;
  try {
    await session.send("Input.setInterceptDrags", { enabled: true }, { signal });
    await page.call(watchDragStart, [], { frameId, signal });
    // Press on the source: for an element, the pointer sequence (hit test with the pointer
    // there, the press guard) with a press that only goes down.
    if (from.kind === "element") {
      fromPoint = await pointerSequence(elementSteps(page, from.handle, signal), {
        move: (x, y) => mouse.move(x, y, { signal }),
        click: () => mouse.down({ button: "left", signal }),
      }, {
        press: {},
        deadline,
        signal,
        ...(isActionPoint(fromPoint) ? { start: fromPoint } : {}),
        what: "the drag source",
      });
    } else {
      await mouse.move(fromPoint.x, fromPoint.y, { signal });
      await mouse.down({ button: "left", signal });
    }
    const modifiers = () => mouse.keyboard.modifiers();
    const dragEvent = (type: "dragEnter" | "dragOver" | "drop", p: Point) =>
      session.send("Input.dispatchDragEvent", {
        type,
        x: p.x,
        y: p.y,
        data: data!,
        modifiers: modifiers(),
      }, { signal });
    let dragging = false;
    for (let i = 1; i <= DRAG_STEPS; i++) {
      const p = i === DRAG_STEPS ? toPoint : {
        x: fromPoint.x + (toPoint.x - fromPoint.x) * (i / DRAG_STEPS),
        y: fromPoint.y + (toPoint.y - fromPoint.y) * (i / DRAG_STEPS),
      };
      if (dragging) {
        await dragEvent("dragOver", p);
        continue;
      }
      await mouse.move(p.x, p.y, { signal });
      // (Chromium delivers mouse moves aligned to frames: a library that reads the pointer in
      // requestAnimationFrame sees each step; tests/drag_test.ts has one.)
      if (data === undefined && !(await page.call<boolean>(dragStarted, [], { frameId, signal }))) {
        continue;
      }
      // The page started an HTML5 drag: its data comes with Input.dragIntercepted.
      if (data === undefined) {
        const wait = Math.min(INTERCEPT_WAIT_MS, deadline - Date.now());
        await within(new Promise<void>((r) => handed = () => r()), wait, signal);
      }
      if (data === undefined) continue;
      dragging = true;
      await dragEvent("dragEnter", p);
      await dragEvent("dragOver", p);
    }
    if (dragging) {
      await dragEvent("drop", toPoint);
      dropped = true;
      mouse.forgetButton("left");
    } else await mouse.up({ button: "left", signal });
    watching = false;
    const quiet = await page.call<boolean>(forgetDragStart, [], {
      frameId,
      signal,
      timeoutMs: CLEANUP_MS,
    }).catch(() => false);
    return {
      from: round(fromPoint),
      to: round(toPoint),
      via: dragging ? "html5" : "pointer",
      ...(quiet ? { quiet } : {}),
    };
  } finally {
    off();
    if (data !== undefined && !dropped) {
      // Never leave the page inside a drag: cancel it (its dragend fires).
      await session.send("Input.dispatchDragEvent", {
        type: "dragCancel",
        x: mouse.position.x,
        y: mouse.position.y,
        data: { items: [], dragOperationsMask: 0xffff },
      }, { timeoutMs: CLEANUP_MS }).catch(() => {});
      mouse.forgetButton("left");
    } else if (mouse.buttons & 1) await mouse.up({ button: "left" }).catch(() => {});
    // A page stuck in a script must not hold the result: these are bounded.
    await session.send("Input.setInterceptDrags", { enabled: false }, { timeoutMs: CLEANUP_MS })
      .catch(() => {});
    if (watching) {
      await page.call(forgetDragStart, [], { frameId, timeoutMs: CLEANUP_MS }).catch(() => {});
    }
  }
}

/** What to do instead of a drop on a covered destination (a click's way is by focus). */
const DROP_INSTEAD = "drag to viewport coords { x, y } where the destination shows";

/**
 * The destination's center now, hit-tested there (no scrolling), top-level viewport CSS px.
 * CDP: `Runtime.callFunctionOn` (and the frame chain's calls in a subframe).
 * @throws ToolError not-actionable (outside the viewport, clipped, inert) | covered | ref-gone
 */
async function dropPointNow(
  page: Page,
  end: ResolvedTarget & { kind: "element" },
  at: {
    view: { width: number; height: number };
    ends: { from: ResolvedTarget; to: ResolvedTarget };
    signal: AbortSignal | undefined;
  },
): Promise<ActionPoint> {
  const { signal } = at;
  const el = elementSteps(page, end.handle, signal);
  const { box } = await el.stableBox();
  const off = await el.frameOffset();
  const frameX = box.x + box.width / 2, frameY = box.y + box.height / 2;
  const point = { x: off.x + frameX * off.scaleX, y: off.y + frameY * off.scaleY, frameX, frameY };
  if (!inside(point, at.view)) throw outOfView(point, at.view, at.ends);
  const covered = await coveredAt(el, point, { stage: "before" });
  if (covered) throw covered.error;
  return point;
}

/** The layout viewport's size, CSS px. CDP: `Page.getLayoutMetrics`. */
export async function viewportOf(
  page: Page,
  signal?: AbortSignal,
): Promise<{ width: number; height: number }> {
  const { cssLayoutViewport: vp } = await page.session.send("Page.getLayoutMetrics", undefined, {
    signal,
  });
  return { width: vp.clientWidth, height: vp.clientHeight };
}

/** Whether a point is inside the viewport. */
export function inside(p: Point, view: { width: number; height: number }): boolean {
  return p.x >= 0 && p.y >= 0 && p.x < view.width && p.y < view.height;
}

/** The destination cannot be reached with the source in view: what to do, by the ends' kinds. */
function outOfView(
  p: Point,
  view: { width: number; height: number },
  ends: { from: ResolvedTarget; to: ResolvedTarget },
): ToolError {
  const where = `(${Math.round(p.x)}, ${Math.round(p.y)})`;
  const both = ends.from.kind === "element" && ends.to.kind === "element";
  return new ToolError(
    "not-actionable",
    `The drag's destination ${where} is outside the viewport (${view.width}x${view.height} CSS px)${
      both ? " with the source in view" : ""
    }`,
    both
      ? "make the viewport larger (set_viewport), or drag in steps: mouse down, move, scroll, up"
      : ends.to.kind === "coords"
      ? "give coords inside the viewport, or a ref/selector for the destination"
      : "give from as a ref/selector too (the page then scrolls to show both), or scroll first",
  );
}

/**
 * Scrolls an element into view with the least movement of every scroller above it (a no-op
 * when it shows). CDP: `Runtime.callFunctionOn`.
 *
 * @returns the element's center before the scroll, its frame's CSS px (null when unknown).
 */
async function scrollNearest(
  handle: { session: Page["session"]; objectId: string },
  signal: AbortSignal | undefined,
): Promise<Point | null> {
  const r = await handle.session.send("Runtime.callFunctionOn", {
    objectId: handle.objectId,
    functionDeclaration: `function () {
      const r = this.getBoundingClientRect();
      this.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }`,
    returnByValue: true,
  }, { signal });
  const v = r.result.value as Point | undefined;
  return v && typeof v.x === "number" ? v : null;
}

/** Refuses ends a drag cannot join: the same element or point, or elements in two frames. */
async function checkEnds(from: ResolvedTarget, to: ResolvedTarget): Promise<void> {
  if (from.kind === "coords" && to.kind === "coords" && from.x === to.x && from.y === to.y) {
    throw new ToolError(
      "invalid-argument",
      "from and to are the same point: nothing to drag",
      "give a destination elsewhere",
    );
  }
  if (from.kind !== "element" || to.kind !== "element") return;
  if (from.handle.frameId !== to.handle.frameId) {
    throw new ToolError(
      "invalid-argument",
      "from and to are in different frames: drag works within one frame (a page's drag code lives in one document)",
      "drag between elements of the same frame, or give to as viewport coords { x, y }",
    );
  }
  const same = await from.handle.session.send("Runtime.callFunctionOn", {
    objectId: from.handle.objectId,
    functionDeclaration: "function (other) { return this === other; }",
    arguments: [{ objectId: to.handle.objectId }],
    returnByValue: true,
  });
  if (same.result.value === true) {
    throw new ToolError(
      "invalid-argument",
      "from and to are the same element: nothing to drag",
      "give the destination element (or coords), not the source again",
    );
  }
}

function isActionPoint(p: Point | ActionPoint): p is ActionPoint {
  return "frameX" in p;
}

function round(p: Point): Point {
  return { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 };
}
