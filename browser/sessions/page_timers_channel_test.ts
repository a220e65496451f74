/**
 * The timer watch's channel (`page_timers_channel.ts`): the answers read back, and what does
 * not read as one (a page cannot answer, but a malformed text must not become a count).
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "../../tests/_assert.ts";
import { askExpression, readAnswer } from "./page_timers_channel.ts";

Deno.test("readAnswer: pending's counts; arm and disarm done; soon and later ms; anything else is no answer", () => {
  assertEquals(readAnswer("pending", "2 10 1 3"), { n: 2, nextMs: 10, lookAgain: true, own: 3 });
  assertEquals(readAnswer("pending", "1 40 0 0"), { n: 1, nextMs: 40, own: 0 });
  // A due time that is not finite is none (nothing to wait for by time).
  assertEquals(readAnswer("pending", "1 Infinity 0 0"), { n: 1, own: 0 });
  assertEquals(readAnswer({ arm: 500 }, "ok"), null);
  assertEquals(readAnswer("disarm", "ok"), null);
  for (const bad of [undefined, null, 3, "", "ok", "1 2 3", "1 2 x 4", "1 2 3 4 5"]) {
    assertEquals(readAnswer("pending", bad), undefined, String(bad));
  }
  for (const bad of [undefined, "", "0 0 0 0", {}]) {
    assertEquals(readAnswer({ arm: 1 }, bad), undefined, String(bad));
  }
  // soon and later: ms until due, never negative or not a number.
  assertEquals(readAnswer("soon", "120"), 120);
  assertEquals(readAnswer("later", "3900"), 3900);
  for (const bad of [undefined, "", "-5", "x", "NaN", "1 2"]) {
    assertEquals(readAnswer("later", bad), undefined, String(bad));
  }
});

Deno.test("askExpression: the key and command as JSON strings, no global named", () => {
  const key = 'k"); alert(1); ("';
  const e = askExpression(key, { arm: 499.6 });
  assertIncludes(e, JSON.stringify(key));
  assertIncludes(e, 'detail: "arm 500"');
  assertNotIncludes(e, "globalThis[");
  assertIncludes(askExpression("k", "pending"), 'detail: "pending"');
});
