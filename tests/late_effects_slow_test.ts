/**
 * A request the action's own handler starts is waited for until it is answered (a search that
 * takes 2.5 s: the result shows what it rendered), not only until the page was quiet for a
 * second; one still unanswered when the result is taken (past the settle cap) is listed with
 * `pending: true` and a warning names it. A request the page's own timer loop starts is not the
 * action's (late_effects_test.ts: a long-poll opened at load holds nothing).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const PAGE = `<!doctype html><title>Search</title><main><h1>Search</h1>
<button id=go onclick="search(2500)">Search</button>
<button id=slow onclick="search(9000)">Search slowly</button>
<p id=out role=status>Idle</p></main><script>
function search(ms) {
  out.textContent = "Searching…";
  fetch("/api/search?q=tea&ms=" + ms).then((r) => r.json())
    .then((j) => out.textContent = "Found " + j.hits);
}
</script>`;

Deno.test("late effects: a slow request the action started is waited for or named", async (t) => {
  const stop = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, signal: stop.signal },
    async (req) => {
      const url = new URL(req.url);
      if (url.pathname !== "/api/search") {
        return new Response(PAGE, { headers: { "content-type": "text/html" } });
      }
      // The server's own delay (what is tested is a slow endpoint), ended early at shutdown.
      const ms = Number(url.searchParams.get("ms"));
      await new Promise<void>((done) => {
        const timer = setTimeout(done, ms);
        stop.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          done();
        });
      });
      return Response.json({ hits: 3 });
    },
  );
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });

    await t.step("a 2.5 s search the click started: answered, rendered, listed", async () => {
      const r = await act(mcp, "click", { selector: "#go", timeoutMs: 8000 });
      const req = r.network.requests.find((q) => q.url.includes("/api/search"));
      assertEquals(req?.status, 200, JSON.stringify(r.network.requests));
      assertEquals((req as { pending?: true }).pending, undefined);
      assertIncludes(JSON.stringify(r.snapshotDelta), "Found 3");
      assertEquals(r.timedOut ?? false, false);
      assertEquals(r.warnings.filter((w) => w.includes("no answer")), []);
    });

    await t.step("one unanswered when the result is taken: pending, and named", async () => {
      const r = await act(mcp, "click", { selector: "#slow", timeoutMs: 8000 });
      const req = r.network.requests.find((q) => q.url.includes("ms=9000"));
      assertEquals((req as { pending?: true } | undefined)?.pending, true, JSON.stringify(req));
      assertEquals(req?.status, undefined);
      const w = r.warnings.find((w) => w.includes("no answer"));
      assertTrue(w !== undefined, JSON.stringify(r.warnings));
      assertIncludes(w!, "GET ");
      assertIncludes(w!, "/api/search?q=tea&ms=9000");
    });

    await t.step("bad input: a negative timeoutMs is refused", async () => {
      const r = await mcp.call("click", { selector: "#go", timeoutMs: -5 });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "timeoutMs");
      assertEquals(r.structuredContent ? errorOf(r).code : "invalid-argument", "invalid-argument");
    });
  } finally {
    await mcp.close();
    stop.abort();
    await server.finished;
  }
});
