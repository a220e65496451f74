import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { ToolError } from "../browser/tool_error.ts";
import { CallBudget } from "./call_budget.ts";

Deno.test("CallBudget: the client's cancel aborts the signal with a 'cancelled' ToolError", async () => {
  const client = new AbortController();
  const budget = new CallBudget("wait_for", 10_000, client.signal);
  try {
    const never = new Promise<never>(() => {});
    const raced = budget.race(never);
    client.abort("changed mind");
    const e = await assertRejects(() => raced, ToolError);
    assertEquals(e.code, "cancelled");
    assertIncludes(e.message, '"wait_for" was cancelled by the client');
    assertTrue(budget.signal.aborted);
    assertTrue(budget.signal.reason === e, "the handler sees the same reason");
  } finally {
    budget.dispose();
  }
});

Deno.test("CallBudget: an already-cancelled client signal aborts at once", async () => {
  const budget = new CallBudget("navigate", 1000, AbortSignal.abort("gone"));
  try {
    assertTrue(budget.signal.aborted);
    const e = await assertRejects(() => budget.race(Promise.resolve(1)), ToolError);
    assertEquals(e.code, "cancelled");
  } finally {
    budget.dispose();
  }
});

Deno.test("CallBudget: a spent budget aborts with 'timeout'; work that ends first wins", async () => {
  const fast = new CallBudget("click", 1000, undefined, 0);
  try {
    assertEquals(await fast.race(Promise.resolve("done")), "done");
    assertEquals(fast.signal.aborted, false);
  } finally {
    fast.dispose();
  }
  const slow = new CallBudget("click", 20, undefined, 0);
  try {
    const e = await assertRejects(() => slow.race(new Promise<never>(() => {})), ToolError);
    assertEquals(e.code, "timeout");
    assertIncludes(e.hint, "reload");
  } finally {
    slow.dispose();
  }
});

Deno.test("CallBudget: the clock stops while a human answers", async () => {
  const budget = new CallBudget("publish", 30, undefined, 0);
  try {
    // Longer than the whole budget, paused: the budget is not spent by it.
    const answer = await budget.pausedWhile(() =>
      new Promise<string>((r) => setTimeout(() => r("yes"), 80))
    );
    assertEquals(answer, "yes");
    assertEquals(budget.signal.aborted, false);
    // The rest of the budget still runs out after.
    const e = await assertRejects(() => budget.race(new Promise<never>(() => {})), ToolError);
    assertEquals(e.code, "timeout");
  } finally {
    budget.dispose();
  }
});

Deno.test("CallBudget: dispose lets go of the client's signal and the timer", () => {
  const client = new AbortController();
  const budget = new CallBudget("snapshot", 10_000, client.signal);
  budget.dispose();
  client.abort();
  assertEquals(budget.signal.aborted, false);
});

Deno.test("CallBudget: a call of calls has no clock of its own; the client's cancel still ends it", async () => {
  const client = new AbortController();
  const budget = new CallBudget("batch", 1, client.signal, Infinity);
  try {
    // Far past what a finite budget of 1 ms would allow.
    assertEquals(await budget.race(new Promise((r) => setTimeout(() => r("done"), 50))), "done");
    assertEquals([budget.signal.aborted, budget.spent], [false, false]);
    const raced = budget.race(new Promise<never>(() => {}));
    client.abort();
    const e = await assertRejects(() => raced, ToolError);
    assertEquals(e.code, "cancelled");
  } finally {
    budget.dispose();
  }
});

Deno.test("CallBudget: elapsedMs counts the call's time, not a human's answer", async () => {
  const realNow = Date.now;
  let now = 1_000_000;
  Date.now = () => now;
  const budget = new CallBudget("click", 5000, undefined, Infinity);
  try {
    now += 1200; // a browser start
    assertEquals(budget.elapsedMs, 1200);
    let gate!: () => void;
    const answered = budget.pausedWhile(() => new Promise<void>((r) => gate = r));
    now += 60_000; // the human thinks
    assertEquals(budget.elapsedMs, 1200, "paused: the clock stands");
    gate();
    await answered;
    now += 300;
    assertEquals(budget.elapsedMs, 1500);
  } finally {
    Date.now = realNow;
    budget.dispose();
  }
});
