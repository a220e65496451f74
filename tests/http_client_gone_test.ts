/**
 * A one-shot HTTP client (the MCP Inspector's `--cli`: one call, then exit without
 * `DELETE /mcp`) does not keep its Chromium for `BROWX_HTTP_IDLE_MS`: once its event stream
 * has closed and it sent nothing for `BROWX_HTTP_INIT_TTL_MS`, it is closed with its browser.
 * A client that keeps running (its stream open) stays, however long it is silent.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startHttp, textOf } from "./_mcp.ts";
import { initializeRequest } from "./_wire.ts";
import { chromiumsUnder } from "./_procs.ts";
import { alive, cmdline, eventually } from "./_util.ts";

const browsers = (pid: number) =>
  chromiumsUnder(pid).filter((p) => !cmdline(p).includes("--type="));

Deno.test("http: a client that exited without DELETE loses its browser after the short TTL, a running one keeps it", async () => {
  const fx = await startFixtureServer();
  const ttl = 1500;
  const server = await startHttp({ env: { BROWX_HTTP_INIT_TTL_MS: String(ttl) } });
  const metric = async (name: string) => {
    const text = await (await fetch(new URL("/metrics", server.url))).text();
    return Number(new RegExp(`^${name} (\\d+)`, "m").exec(text)?.[1]);
  };
  try {
    const kept = await server.connect();
    await kept.ok("navigate", { url: fx.url("form.html"), snapshot: "none" });
    const keptBrowser = browsers(server.child.pid);
    assertEquals(keptBrowser.length, 1);

    // A one-shot client: initialize, one call, close without terminateSession (no DELETE).
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const oneShot = new Client({ name: "one-shot", version: "0.0.0" });
    await oneShot.connect(transport);
    // The SDK opens its GET event stream after `initialized`, in the background: a server
    // that sees it is what makes the client's exit visible.
    const r = await oneShot.callTool({
      name: "navigate",
      arguments: { url: fx.url("basic.html"), snapshot: "none" },
    });
    assertEquals(r.isError, undefined, JSON.stringify(r));
    const oneShotBrowser = await eventually(
      () => browsers(server.child.pid).find((p) => !keptBrowser.includes(p)),
      10_000,
      "the one-shot client's browser",
    );
    assertEquals(await metric("browxai_mcp_clients"), 2);
    await oneShot.close();

    await eventually(
      () => !alive(oneShotBrowser),
      20_000,
      "the one-shot client's browser to close",
    );
    assertEquals(await metric("browxai_mcp_clients"), 1);
    // The running client, silent for longer than the TTL too, still has its page.
    assertTrue(alive(keptBrowser[0]!), "the running client's browser was closed");
    const page = await kept.call("snapshot");
    assertEquals(page.isError, undefined, textOf(page));
    assertTrue(textOf(page).includes("Name"), textOf(page));
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("http: a client that never opened an event stream keeps the long idle timeout", async () => {
  // A curl-like client posts without a GET stream: nothing says it is gone, so it is not
  // closed before BROWX_HTTP_IDLE_MS.
  const server = await startHttp({ env: { BROWX_HTTP_INIT_TTL_MS: "300" } });
  const post = (body: unknown, session?: string) =>
    fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        ...(session ? { "mcp-session-id": session } : {}),
      },
      body: JSON.stringify(body),
    });
  const initialize = async () => {
    const r = await post(initializeRequest(1));
    await r.body?.cancel();
    return r.headers.get("mcp-session-id")!;
  };
  const clients = async () => {
    const text = await (await fetch(new URL("/metrics", server.url))).text();
    return Number(/^browxai_mcp_clients (\d+)/m.exec(text)?.[1]);
  };
  try {
    const session = await initialize();
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    await note.body?.cancel();
    // A handshake abandoned after ours is closed after the TTL: the sweep ran past our TTL too.
    await initialize();
    await eventually(async () => await clients() === 1, 10_000, "the abandoned one to close");
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session);
    assertEquals(list.status, 200, await list.clone().text());
    await list.body?.cancel();
  } finally {
    await server.close();
  }
});
