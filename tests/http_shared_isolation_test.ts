/**
 * Clients that share one Chromium (`--http` with BROWX_HTTP_BROWSERS=shared) do not reach each
 * other through what is whole-browser (red team s11): a trace records the whole browser, so
 * client A's trace would hold client B's URLs and titles (http3) — refused there, saying why;
 * and the clipboard is one per Chromium, so client B pasted what client A copied (http2) — it
 * is emptied when another client's step begins.
 */
import { assertEquals, assertIncludes, assertNotIncludes } from "./_assert.ts";
import { type McpHarness, startHttp, textOf, type ToolResult } from "./_mcp.ts";
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

const FORM = "<!doctype html><title>form</title><input id=f><input id=g>";

Deno.test("http shared browser: a client does not paste what another client copied", async () => {
  const srv = servePages({ "/f": FORM });
  const server = await startHttp({
    env: {
      BROWX_HTTP_BROWSERS: "shared",
      BROWX_CAPABILITIES: "read,navigation,action",
      BROWX_TOOLSETS: "all",
    },
  });
  const copy = async (who: McpHarness, value: string) => {
    await who.ok("fill", { selector: "#f", value, snapshot: "none" });
    await who.ok("press", { selector: "#f", key: "Control+a", snapshot: "none" });
    await who.ok("press", { key: "Control+c", snapshot: "none" });
  };
  const valueOfG = async (who: McpHarness) => {
    const form = await who.ok("read_form", { whole_page: true });
    const fields = form.fields as Array<{ selector: string; value: string }>;
    return fields.find((f) => f.selector === "#g")?.value;
  };
  /** Empties #g, pastes into it with Ctrl+V, and returns what it holds. */
  const pasteInG = async (who: McpHarness) => {
    await who.ok("fill", { selector: "#g", value: "", snapshot: "none" });
    await who.ok("press", { selector: "#g", key: "Control+v", snapshot: "none" });
    return await valueOfG(who);
  };
  /** Empties #g, pastes into it with a middle click, and returns what it holds. */
  const middleInG = async (who: McpHarness) => {
    await who.ok("fill", { selector: "#g", value: "", snapshot: "none" });
    await who.ok("click", { selector: "#g", button: "middle", snapshot: "none" });
    return await valueOfG(who);
  };
  try {
    const a = await server.connect();
    const b = await server.connect();
    await a.ok("navigate", { url: `${srv.base}/f`, snapshot: "none" });
    await b.ok("navigate", {
      url: `${srv.base.replace("127.0.0.1", "localhost")}/f`,
      snapshot: "none",
    });

    // A copies, and pastes it itself: the clipboard works for its own client.
    await copy(a, "A-PRIVATE-4111111111111111");
    assertEquals(await pasteInG(a), "A-PRIVATE-4111111111111111");
    assertEquals(await middleInG(a), "A-PRIVATE-4111111111111111");

    // B's paste right after: A's copy is gone; so is A's selection, which a middle click
    // pastes (Chromium's selection buffer, written by A's Ctrl+A).
    assertEquals(await pasteInG(b), "");
    assertNotIncludes(await middleInG(b) ?? "", "A-PRIVATE");
    // B's own copy and selection paste (the pastes themselves work for B) ...
    await copy(b, "B-OWN-text");
    assertEquals(await pasteInG(b), "B-OWN-text");
    await b.ok("press", { selector: "#f", key: "Control+a", snapshot: "none" });
    assertEquals(await middleInG(b), "B-OWN-text");
    // ... and A, next, gets nothing of them.
    assertEquals(await pasteInG(a), "");
    assertNotIncludes(await middleInG(a) ?? "", "B-OWN");
  } finally {
    await server.close();
    await srv.close();
  }
});
