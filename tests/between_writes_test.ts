/**
 * Writes the page sends are reported (red team, session 13): a POST the page sends after the
 * call that caused it answered comes with the next result's `sinceLastCall.writes` (once, the
 * URL by its keys), a dedicated worker's POST during a click is in the click's
 * `network.mutations`, and a worker's POST between calls in the next `sinceLastCall`.
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { act } from "./_results.ts";
import { serveWritePages } from "./_write_pages.ts";
import { eventually } from "./_util.ts";
import type { SinceLastCall } from "../browser/since_last_call.ts";

// A write 1.5 s after the click (past what a window waits for: the next call's news), and
// workers that post at once or 1.5 s after they start.
const PAGE = `<!doctype html><title>Writes</title><main><h1>Writes</h1>
<button id=later>Save later</button><button id=worker>Worker save</button>
<button id=worker-later>Worker save later</button><p id=out>Idle</p></main><script>
const worker = (path, ms) => new Worker(URL.createObjectURL(new Blob([
  "setTimeout(() => fetch(" + JSON.stringify(location.origin + path) +
  ", { method: 'POST', body: 'x' }), " + ms + ")",
])));
later.onclick = () => setTimeout(() => fetch("/write?id=7&token=s3cret", { method: "POST", body: "x" }), 1500);
document.getElementById("worker").onclick = () => worker("/wwrite?n=1", 0);
document.getElementById("worker-later").onclick = () => worker("/wwrite?n=2", 1500);
</script>`;

Deno.test("writes: the page's writes between calls come with the next result, a worker's with its action", async (t) => {
  const server = serveWritePages(PAGE);
  const { base, posts } = server;
  const mcp = await startStdio({});
  const open = () => mcp.ok("navigate", { url: `${base}/`, snapshot: "none" });
  const news = (r: Record<string, unknown>) => r.sinceLastCall as SinceLastCall | undefined;
  const shown = (r: unknown) => JSON.stringify(r);
  try {
    await t.step("a POST sent after the click answered is in the next result, once", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#later", snapshot: "none" });
      assertEquals(r.network?.mutations ?? [], []);
      await eventually(() => posts.includes("/write?id=7&token=s3cret"), 10_000, "the POST");
      const next = news(await mcp.ok("snapshot", {}))?.writes;
      // The server logged it before it answered: the browser may not have heard the answer yet.
      const answer = next?.[0]?.status === 200 ? { status: 200 } : { pending: true as const };
      assertEquals(next, [{ method: "POST", url: `${base}/write?id&token`, ...answer }]);
      assertNotIncludes(shown(next), "s3cret");
      assertEquals(news(await mcp.ok("snapshot", {}))?.writes, undefined);
    });

    await t.step("a dedicated worker's POST during the click is in its writes", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#worker", snapshot: "none" });
      assertIncludes(shown(r.network?.mutations ?? []), "/wwrite?n");
      assertEquals(posts.includes("/wwrite?n=1"), true);
    });

    await t.step("a worker's POST between calls is in the next result", async () => {
      await open();
      await act(mcp, "click", { selector: "#worker-later", snapshot: "none" });
      await eventually(() => posts.includes("/wwrite?n=2"), 10_000, "the worker's POST");
      const writes = news(await mcp.ok("snapshot", {}))?.writes;
      assertEquals(writes?.map((w) => [w.method, w.url]), [["POST", `${base}/wwrite?n`]]);
    });

    await t.step("bad input: a click on nothing fails and sends nothing", async () => {
      await open();
      const before = posts.length;
      const r = await mcp.call("click", { selector: "#nope", timeoutMs: 500 });
      assertEquals(r.isError, true);
      assertEquals(news(await mcp.ok("snapshot", {}))?.writes, undefined);
      assertEquals(posts.length, before);
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
