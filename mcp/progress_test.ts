import { assertEquals } from "../tests/_assert.ts";
import { ANSWER_GAP_MS, CallProgress, PROGRESS_INTERVAL_MS } from "./progress.ts";

type Sent = { progress: number; total?: number; message?: string };

function harness(token: string | number | undefined) {
  const sent: Sent[] = [];
  let now = 0;
  const progress = new CallProgress(token, (n) => {
    const { progress, total, message } = n.params as Sent & { progressToken: unknown };
    sent.push({
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message ? { message } : {}),
    });
    return Promise.resolve();
  }, { now: () => now });
  return { progress, sent, tick: (ms: number) => now += ms };
}

Deno.test("CallProgress: no token, no notification", () => {
  const h = harness(undefined);
  h.progress.lane()(1, 2, "a");
  assertEquals(h.sent, []);
  assertEquals(h.progress.wanted, false);
});

Deno.test("CallProgress: a lane's reports increase; the same message is throttled unless done", () => {
  const h = harness("t");
  const lane = h.progress.lane();
  lane(0, 3, "step 1");
  lane(0, 3, "step 1 again"); // not increasing: dropped
  lane(1, 3, "step 2");
  lane(1.5, 3, "step 2"); // same message, too soon
  h.tick(PROGRESS_INTERVAL_MS);
  lane(2, 3, "step 2");
  lane(3, 3, "step 2"); // completes the total: sent at once
  assertEquals(h.sent, [
    { progress: 0, total: 3, message: "step 1" },
    { progress: 1, total: 3, message: "step 2" },
    { progress: 2, total: 3, message: "step 2" },
    { progress: 3, total: 3, message: "step 2" },
  ]);
});

Deno.test("CallProgress: a lane starting below what was sent continues above it", () => {
  const h = harness(7);
  const install = h.progress.lane();
  const tool = h.progress.lane();
  install(500, 1000, "downloading");
  install(1000, 1000, "downloading");
  tool(1, 5, "request sent");
  tool(2, 5, "response");
  h.progress.close();
  tool(3, 5, "load");
  assertEquals(h.sent, [
    { progress: 500, total: 1000, message: "downloading" },
    { progress: 1000, total: 1000, message: "downloading" },
    { progress: 1001, total: 1005, message: "request sent" },
    { progress: 1002, total: 1005, message: "response" },
  ]);
});

Deno.test("CallProgress: the answer waits out the gap after the last notification, only then", async () => {
  const slept: number[] = [];
  let now = 0;
  const progress = new CallProgress("t", () => Promise.resolve(), {
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  });
  await progress.settled();
  assertEquals(slept, [], "nothing sent: no wait");
  progress.lane()(1, 2, "half");
  now += 5;
  await progress.settled();
  assertEquals(slept, [ANSWER_GAP_MS - 5]);
  now += ANSWER_GAP_MS;
  await progress.settled();
  assertEquals(slept.length, 1, "long past: no wait");
});
