import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../../tests/_assert.ts";
import { ToolError } from "../tool_error.ts";
import { FakeClock, FakeElement, type FakePage } from "./_fake_steps.ts";
import { type PointerOptions, pointerSequence } from "./pointer.ts";

const PRESS = { press: { button: "left" as const, clickCount: 1 } };

function setup(page: FakePage = {}) {
  const clock = new FakeClock();
  const el = new FakeElement(clock, page);
  const run = (options: Partial<PointerOptions> = {}) =>
    pointerSequence(el, el, { deadline: 10_000, enabled: true, ...options }, clock);
  return { clock, el, run };
}

async function coveredError(p: Promise<unknown>): Promise<ToolError> {
  const e = await assertRejects(() => p, ToolError);
  assertEquals(e.code, "covered");
  return e;
}

Deno.test("pointer: probe, scroll, stable, hit test, move, hit test at the pointer, press", async () => {
  const { el, clock, run } = setup();
  const point = await run(PRESS);
  assertEquals(el.log, [
    "probe",
    "scroll",
    "stable",
    "offset",
    "hit",
    "move",
    "hit",
    "click",
    "verdict",
  ]);
  // Only the hit test right before the press arms the press guard.
  assertEquals(el.arms, [false, true]);
  assertEquals(el.clicks, [{ x: 60, y: 40, press: PRESS.press }]);
  assertEquals(point, { x: 60, y: 40, frameX: 60, frameY: 40 });
  assertEquals(clock.sleeps, []);
});

Deno.test("pointer: a subframe's element is pressed at its top-level point", async () => {
  const { el, run } = setup({ offset: { x: 5, y: 300 } });
  const point = await run(PRESS);
  assertEquals(point, { x: 65, y: 340, frameX: 60, frameY: 40 });
  assertEquals(el.clicks.map((c) => [c.x, c.y]), [[65, 340]]);
});

Deno.test("pointer: retried on the schedule while covered, pressed once the cover goes", async () => {
  const { el, clock, run } = setup({
    cover: (t) => t < 300 ? "div#overlay.modal-backdrop" : undefined,
  });
  await run(PRESS);
  assertEquals(clock.sleeps, [20, 50, 100, 100, 250]);
  // Every attempt re-probes; the pointer never moved onto the cover.
  assertEquals(el.log.filter((s) => s === "probe").length, 6);
  assertEquals(el.log.filter((s) => s === "move").length, 1);
  assertEquals(el.log.slice(-4), ["move", "hit", "click", "verdict"]);
  assertEquals(el.clicks.length, 1);
});

Deno.test("pointer: a cover that stays fails fast with the covered error naming it, never pressed", async () => {
  const { el, clock, run } = setup({ cover: () => "div#overlay.modal-backdrop" });
  const e = await coveredError(run(PRESS));
  assertIncludes(e.message, "covered by div#overlay.modal-backdrop");
  assertEquals(e.details, { coveredBy: "div#overlay.modal-backdrop" });
  assertEquals(el.clicks, []);
  assertEquals(el.log.includes("move"), false);
  // Gave up at the 2 s fail-fast budget (virtual time), not before.
  assertTrue(clock.t >= 2000 && clock.t < 2500, `gave up at ${clock.t}`);
});

Deno.test("pointer: a deadline sooner than the fail-fast budget ends the retries", async () => {
  const { el, clock, run } = setup({ cover: () => "div#cover" });
  await coveredError(run({ ...PRESS, deadline: 150 }));
  assertTrue(clock.t >= 150 && clock.t < 300, `gave up at ${clock.t}`);
  assertEquals(el.clicks, []);
});

Deno.test("pointer: covered when the pointer arrives: no press, the arrival is what is reported", async () => {
  // A hover effect: the element is free until the pointer is on it.
  const { el, run } = setup({ cover: (_t, there) => there ? "menu div#flyout" : undefined });
  const e = await coveredError(run({ ...PRESS, what: "the submit control" }));
  assertIncludes(e.message, "Did not click the submit control: when the pointer arrived");
  assertIncludes(e.message, "div#flyout");
  assertEquals(el.clicks, []);
  assertEquals(el.log.slice(0, 8), [
    "probe",
    "scroll",
    "stable",
    "offset",
    "hit",
    "move",
    "hit",
    "probe",
  ]);
});

Deno.test("pointer: a cover raised by the arrival that then goes lets the retry press", async () => {
  const { el, clock, run } = setup({
    cover: (t, there) => there && t < 100 ? "div#tooltip" : undefined,
  });
  await run(PRESS);
  assertEquals(el.clicks.length, 1);
  assertTrue(clock.sleeps.length >= 1);
});

