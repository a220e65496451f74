/**
 * A selector wait on an idle page looks on while a longer timer of the page is due within the
 * call's budget (NU s16, its `timer3.html`: a button added 3.2 s after load; a click given 10 s
 * failed in 33 ms saying "a timer of the page runs in 0.9 s"). A timer due past the budget
 * still ends the wait at once, naming the timer. MCP stdio, real Chromium.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import { actionOf } from "./_results.ts";

/** A page polling every 2.5 s for ever (a keep-alive): never adds what a wrong selector names. */
const POLLING = `<!doctype html><title>Polling</title><h1>Inbox</h1>
<script>(function tick(){setTimeout(tick, 2500)})()</script>`;

/** A button a 5.6 s timer adds (NU s17: refused at once under the old 5 s timer cap). */
const TIMER56 = `<!doctype html><title>Timer</title><h1>Timer</h1><div id="slot"></div>
<script>setTimeout(()=>{document.getElementById('slot').innerHTML='<button id="go">Go</button>'}, 5600)</script>`;

const TIMER3 = `<!doctype html><title>Timer</title><h1>Timer</h1><div id="slot"></div>
<script>setTimeout(()=>{document.getElementById('slot').innerHTML='<button id="go" onclick="this.textContent=\\'Done\\'">Go</button>'}, 3200)</script>`;

Deno.test("selector wait: looks on until a page timer due within timeoutMs ran", async (t) => {
  const site = servePages({
    "/timer3.html": TIMER3,
    "/timer56.html": TIMER56,
    "/polling.html": POLLING,
  });
  const mcp = await startStdio();
  try {
    await t.step(
      "the timer is due within the budget: the element is found and clicked",
      async () => {
        await mcp.ok("navigate", { url: `${site.base}/timer3.html`, snapshot: "none" });
        const r = await mcp.call("click", { selector: "#go", timeoutMs: 10000 });
        assertEquals(r.isError, undefined, textOf(r));
        assertEquals(actionOf(r).ok, true);
        assertIncludes(String((await mcp.ok("snapshot")).tree), 'button "Done"');
      },
    );

    await t.step(
      "the timer is due past the budget: not-found at once, the timer named",
      async () => {
        await mcp.ok("navigate", { url: `${site.base}/timer3.html`, snapshot: "none" });
        const r = await mcp.call("click", { selector: "#go", timeoutMs: 2000 });
        assertEquals(r.isError, true, textOf(r));
        const e = actionOf(r).error!;
        assertEquals(e.code, "not-found", textOf(r));
        assertIncludes(e.message, "a timer of the page runs in");
        assertIncludes(e.message, "after this call's timeoutMs ends (a longer timeoutMs waits");
        assertIncludes(e.hint, "wait_for");
        // The page did not get there meanwhile: the call ended before the timer.
        assertEquals(String((await mcp.ok("snapshot")).tree).includes('button "Go"'), false);
      },
    );

    await t.step(
      "a page re-arming a timer: a wrong selector still fails well before a long budget",
      async () => {
        await mcp.ok("navigate", { url: `${site.base}/polling.html`, snapshot: "none" });
        const t0 = performance.now();
        const r = await mcp.call("click", { selector: "#nowhere", timeoutMs: 30000 });
        const took = performance.now() - t0;
        assertEquals(actionOf(r).error?.code, "not-found", textOf(r));
        // The timer wait is capped (5 s after the first timer ran), not the budget.
        assertEquals(took < 20000, true, `took ${Math.round(took)} ms`);
      },
    );

    await t.step("a timer due past 5 s but within the budget is waited for", async () => {
      await mcp.ok("navigate", { url: `${site.base}/timer56.html`, snapshot: "none" });
      const r = await mcp.call("click", { selector: "#go", timeoutMs: 10000, snapshot: "none" });
      assertEquals(r.isError, undefined, textOf(r));
      assertEquals(actionOf(r).ok, true);
    });

    await t.step("bad input: a timeoutMs below the floor is refused", async () => {
      const r = await mcp.call("click", { selector: "#go", timeoutMs: -5 });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "timeoutMs");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
