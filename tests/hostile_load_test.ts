/**
 * Hostile pages against the timer watch's load phase (red team): a navigation's result waits
 * for what a new document sets to run right after its load, and a page must not turn that
 * into a wait past the call's time, a wait for nothing, or a failure of its own code.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { sharedServerCases } from "./_shared_cases.ts";
import { eventually } from "./_util.ts";

const PAGES: Record<string, string> = {
  plain: `<h1>Plain</h1>`,
  // Shortly after its load the page runs its own script for 20 s: a question to the page
  // waits behind it.
  busy: `<h1>Busy</h1><script>onload = () => setTimeout(() => {
    const t0 = Date.now(); while (Date.now() - t0 < 20000) {}
  }, 100);</script>`,
  // The page's load handler never returns: the tab's main thread is its from then on.
  stuck: `<h1>Stuck</h1><script>onload = () => { while (true) {} };</script>`,
  // Six fetch loops from the load on: each fetch cancelled as the page unloads starts another.
  storm: `<h1>Storm</h1><script>onload = () => {
    const go = () => fetch("/ok?" + Math.random()).then(go, go);
    for (let i = 0; i < 6; i++) go();
  };</script>`,
  // The page keeps the end events of its request from every listener after its own.
  swallow: `<h1>Swallow</h1><script>
    const x = new XMLHttpRequest();
    x.open("GET", "/ok");
    for (const type of ["readystatechange", "load", "loadend"]) {
      const stop = (e) => { e.stopImmediatePropagation(); if (x.readyState === 4) document.title = "answered"; };
      x.addEventListener(type, stop, true);
      x.addEventListener(type, stop);
    }
    x.send();</script>`,
  // Event.target is the page's to redefine: it throws, and after its load it lies.
  target: `<h1>Target</h1><script>
    Object.defineProperty(Event.prototype, "target", { get() { throw new Error("target"); } });
    </script>`,
  // The page redefines instanceof for XMLHttpRequest and its readyState getter.
  brand: `<h1>Brand</h1><script>
    Object.defineProperty(XMLHttpRequest, Symbol.hasInstance, { value() { throw new Error("hasInstance"); } });
    const own = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, "readyState").get;
    let reads = 0;
    Object.defineProperty(XMLHttpRequest.prototype, "readyState", {
      get() { if (this !== x) throw new Error("readyState"); return own.call(this); },
    });
    const x = new XMLHttpRequest();
    x.open("GET", "/ok");
    x.onload = () => { document.title = "loaded " + x.responseText; };
    try { x.send(); } catch (e) { document.title = "send threw " + e.message; }</script>`,
};

/**
 * The cases share one server (default configuration); each closes its sessions after it, so the
 * next starts on a fresh session as on a fresh server.
 */
const cases = sharedServerCases("hostile load, one server");

function serve() {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/ok") return new Response("ok");
    const body = PAGES[path.slice(1)];
    if (body === undefined) return new Response("not found", { status: 404 });
    return new Response(`<!doctype html><title>${path.slice(1)}</title>${body}`, {
      headers: { "content-type": "text/html" },
    });
  });
  return { url: (p: string) => `http://127.0.0.1:${server.addr.port}/${p}`, server };
}

