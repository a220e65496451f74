import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../../tests/_assert.ts";
import { ToolError } from "../tool_error.ts";
import { FakeClock, FakeElement, type FakePage } from "./_fake_steps.ts";
import {
  coveredAt,
  type ElementSteps,
  hoverChange,
  type LoopOptions,
  SCHEDULE,
  untilActionable,
} from "./actionability.ts";

function setup(page: FakePage = {}) {
  const clock = new FakeClock();
  const el = new FakeElement(clock, page);
  const run = (options: Partial<LoopOptions> = {}, hitTest = false) =>
    untilActionable(
      el,
      { deadline: 10_000, ...options },
      hitTest ? (p) => coveredAt(el, p, { stage: "before" }) : undefined,
      clock,
    );
  return { clock, el, run };
}

async function failsWith(p: Promise<unknown>, code: string): Promise<ToolError> {
  const e = await assertRejects(() => p, ToolError);
  assertEquals(e.code, code);
  return e;
}

Deno.test("actionability: an actionable element answers at once with its center", async () => {
  const { el, clock, run } = setup();
  assertEquals(await run(), { x: 60, y: 40, frameX: 60, frameY: 40 });
  assertEquals(el.log, ["probe", "scroll", "stable", "offset"]);
  assertEquals(clock.sleeps, []);
});

Deno.test("actionability: waits follow the schedule, its last wait repeating", async () => {
  const { clock, run } = setup({ probe: (t) => t < 1200 ? "disabled" : "ok" });
  await run({ enabled: true });
  const last = SCHEDULE[SCHEDULE.length - 1]!;
  assertEquals(clock.sleeps, [...SCHEDULE.slice(1), last]);
});

Deno.test("actionability: hidden and disabled give up at the fail-fast budget", async () => {
  for (const [state, code] of [["notvisible", "not-visible"], ["disabled", "not-enabled"]]) {
    const { clock, run } = setup({ probe: () => state as "notvisible" });
    await failsWith(run({ enabled: true }), code!);
    assertTrue(clock.t >= 2000 && clock.t < 2500, `${state}: gave up at ${clock.t}`);
  }
  const { clock, run } = setup({ probe: () => "notvisible" });
  await failsWith(run({ failFastMs: 300 }), "not-visible");
  assertTrue(clock.t >= 300 && clock.t < 600, `gave up at ${clock.t}`);
});

Deno.test("actionability: a non-text or read-only field and an aria-disabled one fail at once", async () => {
  const notText = setup({
    probe: () => ({ state: "noteditable", detail: "a button is not a text field" }),
  });
  const e = await failsWith(notText.run({ editable: true }), "not-editable");
  assertIncludes(e.message, "a button is not a text field");
  assertEquals(notText.clock.sleeps, []);
  const readOnly = setup({
    probe: (t) => t < 100 ? { state: "noteditable", detail: "it is read-only" } : "ok",
  });
  const ro = await failsWith(readOnly.run({ editable: true }), "not-editable");
  assertIncludes(ro.hint, "calendar or picker button");
  assertEquals(readOnly.clock.sleeps, []);
  const aria = setup({ probe: () => ({ state: "disabled", detail: "aria-disabled" }) });
  const ad = await failsWith(aria.run({ enabled: true }), "not-enabled");
  assertIncludes(ad.message, 'aria-disabled="true"');
  assertEquals(aria.clock.sleeps, []);
});

Deno.test("actionability: a moving element is waited for until the deadline, then times out", async () => {
  const settles = setup({ stable: (t) => t >= 5000 });
  await settles.run();
  assertTrue(settles.clock.t >= 5000, "waited past the fail-fast budget for an animation");
  const moving = setup({ stable: () => false });
  await failsWith(moving.run({ deadline: 4000 }), "timeout");
  assertTrue(moving.clock.t >= 4000 && moving.clock.t < 4500, `gave up at ${moving.clock.t}`);
});

Deno.test("actionability: a detached element fails ref-gone at once", async () => {
  const { clock, run } = setup({ probe: () => "notconnected" });
  await failsWith(run(), "ref-gone");
  assertEquals(clock.sleeps, []);
});

Deno.test("actionability: with hitTest, a covered element fails covered naming the cover", async () => {
  const { el, clock, run } = setup({ cover: () => "div#overlay.modal-backdrop" });
  const e = await failsWith(run({}, true), "covered");
  assertEquals(
    e.message,
    "The element is covered by div#overlay.modal-backdrop, which would receive the click",
  );
  assertEquals(e.details, { coveredBy: "div#overlay.modal-backdrop" });
  assertTrue(clock.t >= 2000 && clock.t < 2500, `gave up at ${clock.t}`);
  assertEquals(el.log.includes("move"), false);
});

