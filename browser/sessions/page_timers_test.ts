/**
 * The timer watch's frames (`page_timers.ts`), against a fake page: the acted-on frames hold the
 * input and the question; the page's other frames never do — one that does not answer leaves
 * the watch.
 */
import { assertEquals } from "../../tests/_assert.ts";
import type { Page } from "../../cdp/page.ts";
import { PageTimers, TIMER_SLACK_MS } from "./page_timers.ts";

/**
 * A page whose frames answer `pending` with `answers[frameId]` (the watch's text: n, nextMs,
 * lookAgain, own). Frames in `busy` never answer:
 * their `.arm()` not at all (were arming to wait for it, it would never end), their other calls
 * not before the caller gives up (its signal).
 */
function fakePage(answers: Record<string, unknown>, busy = new Set<string>()) {
  const asked: string[] = [];
  const page = {
    evaluate(expression: string, options: { frameId?: string; signal?: AbortSignal }) {
      const frameId = options.frameId ?? "";
      const call = expression.includes('detail: "pending"')
        ? "pending"
        : expression.includes('detail: "disarm"')
        ? "disarm"
        : "arm";
      asked.push(`${frameId}:${call}`);
      if (busy.has(frameId)) {
        return new Promise((_, reject) => {
          if (call !== "arm") {
            options.signal?.addEventListener("abort", () => reject(options.signal?.reason));
          }
        });
      }
      return Promise.resolve(call === "pending" ? answers[frameId] : "ok");
    },
  };
  return { page: page as unknown as Page, asked };
}

Deno.test("PageTimers: the page's other frames never hold the watch; one that does not answer leaves it", async () => {
  const { page, asked } = fakePage(
    { main: "0 0 0 0", child: "1 40 0 0" },
    new Set(["busy"]),
  );
  // Armed on the acted-on frame's answer (the busy child's arm is never answered).
  const timers = await PageTimers.arm(page, "k", {
    frames: ["main"],
    children: ["child", "busy"],
    ms: 5000,
  });
  assertEquals(asked.filter((a) => a.endsWith(":arm")).sort(), [
    "busy:arm",
    "child:arm",
    "main:arm",
  ]);
  // The child's pending timer counts (a little past its due time); the busy frame is asked
  // once, for 150 ms at most.
  assertEquals(await timers.nextDue(), 40 + TIMER_SLACK_MS);
  asked.length = 0;
  assertEquals(await timers.nextDue(), 40 + TIMER_SLACK_MS);
  assertEquals(asked.sort(), ["child:pending", "main:pending"]);
  asked.length = 0;
  timers.disarm();
  assertEquals(asked.sort(), ["child:disarm", "main:disarm"]);
});

Deno.test("PageTimers: a look-again time is waited for as it is, a due time a little past", async () => {
  const { page } = fakePage({
    main: "2 10 1 0",
    child: "1 8 0 0",
  });
  const timers = await PageTimers.arm(page, "k", {
    frames: ["main"],
    children: ["child"],
    ms: 5000,
  });
  // Work that just ended in the main frame: look again in 10 ms; the child's timer is due in 8,
  // run a little late.
  assertEquals(await timers.nextDue(), 10);
});