cases.test("a page's own tricks neither stretch nor fool navigate", async (mcp, t) => {
  const { url, server } = serve();
  try {
    await mcp.ok("navigate", { url: url("plain"), snapshot: "none" });

    await t.step("a request whose end events the page stops is not waited for", async () => {
      const r = await mcp.ok("navigate", {
        url: url("swallow"),
        snapshot: "none",
        timeoutMs: 8000,
      });
      assertEquals(r.timedOut, false, JSON.stringify(r));
      assertEquals(r.warnings ?? [], [], JSON.stringify(r));
      const title = () => mcp.ok("snapshot").then((s) => s.title);
      await eventually(async () => await title() === "answered", 5000, `the title "answered"`);
    });

    await t.step("the watch's wrappers stand on no page-made instanceof or getter", async () => {
      const r = await mcp.ok("navigate", { url: url("brand"), snapshot: "none" });
      assertEquals(r.pageErrors ?? [], [], JSON.stringify(r));
      const title = () => mcp.ok("snapshot").then((s) => s.title);
      await eventually(async () => await title() === "loaded ok", 5000, `the title "loaded ok"`);
    });

    await t.step("the watch reads no event through the page's own getters", async () => {
      const r = await mcp.ok("navigate", { url: url("target"), snapshot: "none" });
      assertEquals(r.pageErrors ?? [], [], JSON.stringify(r));
    });

    await t.step(
      "a page busy in its own script after its load: the result comes in its time, cut short",
      async () => {
        const r = await mcp.ok("navigate", { url: url("busy"), snapshot: "none", timeoutMs: 1000 });
        assertEquals(r.timedOut, true, JSON.stringify(r));
        const warnings = (r.warnings ?? []) as string[];
        assertTrue(
          warnings.some((w) => w.includes("had not settled")),
          `the result says the page was still running: ${JSON.stringify(warnings)}`,
        );
      },
    );

    await t.step(
      "a load handler that never returns: the next navigate stops it and lands",
      async () => {
        const stuck = await mcp.ok("navigate", {
          url: url("stuck"),
          snapshot: "none",
          timeoutMs: 1500,
        });
        assertEquals(stuck.timedOut, true, JSON.stringify(stuck));
        // Each navigation away used to fail within its own time (no response: the commit
        // waits for the stuck thread), so nothing ever freed the tab.
        const away = await mcp.ok("navigate", { url: url("plain"), snapshot: "none" });
        assertEquals(away.url, url("plain"), JSON.stringify(away));
        assertTrue(
          ((away.warnings ?? []) as string[]).some((w) => w.includes("held the tab")),
          JSON.stringify(away),
        );
        const again = await mcp.ok("reload", { snapshot: "none" });
        assertEquals(again.warnings ?? [], [], JSON.stringify(again));
        // A history move too: back to the stuck page, then back again past it.
        await mcp.ok("navigate", { url: url("stuck"), snapshot: "none", timeoutMs: 1500 });
        const back = await mcp.ok("go_back", { snapshot: "none" });
        assertEquals(back.url, url("plain"), JSON.stringify(back));
        assertTrue(
          ((back.warnings ?? []) as string[]).some((w) => w.includes("held the tab")),
          JSON.stringify(back),
        );
      },
    );
  } finally {
    await server.shutdown();
  }
});

cases.test("requests a page starts as it unloads do not hold the next navigation", async (mcp) => {
  const { url, server } = serve();
  try {
    const storm = await mcp.ok("navigate", {
      url: url("storm"),
      snapshot: "none",
      timeoutMs: 1500,
    });
    assertEquals(storm.timedOut, true, "the storm never settles");
    // Chromium ends the fetches the old document starts while it unloads with no event at all:
    // they read as in flight, and the window waited for them until they were 5 s old (here:
    // until its deadline, cut short).
    const away = await mcp.ok("navigate", { url: url("plain"), snapshot: "none", timeoutMs: 4000 });
    assertEquals(away.url, url("plain"));
    assertEquals(away.timedOut, false, JSON.stringify(away));
    assertEquals(away.warnings ?? [], [], JSON.stringify(away));
  } finally {
    await server.shutdown();
  }
});

cases.test("a history move while a reload waits on a busy page is not 'the tab closed'", async (mcp) => {
  const { url, server } = serve();
  try {
    await mcp.ok("navigate", { url: url("plain"), snapshot: "none" });
    await mcp.ok("navigate", { url: url("busy"), snapshot: "none", timeoutMs: 3000 });
    // The reload cannot unload the busy document: it is still committing when it answers.
    await mcp.ok("reload", { snapshot: "none", timeoutMs: 1500 });
    const back = await mcp.call("go_back", { snapshot: "none", timeoutMs: 1500 });
    const text = JSON.stringify(back);
    // Chromium answered "Not attached to an active page", read as the tab closing.
    assertTrue(!text.includes("closed"), text);
  } finally {
    await server.shutdown();
  }
});
