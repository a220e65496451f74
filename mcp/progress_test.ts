import { assertEquals } from "../tests/_assert.ts";
import { CallProgress, PROGRESS_INTERVAL_MS } from "./progress.ts";

type Sent = { progress: number; total?: number; message?: string };

function harness(token: string | number | undefined) {
  const sent: Sent[] = [];
  let now = 0;
  // The sends that would leave in a later task, run by `run()`.
  const queue = new Set<() => void>();
  const later = (send: () => void) => {
    queue.add(send);
    return () => void queue.delete(send);
  };
  const run = () => {
    for (const send of [...queue]) {
      queue.delete(send);
      send();
    }
  };
  const progress = new CallProgress(token, (n) => {
    const { progress, total, message } = n.params as Sent & { progressToken: unknown };
    sent.push({
      progress,
      ...(total !== undefined ? { total } : {}),
      ...(message ? { message } : {}),
    });
    return Promise.resolve();
  }, { now: () => now, later });
  return { progress, sent, run, tick: (ms: number) => now += ms };
}

Deno.test("CallProgress: no token, no notification", () => {
  const h = harness(undefined);
  h.progress.lane()(1, 2, "a");
  h.run();
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
  lane(3, 3, "step 2"); // completes the total: not throttled
  h.run();
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
  h.run();
  tool(3, 5, "load");
  // Closed as the call is answered: a report not sent yet never goes (it would follow the
  // answer), nor does one made later.
  h.progress.close();
  h.run();
  tool(4, 5, "settled");
  h.run();
  assertEquals(h.sent, [
    { progress: 500, total: 1000, message: "downloading" },
    { progress: 1000, total: 1000, message: "downloading" },
    { progress: 1001, total: 1005, message: "request sent" },
    { progress: 1002, total: 1005, message: "response" },
  ]);
});
