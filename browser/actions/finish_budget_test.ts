import { assertEquals, assertRejects } from "../../tests/_assert.ts";
import { FinishBudget, untilDeadline } from "./finish_budget.ts";
import type { ToolError } from "../tool_error.ts";

/** Work that answers `value` after `ms`, or rejects when its signal aborts. */
function work<T>(ms: number, value: T) {
  return (signal: AbortSignal) =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => resolve(value), ms);
      signal.addEventListener("abort", () => {
        clearTimeout(t);
        reject(signal.reason);
      });
    });
}

Deno.test("FinishBudget: steps in time answer; one past the deadline is skipped and named", async () => {
  const b = new FinishBudget(Date.now() + 150, undefined);
  assertEquals(await b.step("quick", work(5, "done"), "fallback"), "done");
  assertEquals(await b.step("the snapshot", work(10_000, "late"), "fallback"), "fallback");
  assertEquals(await b.step("the probe", work(1, "late"), "fallback"), "fallback");
  assertEquals(b.skipped, ["the snapshot", "the probe"]);
});

Deno.test("FinishBudget: a step's own cap is no cut", async () => {
  const b = new FinishBudget(Date.now() + 5000, undefined);
  assertEquals(await b.step("a frame", work(10_000, true), false, { capMs: 20 }), false);
  assertEquals(b.skipped, []);
});

Deno.test("FinishBudget: the call's abort throws its reason; work errors pass through", async () => {
  const call = new AbortController();
  const b = new FinishBudget(Date.now() + 5000, call.signal);
  const boom = await assertRejects(
    () => b.step("x", () => Promise.reject(new Error("boom")), 0),
    Error,
  );
  assertEquals(boom.message, "boom");
  const pending = b.step("x", work(10_000, 1), 0);
  call.abort(new Error("cancelled"));
  assertEquals((await assertRejects(() => pending, Error)).message, "cancelled");
  assertEquals(b.skipped, []);
});

Deno.test("untilDeadline: a timeout ToolError at the deadline; the call's reason before", async () => {
  {
    using early = untilDeadline(Date.now() + 20, "click", undefined);
    await new Promise<void>((r) => early.signal.addEventListener("abort", () => r()));
    assertEquals(early.expired(), true);
    assertEquals((early.signal.reason as ToolError).code, "timeout");
  }
  const call = new AbortController();
  using early = untilDeadline(Date.now() + 60_000, "click", call.signal);
  call.abort(new Error("cancelled"));
  assertEquals([early.expired(), (early.signal.reason as Error).message], [false, "cancelled"]);
});