Deno.test("pointer: with a start point, the first attempt moves at once", async () => {
  const { el, run } = setup();
  const start = { x: 7, y: 8, frameX: 7, frameY: 8 };
  assertEquals(await run({ ...PRESS, start }), start);
  assertEquals(el.log, ["move", "hit", "click", "verdict"]);
  assertEquals(el.clicks.map((c) => [c.x, c.y]), [[7, 8]]);
});

Deno.test("pointer: a press the guard stopped fails with the guard's error at once, not retried", async () => {
  const stopped = new ToolError("ref-gone", "Did not click: the element was replaced", "snapshot");
  const { el, clock, run } = setup({ stopPress: () => stopped });
  const e = await assertRejects(() => run(PRESS), ToolError);
  assertEquals(e, stopped);
  assertEquals(el.clicks.length, 1);
  assertEquals(el.log.filter((s) => s === "probe").length, 1);
  assertEquals(clock.sleeps, []);
});

Deno.test("pointer: a hover arms no press guard and reads no verdict", async () => {
  const { el, run } = setup();
  await run({});
  assertEquals(el.log, ["probe", "scroll", "stable", "offset", "hit", "move"]);
  assertEquals(el.arms, [false]);
});

Deno.test("pointer: an element the pointer's arrival moved is not chased: covered at once", async () => {
  // Like a button that swaps places with its neighbour on mouseenter.
  const { el, clock, run } = setup({
    cover: (t) => t === 0 ? 'button#bravo "Bravo"' : undefined,
    box: (t) =>
      t === 0 ? { x: 0, y: 0, width: 14, height: 16 } : { x: 100, y: 200, width: 20, height: 20 },
  });
  const start = { x: 7, y: 8, frameX: 7, frameY: 8 };
  const e = await coveredError(run({ ...PRESS, start }));
  assertIncludes(e.message, 'Did not click: when the pointer arrived, button#bravo "Bravo"');
  assertEquals(el.clicks, []);
  assertEquals(clock.sleeps, [20]);
});

Deno.test("pointer: an element that moved while covered (pointer not yet there) is pressed at its new center", async () => {
  const { el, run } = setup({
    cover: (t) => t < 50 ? "div#toast" : undefined,
    box: (t) =>
      t < 50 ? { x: 0, y: 0, width: 14, height: 16 } : { x: 100, y: 200, width: 20, height: 20 },
  });
  const point = await run(PRESS);
  assertEquals(point, { x: 110, y: 210, frameX: 110, frameY: 210 });
  assertEquals(el.clicks.map((c) => [c.x, c.y]), [[110, 210]]);
});

Deno.test("pointer: hover moves only, with no hit test after the move", async () => {
  const { el, run } = setup({ cover: (_t, there) => there ? "div#tooltip" : undefined });
  await run({ enabled: false });
  assertEquals(el.log, ["probe", "scroll", "stable", "offset", "hit", "move"]);
  assertEquals(el.clicks, []);
});

Deno.test("pointer: an element detached while covered fails ref-gone, never pressing elsewhere", async () => {
  const { el, run } = setup({
    cover: () => "div#overlay",
    probe: (t) => t < 100 ? "ok" : "notconnected",
  });
  const e = await assertRejects(() => run(PRESS), ToolError);
  assertEquals(e.code, "ref-gone");
  assertEquals(el.clicks, []);
});

Deno.test("pointer: an element hidden on retry fails not-visible at the budget", async () => {
  const { el, run } = setup({
    cover: () => "div#overlay",
    probe: (t) => t < 100 ? "ok" : "notvisible",
  });
  const e = await assertRejects(() => run(PRESS), ToolError);
  assertEquals(e.code, "not-visible");
  assertEquals(el.clicks, []);
});

Deno.test("pointer: the call's signal stops the retries with its reason, never pressed", async () => {
  const ac = new AbortController();
  const { el, clock, run } = setup({
    cover: (t) => {
      // The client cancels while the element is still covered.
      if (t >= 150) ac.abort(new Error("cancelled by the client"));
      return "div#overlay.modal-backdrop";
    },
  });
  const e = await assertRejects(() => run({ ...PRESS, signal: ac.signal }), Error);
  assertEquals(e.message, "cancelled by the client");
  assertEquals(el.clicks, []);
  // Stopped at the next step after the abort, well before the 2 s fail-fast budget.
  assertTrue(clock.t < 2000, `stopped at ${clock.t}`);
});
