/**
 * Clients that share one Chromium (`--http` with BROWX_HTTP_BROWSERS=shared) do not reach each
 * other through what is whole-browser (red team s11): a trace records the whole browser, so
 * client A's trace would hold client B's URLs and titles (http3) — refused there, saying why.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startHttp, textOf, type ToolResult } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

Deno.test("http shared browser: a trace (whole-browser) is refused, saying why", async () => {
  const srv = servePages({
    "/a": "<!doctype html><title>A page</title>A",
    "/b-private-inbox": "<!doctype html><title>B-PRIVATE-TITLE</title><h1>B mail</h1>",
  });
  const server = await startHttp({
    env: {
      BROWX_HTTP_BROWSERS: "shared",
      BROWX_CAPABILITIES: "read,navigation,action,file-io",
      BROWX_TOOLSETS: "all",
    },
  });
  try {
    const a = await server.connect();
    const b = await server.connect();
    await a.ok("navigate", { url: `${srv.base}/a`, snapshot: "none" });
    await b.ok("navigate", { url: `${srv.base}/a`, snapshot: "none" });

    const started = await a.call("trace_start", { screenshots: true });
    assertEquals(code(started), "refused", textOf(started));
    assertIncludes(textOf(started), "serves other MCP clients too");
    assertIncludes(textOf(started), "BROWX_HTTP_BROWSERS=per-client");
    // Nothing runs: B's browsing is recorded nowhere, and A's trace_stop has nothing to stop.
    await b.ok("navigate", { url: `${srv.base}/b-private-inbox`, snapshot: "none" });
    const stopped = await a.call("trace_stop", { path: "t.json" });
    assertEquals(code(stopped), "refused", textOf(stopped));
    assertIncludes(textOf(stopped), "No trace runs");
  } finally {
    await server.close();
    await srv.close();
  }
});
