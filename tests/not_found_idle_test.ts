/**
 * The not-found wait of a selector (NU, "Tokens and speed": a `text=` with no match anywhere
 * waited its whole ~2 s): it ends as soon as the page is idle (loaded, no request in flight, no
 * short timer due, no DOM change for a moment), and the error says it looked until then; it
 * keeps looking while the page is still building: an element a timer adds 500 ms after load,
 * one rendered from a slow fetch, one added after a run of DOM changes, are all found. An
 * element a timer adds after 4 s (NU session 15: told "fix the selector"): the error says the
 * timer is still due and the hint says wait_for first; wait_for then finds it.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const IDLE = `<!doctype html><title>Idle</title><h1>Sign in</h1><p>Nothing to see.</p>`;
// The button comes 500 ms after the load (a timer set by the load handler).
const LATE = `<!doctype html><title>Late</title><h1>Late</h1>
<script>
  addEventListener("load", () => setTimeout(() => {
    const b = document.createElement("button");
    b.textContent = "Continue";
    b.onclick = () => { document.title = "continued"; };
    document.body.append(b);
  }, 500));
</script>`;
// The button comes 4 s after the load: past the not-found wait (a new user's page).
const SLOW = LATE.replace("}, 500)", "}, 4000)").replace("<title>Late", "<title>Slow");
// A clock that never stops ticking: the page never looks idle.
const TICKING = `<!doctype html><title>Ticking</title><p id="clock"></p>
<script>let n = 0; setInterval(() => clock.textContent = "Tick " + ++n, 100);</script>`;
// Rendered from a fetch the server answers slowly.
const FETCHED = `<!doctype html><title>Fetched</title><h1>Orders</h1>
<script>
  fetch("/slow").then((r) => r.text()).then((t) => {
    const b = document.createElement("button");
    b.textContent = t;
    b.onclick = () => { document.title = "opened"; };
    document.body.append(b);
  });
</script>`;
// Rows added every 60 ms (an interval: no timer the watch counts), then the button.
const BUILDING = `<!doctype html><title>Building</title><ul id="rows"></ul>
<script>
  let n = 0;
  const id = setInterval(() => {
    const li = document.createElement("li");
    li.textContent = "Row " + ++n;
    document.getElementById("rows").append(li);
    if (n < 10) return;
    clearInterval(id);
    const b = document.createElement("button");
    b.textContent = "Export rows";
    b.onclick = () => { document.title = "exported"; };
    document.body.append(b);
  }, 60);
</script>`;

// A link that opens a tab (which becomes the current one) beside a button of its own.
const OPENER = `<!doctype html><title>Shop</title>
<a href="/staff" target="_blank">Open staff table</a>
<button onclick="document.title = 'popup'">Open shop popup</button>`;

Deno.test("not found: fails once the page is idle, keeps looking while it builds", async (t) => {
  const pages: Record<string, string> = {
    "/opener": OPENER,
    "/staff": `<!doctype html><title>Staff</title><h1>Staff table</h1>`,
    "/idle": IDLE,
    "/late": LATE,
    "/slow-button": SLOW,
    "/ticking": TICKING,
    "/fetched": FETCHED,
    "/building": BUILDING,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/slow") {
      // The server's own slowness (not a wait of the test's): the page fetches and waits.
      await new Promise((resolve) => setTimeout(resolve, 700));
      return new Response("Open order 7");
    }
    const page = pages[path];
    return new Response(page ?? "not found", {
      status: page ? 200 : 404,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power,debug", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  const title = async () => (await mcp.ok("eval_js", { expression: "document.title" })).value;
  try {
    await t.step("an idle page without the text: not found, looked until idle", async () => {
      await mcp.ok("navigate", { url: `${base}/idle`, snapshot: "none" });
      for (const selector of ["text=Remember me", "#remember"]) {
        const r = await mcp.call("click", { selector });
        assertTrue(r.isError, textOf(r));
        assertEquals(((r.structuredContent as R).error as R).code, "not-found");
        assertIncludes(
          textOf(r),
          `No element matches selector "${selector}": looked until the page was idle`,
        );
        assertEquals(textOf(r).includes("wait_for"), false, textOf(r));
      }
    });

    await t.step(
      "a button a timer adds after 4 s, past the call's budget: the timer is said, wait_for hinted",
      async () => {
        await mcp.ok("navigate", { url: `${base}/slow-button`, snapshot: "none" });
        // Within the budget (the default 10 s) the timer is waited for (timer_selector_wait_test).
        const r = await mcp.call("click", { selector: "text=Continue", timeoutMs: 3000 });
        assertEquals(((r.structuredContent as R).error as R).code, "not-found", textOf(r));
        assertIncludes(textOf(r), "the page looks idle, but a timer of the page runs in");
        assertIncludes(textOf(r), 'wait_for({ selector: "text=Continue" }) first');
        const w = await mcp.ok("wait_for", { selector: "text=Continue", timeoutMs: 8000 });
        assertEquals(w.ok, true, JSON.stringify(w));
        await mcp.ok("click", { selector: "text=Continue", snapshot: "none" });
        assertEquals(await title(), "continued");
      },
    );

    await t.step("a page still changing when the wait ended: said, wait_for hinted", async () => {
      await mcp.ok("navigate", { url: `${base}/ticking`, snapshot: "none" });
      const r = await mcp.call("click", { selector: "#pay" });
      assertEquals(((r.structuredContent as R).error as R).code, "not-found", textOf(r));
      assertIncludes(textOf(r), "the page was still changing");
      assertIncludes(textOf(r), 'wait_for({ selector: "#pay" }) first');
    });

    await t.step("a button a timer adds 500 ms after load: found", async () => {
      await mcp.ok("navigate", { url: `${base}/late`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "text=Continue", snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await title(), "continued");
    });

    await t.step("a button rendered from a slow fetch: found", async () => {
      await mcp.ok("navigate", { url: `${base}/fetched`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "text=Open order 7", snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await title(), "opened");
    });

    await t.step("a button added after a run of DOM changes: found", async () => {
      await mcp.ok("navigate", { url: `${base}/building`, snapshot: "none" });
      const r = await mcp.ok("click", { selector: "text=Export rows", snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await title(), "exported");
    });

    await t.step("a link opened a tab: the match in the first tab is named", async () => {
      await mcp.ok("navigate", { url: `${base}/opener`, snapshot: "none" });
      await mcp.ok("click", { selector: "text=Open staff table", snapshot: "none" });
      const r = await mcp.call("click", { selector: "text=Open shop popup" });
      assertEquals(((r.structuredContent as R).error as R).code, "not-found", textOf(r));
      assertIncludes(textOf(r), "in the current tab, 1 (2 tabs open)");
      assertIncludes(textOf(r), "it matches in tab 0");
      assertIncludes(textOf(r), 'tabs({ action: "switch", index: 0 })');
      // Nowhere at all: which tab was searched, no other tab named.
      const none = await mcp.call("click", { selector: "#nowhere" });
      assertIncludes(textOf(none), "(2 tabs open)");
      assertEquals(textOf(none).includes("matches in tab"), false, textOf(none));
      await mcp.ok("tabs", { action: "close", index: 1 });
    });

    await t.step("bad input: an empty selector", async () => {
      const r = await mcp.call("click", { selector: "  " });
      assertTrue(r.isError, textOf(r));
      assertEquals(((r.structuredContent as R).error as R).code, "invalid-argument");
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
