/**
 * The timer watch seen from the inside (`page_timers_script.ts`, `page_timers_channel.ts`), on
 * a real Chromium below the MCP layer: the test holds the session's key, as browxai does, and
 * asks the watch from the utility world the way browxai does. The page cannot (red team s11,
 * late1: it found `window.__bx_…` and disarmed it), so its globals must not show the watch.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { launchTestBrowser } from "./_harness.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { installPageTimers, newTimerKey } from "../browser/sessions/page_timers.ts";
import { REPLY_SUFFIX } from "../browser/sessions/page_timers_channel.ts";

/** Utility-world source of `ask(command)`: the watch's answer text (see the channel module). */
const askSource = (key: string) =>
  `const ask = (command) => {
    let out;
    const take = (e) => { out = e.detail; };
    addEventListener(${JSON.stringify(key + REPLY_SUFFIX)}, take);
    dispatchEvent(new CustomEvent(${JSON.stringify(key)}, { detail: command }));
    removeEventListener(${JSON.stringify(key + REPLY_SUFFIX)}, take);
    return out;
  };`;

/** What the page's own script can list of its window and document (names and symbols). */
const PAGE_KEYS =
  `JSON.stringify([window, document].map((t) => Reflect.ownKeys(t).map(String).sort()))`;

Deno.test("timer watch: nothing of it on the page's globals; its own frame loop and a poll at load count nothing", async (t) => {
  const fx = await startFixtureServer();
  const tb = await launchTestBrowser();
  try {
    const key = newTimerKey();
    const watched = await tb.newPage();
    installPageTimers(watched.session, key);
    const plain = await tb.newPage();

    await t.step(
      "the page's window and document list the same keys with the watch or without",
      async () => {
        const url = fx.url("late-more.html");
        for (const p of [watched, plain]) await p.navigate(url);
        const [withWatch, without] = await Promise.all(
          [watched, plain].map((p) => p.evaluate(PAGE_KEYS, { world: "main" })),
        );
        assertEquals(withWatch, without);
        // And the watch answers browxai (the utility world): it is there.
        const answer = await watched.evaluate(
          `(() => { ${askSource(key)} return ask("pending"); })()`,
        );
        assertEquals(typeof answer, "string");
        // An event of another type (a page guessing) is not heard.
        const guess = await watched.evaluate(
          `(() => { ${askSource(newTimerKey())} return ask("pending") ?? "none"; })()`,
        );
        assertEquals(guess, "none");
      },
    );

    await t.step(
      "the page's own frame loop, a spinner, a colour change: nothing pending",
      async () => {
        await watched.navigate(fx.url("late-more.html"));
        // Unarmed for two frames, the page's frame loop asks for its next frame as it always
        // does; then armed as an action arms it, and a click. The loop's next frame runs right
        // after the click (it would count, were it the click's), the spinner spins, the click
        // starts a colour transition. Asked 120 ms later (a timer of the utility world: not the
        // page's; the moment is the point of the step), the watch has nothing pending.
        const asked = await watched.evaluate(`(async () => {
        ${askSource(key)}
        ask("disarm");
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        ask("arm 10000");
        const later = new Promise((r) => setTimeout(r, 120));
        document.getElementById("count").click();
        await later;
        const p = ask("pending");
        ask("disarm");
        return [p, document.getAnimations().length];
      })()`) as [string, number];
        assertEquals(asked[0].split(" ")[0], "0", `pending: ${asked[0]}`);
        assertTrue(asked[1] >= 2, `animations running: ${asked[1]}`);
      },
    );

    await t.step(
      "a poll the page starts at load is not its start's: nothing pending at ~250 ms",
      async () => {
        await watched.navigate(fx.url("load-poll.html"));
        // The page renders 200 ms in (a short timer of its start); its 500 ms poll runs on.
        const asked = await watched.evaluate(`(async () => {
        ${askSource(key)}
        const out = document.getElementById("out");
        if (out.textContent !== "Rendered") {
          await new Promise((r) => {
            const seen = new MutationObserver(() => {
              if (out.textContent === "Rendered") seen.disconnect(), r(null);
            });
            seen.observe(out, { childList: true, characterData: true, subtree: true });
          });
        }
        // The moment is the point: past the look-again moment after the render's timer ran
        // (RECENT_MS), well before the poll's 500 ms.
        await new Promise((r) => setTimeout(r, 40));
        return ask("pending");
      })()`) as string;
        assertEquals(asked.split(" ")[0], "0", `pending: ${asked}`);
      },
    );
  } finally {
    await tb.close();
    await fx.close();
  }
});