Deno.test("actionability: a clipped element fails not-actionable 'clipped by', never 'covered'", async () => {
  for (const how of ["overflow: hidden", "clip-path", "zero-size"]) {
    const { el, run } = setup({ clip: { clippedBy: "div#box", how }, cover: () => "div#other" });
    const e = await failsWith(run({}, true), "not-actionable");
    assertIncludes(e.message, "The element is clipped by div#box: ");
    assertIncludes(e.message, how === "zero-size" ? "no visible area" : how);
    assertEquals(e.details, { clippedBy: "div#box", clip: how });
    assertEquals(el.log.includes("move"), false);
  }
});

Deno.test("actionability: a subframe's point adds the frame offset to the viewport point only", async () => {
  const { run } = setup({ offset: { x: 8, y: 150 } });
  assertEquals(await run(), { x: 68, y: 190, frameX: 60, frameY: 40 });
});

Deno.test("actionability: steps with ready() take one page call per attempt, with the same outcome", async () => {
  const { el, clock, run } = setup({ probe: (t) => t < 100 ? "disabled" : "ok" });
  // The page's one call: what probe, scroll and stableBox say, in that order.
  const calls: string[] = [];
  el.ready = async (checks) => {
    calls.push("ready");
    const probe = await el.probe(checks);
    if (probe.state !== "ok") return probe;
    await el.scrollIntoView();
    return { state: "ok", ...(await el.stableBox()) };
  };
  assertEquals(await run({ enabled: true }), { x: 60, y: 40, frameX: 60, frameY: 40 });
  assertEquals(calls.length, clock.sleeps.length + 1);
  assertEquals(el.log.slice(-4), ["probe", "scroll", "stable", "offset"]);
  el.ready = () => Promise.resolve({ state: "notconnected" });
  await failsWith(run(), "ref-gone");
});

Deno.test("hoverChange: a row the hover changed around its item, not one renumbered", () => {
  const shownIn = (text: string, elsewhere: string[] = []) =>
    ({
      arrived: true,
      shown: {
        ref: "e5",
        role: "button",
        name: "Cancel",
        context: ["list item", text],
        elsewhere: ([, t]: [string, string]) => elsewhere.includes(t),
      },
    }) as unknown as ElementSteps;
  const now = (text: string, role = "button", kind = "list item") => ({
    role,
    name: "Cancel",
    context: [kind, text] as [string, string],
  });
  const el = shownIn("Order 1001 2 days ago", ["Order 1002 2 days ago"]);
  assertEquals(hoverChange(el, now("Order 1001 Edit")), true);
  assertEquals(hoverChange(el, now("Order 1001 Nov 30, 2026 14:03")), true);
  // Re-used for an order no row showed (a re-render on pointermove), or one another row showed.
  assertEquals(hoverChange(el, now("Order 1011 2 days ago")), false);
  assertEquals(hoverChange(el, now("Order 1002 2 days ago")), false);
  // Another role or another kind of place is another thing.
  assertEquals(hoverChange(el, now("Order 1001 Edit", "link")), false);
  assertEquals(hoverChange(el, now("Order 1001 Edit", "button", "row")), false);
  // Before the pointer arrived, no change is the hover's.
  assertEquals(hoverChange({ ...el, arrived: false }, now("Order 1001 Edit")), false);
});

Deno.test("actionability: a hidden element is revealed by hover once, and the point says so", async () => {
  // Shown once the pointer rests on its row (the fake's revealByHover), at once.
  let hovered = false;
  const { el, clock, run } = setup({ probe: () => hovered ? "ok" : "notvisible" });
  let asked = 0;
  el.revealByHover = () => {
    asked++;
    hovered = true;
    return Promise.resolve('listitem "Walk dog"');
  };
  const point = await run({ revealByHover: true });
  assertEquals(point.hoveredFirst, 'listitem "Walk dog"');
  assertEquals([asked, clock.t], [1, 20]);
  // Not asked for (a fill, a read): never hovered, the hidden budget as before.
  hovered = false;
  const off = setup({ probe: () => "notvisible" });
  off.el.revealByHover = el.revealByHover;
  await failsWith(off.run({ failFastMs: 300 }), "not-visible");
  assertEquals(asked, 1);
  // Nothing to hover (hidden for another reason): tried once, then the not-visible error.
  const other = setup({ probe: () => "notvisible" });
  let tries = 0;
  other.el.revealByHover = () => Promise.resolve(void tries++);
  await failsWith(other.run({ revealByHover: true, failFastMs: 300 }), "not-visible");
  assertEquals(tries, 1);
});
