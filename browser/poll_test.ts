import { assertEquals, assertRejects, assertTrue } from "../tests/_assert.ts";
import { pause, poll, within } from "./poll.ts";
import { ToolError } from "./tool_error.ts";

Deno.test("poll: resolves true once the check holds, checking at once first", async () => {
  let calls = 0;
  assertTrue(await poll(() => ++calls >= 3, { timeoutMs: 5000, intervalMs: 1 }));
  assertEquals(calls, 3);
  let first = 0;
  assertTrue(await poll(() => ++first === 1, { timeoutMs: 0 }));
});

Deno.test("poll: resolves false when the time is up, after a last check", async () => {
  let calls = 0;
  assertEquals(await poll(() => (calls++, false), { timeoutMs: 30, intervalMs: 5 }), false);
  assertTrue(calls >= 2, `checked ${calls} times`);
});

Deno.test("poll: an aborted signal ends the wait with its reason, between checks too", async () => {
  const before = AbortSignal.abort(new Error("cancelled before"));
  await assertRejects(() => poll(() => true, { timeoutMs: 1000, signal: before }), Error);
  const ac = new AbortController();
  let calls = 0;
  const waiting = poll(() => {
    if (++calls === 2) ac.abort(new Error("cancelled mid-wait"));
    return false;
  }, { timeoutMs: 60_000, intervalMs: 1, signal: ac.signal });
  const e = await assertRejects(() => waiting, Error);
  assertEquals(e.message, "cancelled mid-wait");
  assertEquals(calls, 2);
});

Deno.test("pause: rejects at once when its signal aborts, and clears its timer", async () => {
  const ac = new AbortController();
  const p = pause(60_000, ac.signal);
  ac.abort(new Error("stop"));
  const e = await assertRejects(() => p, Error);
  assertEquals(e.message, "stop");
  await pause(1);
});

Deno.test("within: the work's value, undefined when the time is up, the reason on abort", async () => {
  assertEquals(await within(Promise.resolve(7), 60_000), 7);
  assertEquals(await within(new Promise<number>(() => {}), 1), undefined);
  const failed = await assertRejects(
    () => within(Promise.reject(new Error("work failed")), 60_000),
    Error,
  );
  assertEquals(failed.message, "work failed");
  const ac = new AbortController();
  const waiting = within(new Promise<number>(() => {}), 60_000, ac.signal);
  ac.abort(new Error("stop"));
  assertEquals((await assertRejects(() => waiting, Error)).message, "stop");
  const before = AbortSignal.abort(new Error("stopped before"));
  assertEquals(
    (await assertRejects(() => within(Promise.resolve(1), 60_000, before), Error)).message,
    "stopped before",
  );
});

Deno.test("poll: a check that never answers does not hold the poll past its deadline", async () => {
  let checks = 0;
  const e = await assertRejects(() =>
    poll(() => {
      checks++;
      return new Promise<boolean>(() => {});
    }, { timeoutMs: 100, unanswered: "timeout" }), ToolError);
  assertEquals(e.code, "timeout");
  assertEquals(checks, 1);
  // By default the unanswered check reads as "not seen", at the deadline all the same.
  assertEquals(await poll(() => new Promise<boolean>(() => {}), { timeoutMs: 100 }), false);
});
