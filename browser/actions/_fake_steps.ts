/**
 * Test helper (no production code imports it): a fake element, pointer and
 * clock for the actionability and pointer unit tests. Time is virtual: only
 * `sleep` advances it, so schedules are checked exactly and nothing waits.
 *
 * @module
 */
import type { Clock, ElementSteps, Hit, Point, PressOutcome, Probe } from "./actionability.ts";
import type { Box, FrameMap } from "../injected/page_types.ts";
import type { ToolError } from "../tool_error.ts";
import type { PointerInput, Press } from "./pointer.ts";

/** A virtual clock: `now` starts at 0 and moves only by `sleep`. */
export class FakeClock implements Clock {
  t = 0;
  /** Every sleep asked, ms, in order. */
  sleeps: number[] = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.t += ms;
    return Promise.resolve();
  }
}

/** How the fake page behaves; every function gets the virtual time. */
export interface FakePage {
  /** The probe's answer. @default ok with `box` */
  probe?: (t: number) => Probe["state"] | Probe;
  /** The element's box. @default 10,20 100x40 */
  box?: (t: number) => Box;
  /** Whether the box moved during `stableBox`. @default stable */
  stable?: (t: number) => boolean;
  /** What covers the point (undefined: nothing); `pointerThere` once the mouse is at it. */
  cover?: (t: number, pointerThere: boolean) => string | undefined;
  /** The frame's offset in the top-level viewport. @default 0,0 */
  offset?: Point;
  /** The ancestor that clips the point, and how (wins over `cover`). */
  clip?: { clippedBy: string; how: string };
  /** The error of a press guard that stopped the press (undefined: the press went through). */
  stopPress?: (t: number) => ToolError | undefined;
}

/**
 * A fake element and pointer sharing one log of steps ("probe", "scroll",
 * "stable", "offset", "hit", "move", "click") and the clicks made.
 */
export class FakeElement implements ElementSteps, PointerInput {
  log: string[] = [];
  clicks: Array<{ x: number; y: number; press: Press }> = [];
  /** Whether each hit test asked to arm the press guard, in order. */
  arms: boolean[] = [];
  /** The one-call attempt ({@link ElementSteps.ready}); unset: the loop takes the steps one by one. */
  ready?: ElementSteps["ready"];
  /** The hover that shows a hidden element ({@link ElementSteps.revealByHover}); unset: none. */
  revealByHover?: (() => Promise<string | undefined>) | undefined;
  #pointer: Point | undefined;
  #clock: FakeClock;
  #page: FakePage;

  constructor(clock: FakeClock, page: FakePage = {}) {
    this.#clock = clock;
    this.#page = page;
  }

  #box(): Box {
    return this.#page.box?.(this.#clock.t) ?? { x: 10, y: 20, width: 100, height: 40 };
  }

  probe(_checks: { enabled: boolean; editable: boolean }): Promise<Probe> {
    this.log.push("probe");
    const p = this.#page.probe?.(this.#clock.t) ?? "ok";
    if (typeof p !== "string") return Promise.resolve(p);
    return Promise.resolve(p === "ok" ? { state: "ok", box: this.#box() } : { state: p });
  }

  scrollIntoView(): Promise<void> {
    this.log.push("scroll");
    return Promise.resolve();
  }

  stableBox(): Promise<{ stable: boolean; box: Box }> {
    this.log.push("stable");
    return Promise.resolve({
      stable: this.#page.stable?.(this.#clock.t) ?? true,
      box: this.#box(),
    });
  }

  hitTest(frameX: number, frameY: number, arm?: boolean): Promise<Hit> {
    this.log.push("hit");
    this.arms.push(arm ?? false);
    const off = this.#page.offset ?? { x: 0, y: 0 };
    const there = this.#pointer?.x === frameX + off.x && this.#pointer?.y === frameY + off.y;
    if (this.#page.clip) return Promise.resolve(this.#page.clip);
    const cover = this.#page.cover?.(this.#clock.t, there);
    return Promise.resolve(cover ? { coveredBy: cover } : "ok");
  }

  frameOffset(): Promise<FrameMap> {
    this.log.push("offset");
    return Promise.resolve({ ...(this.#page.offset ?? { x: 0, y: 0 }), scaleX: 1, scaleY: 1 });
  }

  pressVerdict(): Promise<PressOutcome> {
    this.log.push("verdict");
    return Promise.resolve({ error: this.#page.stopPress?.(this.#clock.t) });
  }

  move(x: number, y: number): Promise<void> {
    this.log.push("move");
    this.#pointer = { x, y };
    return Promise.resolve();
  }

  click(x: number, y: number, press: Press): Promise<void> {
    this.log.push("click");
    // The real pointer presses where it is: a click elsewhere would need a move first.
    if (this.#pointer?.x !== x || this.#pointer?.y !== y) throw new Error("click without move");
    this.clicks.push({ x, y, press });
    return Promise.resolve();
  }
}
