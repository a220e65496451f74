/**
 * A page whose own script loops forever soon after its load (no call of ours started it):
 * `navigate` elsewhere stops the loop (`Runtime.terminateExecution`, as a call's deadline
 * does) and lands, saying so; a read on the busy page answers quickly that the page is busy
 * instead of waiting out its 30 s budget (red team: navigate answered ok:true on the old page
 * after 8 s, get_url took 22 s, the next navigate blamed the server).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act } from "./_results.ts";
import { eventually } from "./_util.ts";

const HANG = `<!doctype html><title>Hang</title><h1>About to hang</h1>
<script>setTimeout(() => { for (;;) {} }, 50)</script>`;
const SHOP = `<!doctype html><title>Shop</title><h1>Shop</h1><p>Tea</p>`;

Deno.test("a page stuck in its own loop: navigate stops it and lands", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new Response(new URL(req.url).pathname === "/hang" ? HANG : SHOP, {
        headers: { "content-type": "text/html" },
      }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.call("navigate", { url: `${base}/hang`, snapshot: "none", timeoutMs: 3000 });

    await t.step("a read on the looping page answers soon: the page is busy", async () => {
      // The loop starts 50 ms after the load: a read answers once it sees the thread held.
      let tookMs = 0;
      const r = await eventually(async () => {
        const started = Date.now();
        const r = await mcp.call("snapshot", {});
        tookMs = Date.now() - started;
        if (!r.isError) throw new Error("not looping yet");
        return r;
      });
      assertIncludes(textOf(r), "busy");
      // Not the read's whole 30 s budget.
      assertTrue(tookMs < 10_000, `took ${tookMs} ms`);
      assertTrue(!/server/i.test(textOf(r)), textOf(r));
    });

    await t.step("navigate elsewhere stops the loop and lands", async () => {
      const started = Date.now();
      const r = await act(mcp, "navigate", { url: `${base}/shop`, timeoutMs: 8000 });
      assertEquals(r.navigation.to, `${base}/shop`, JSON.stringify(r));
      assertTrue(
        r.warnings.some((w) => w.includes("loop") && w.includes("stopped")),
        JSON.stringify(r.warnings),
      );
      const url = await mcp.ok("get_url", {});
      assertEquals(url.url, `${base}/shop`);
      assertTrue(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    });

    await t.step("bad input: navigate to a non-URL is refused", async () => {
      const r = await mcp.call("navigate", { url: "not a url" });
      assertEquals(r.isError, true, textOf(r));
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
