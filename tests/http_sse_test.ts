/**
 * The legacy SSE transport (`GET /sse` + `POST /messages?sessionId=…`) for clients that have
 * nothing else (issue 17): the SDK's SSEClientTransport initializes, lists tools and navigates;
 * the bearer token and the Host/Origin checks hold as on /mcp; two SSE clients keep their own
 * browser sessions.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { clientOptions, startHttp, type ToolResult } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";
import { loginCookie } from "./_console.ts";

const TOKEN = "sse-test-token-0123456789";

async function sseClient(base: string, token = TOKEN): Promise<Client> {
  const transport = new SSEClientTransport(new URL("/sse", base), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "browxai-sse-test", version: "0.0.0" }, clientOptions());
  await client.connect(transport);
  return client;
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await client.callTool({ name, arguments: args }) as ToolResult;
  assertEquals(r.isError ?? false, false, JSON.stringify(r.content));
  return r.structuredContent ?? {};
}

Deno.test("sse: initialize, tools/list, navigate; the token and Origin checks; sessions per client", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({ env: { BROWX_HTTP_TOKEN: TOKEN } });
  const base = server.url.replace(/\/mcp$/, "");
  const clients: Client[] = [];
  try {
    const a = await sseClient(base);
    clients.push(a);
    assertEquals(a.getServerVersion()?.name, "browxai");
    const names = (await a.listTools()).tools.map((t) => t.name);
    assertTrue(names.includes("navigate") && names.includes("snapshot"), names.join(","));
    const nav = await ok(a, "navigate", { url: fx.url("basic.html"), snapshot: "none" });
    assertEquals(nav.httpStatus, 200);

    // A second client at once: its own (empty) sessions; the first keeps its tab.
    const b = await sseClient(base);
    clients.push(b);
    assertEquals((await ok(b, "list_sessions")).count, 0);
    const mine = await ok(a, "list_sessions");
    assertEquals(mine.count, 1);
    assertIncludes(JSON.stringify(mine), "basic.html");

    // No token, a wrong token, a foreign Origin: refused before any stream or message.
    const noToken = await fetch(`${base}/sse`);
    assertEquals(noToken.status, 401);
    await noToken.body?.cancel();
    const wrong = await fetch(`${base}/sse`, { headers: { authorization: "Bearer nope" } });
    assertEquals(wrong.status, 401);
    await wrong.body?.cancel();
    const foreign = await fetch(`${base}/sse`, {
      headers: { authorization: `Bearer ${TOKEN}`, origin: "http://evil.example" },
    });
    assertEquals(foreign.status, 403);
    await foreign.body?.cancel();
    const post = await fetch(`${base}/messages?sessionId=x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assertEquals(post.status, 401);
    await post.body?.cancel();
    // The token is right but the session is not this client's (or anyone's).
    const unknown = await fetch(`${base}/messages?sessionId=made-up`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assertEquals(unknown.status, 404);
    assertIncludes(await unknown.text(), "GET /sse");

    // Both streams are clients of the web console's hub, as /mcp clients are.
    const login = /web console: (\S+)/.exec(server.stderr())![1]!;
    const cookie = await loginCookie(login);
    const state = await (await fetch(`${base}/console/api/state`, { headers: { cookie } })).json();
    const views = state.sessions as Array<{ name: string | null; sessions: unknown[] }>;
    assertEquals(
      views.filter((v) => v.name === "browxai-sse-test").map((v) => v.sessions.length).sort(),
      [0, 1],
    );

    // A client whose stream ends is gone, with its browser sessions (as a DELETE on /mcp).
    const gauge = async (name: string) => {
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const m = new RegExp(`^${name} (\\d+)$`, "m").exec(await res.text());
      return Number(m?.[1]);
    };
    assertEquals([await gauge("browxai_mcp_clients"), await gauge("browxai_browser_sessions")], [
      2,
      1,
    ]);
    await a.close();
    await eventually(
      async () =>
        await gauge("browxai_mcp_clients") === 1 && await gauge("browxai_browser_sessions") === 0,
      10_000,
      "the closed SSE client and its session gone",
    );
    assertEquals((await ok(b, "list_sessions")).count, 0);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    await server.close();
    await fx.close();
  }
});

Deno.test("sse: the client limit counts SSE streams with /mcp sessions", async () => {
  const server = await startHttp({ env: { BROWX_HTTP_MAX_CLIENTS: "1" } });
  const base = server.url.replace(/\/mcp$/, "");
  let client: Client | undefined;
  try {
    const transport = new SSEClientTransport(new URL("/sse", base));
    client = new Client({ name: "browxai-sse-test", version: "0.0.0" }, clientOptions());
    await client.connect(transport);
    const second = await fetch(`${base}/sse`);
    assertEquals(second.status, 503);
    assertIncludes(await second.text(), "BROWX_HTTP_MAX_CLIENTS");
    // A Streamable HTTP client counts against the same limit.
    const init = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "x", version: "0" },
        },
      }),
    });
    assertEquals(init.status, 503);
    await init.body?.cancel();
  } finally {
    await client?.close().catch(() => {});
    await server.close();
  }
});

Deno.test("sse: a client that stops reading its stream is closed past the queue bound; others are served", async () => {
  // Every toolset: each tools/list answer is ~130 kB (ids are capped at 1,024 characters, so
  // big answers, not big ids, fill the queue).
  const server = await startHttp({ env: { BROWX_TOOLSETS: "all" } });
  const base = server.url.replace(/\/mcp$/, "");
  const pid = server.child.pid;
  const rssKb = () =>
    Number(/VmRSS:\s*(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))![1]);
  let good: Client | undefined;
  try {
    const res = await fetch(`${base}/sse`);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(first)![1];
    const post = (m: unknown) =>
      fetch(base + endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(m),
      });
    // The first POST (initialize) is bounded like /mcp's first body: 1 MiB.
    const bigInit = await post({
      jsonrpc: "2.0",
      id: "i".repeat(2 * 1024 * 1024),
      method: "initialize",
      params: {},
    });
    assertEquals(bigInit.status, 413);
    await bigInit.body?.cancel();
    const init = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2024-11-05",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    });
    assertEquals(init.status, 202);
    await init.body?.cancel();
    const baseline = rssKb();
    // From here on the client never reads: tools/list answers pile up on the stream.
    let refused = -1;
    for (let n = 1; n <= 400 && refused < 0; n++) {
      const r = await post({ jsonrpc: "2.0", id: n, method: "tools/list" });
      await r.body?.cancel();
      if (r.status === 404) refused = n;
    }
    // Closed once ~8 MiB waits (+ socket buffers), not after 400 answers (~50 MB).
    assertTrue(refused > 0 && refused < 300, `closed after ${refused} posts`);
    assertTrue(rssKb() - baseline < 400 * 1024, `RSS grew ${rssKb() - baseline} kB`);
    await reader.cancel().catch(() => {});
    // A client that reads is served.
    good = new Client({ name: "browxai-sse-test", version: "0.0.0" }, clientOptions());
    await good.connect(new SSEClientTransport(new URL("/sse", base)));
    assertTrue((await good.listTools()).tools.length > 0);
    assertEquals(await good.ping(), {});
  } finally {
    await good?.close().catch(() => {});
    await server.close();
  }
});
