/**
 * MCP Streamable HTTP: clients get their own MCP sessions and browser
 * sessions, Host/Origin are checked, non-loopback binds need a token.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startHttp, textOf } from "./_mcp.ts";
import { checkHostAndOrigin } from "../mcp/transports/http_admission.ts";
import { isLoopback } from "../policy/hosts.ts";

Deno.test("http: two clients, each with its own sessions", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp();
  try {
    assertTrue(server.url.startsWith("http://127.0.0.1:"));
    const a = await server.connect();
    const b = await server.connect();
    await a.ok("open_session", { session: "mine", url: fx.url("basic.html") });
    const snap = await a.ok("snapshot", { session: "mine" });
    assertIncludes(String(snap.tree), "# Basic page");
    const other = await b.call("snapshot", { session: "mine" });
    assertEquals(other.isError, true);
    assertIncludes(textOf(other), 'Unknown session "mine"');
    assertEquals((await b.ok("list_sessions")).count, 0);
    assertEquals((await a.ok("list_sessions")).count, 1);
    // Bad input over HTTP is an error result, and the server keeps serving.
    const bad = await a.call("navigate", { url: 42 });
    assertEquals(bad.isError, true);
    await a.ok("navigate", { session: "mine", url: fx.url("basic.html"), snapshot: "none" });
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("http: foreign Host and Origin are refused (DNS rebinding)", async () => {
  const server = await startHttp();
  try {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    };
    const post = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(init),
      });
    const evil = await post({ origin: "http://evil.example" });
    assertEquals(evil.status, 403);
    await evil.body?.cancel();
    const ok = await post({ origin: "http://localhost:3000" });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
    // A Host that is a list (no fetch sends one: a raw request) is refused, not a server error.
    const port = new URL(server.url).port;
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    const body = JSON.stringify(init);
    await conn.write(new TextEncoder().encode(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}, evil.example\r\n` +
        `content-type: application/json\r\naccept: application/json, text/event-stream\r\n` +
        `content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
    ));
    const raw = new TextDecoder().decode(
      await new Response(conn.readable).arrayBuffer(),
    );
    assertEquals(raw.split("\r\n")[0], "HTTP/1.1 400 Bad Request", raw);
    const noSession = await fetch(server.url, { method: "GET" });
    assertEquals(noSession.status, 400);
    await noSession.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("http: Host and Origin rules", () => {
  assertEquals(isLoopback("127.0.0.1"), true);
  assertEquals(isLoopback("[::1]"), true);
  assertEquals(isLoopback("example.com"), false);
  const cases: [string, string | null, string | null, boolean][] = [
    ["127.0.0.1", "127.0.0.1:8080", null, true],
    ["127.0.0.1", "localhost:8080", "http://localhost:8080", true],
    ["127.0.0.1", "evil.example:8080", null, false],
    ["127.0.0.1", "127.0.0.1:8080", "http://evil.example", false],
    ["127.0.0.1", "127.0.0.1:8080", "null", false],
    ["127.0.0.1", null, null, false],
    ["0.0.0.0", "10.1.2.3:8080", "http://10.1.2.3:8080", true],
    ["0.0.0.0", "10.1.2.3:8080", "http://evil.example", false],
    ["127.0.0.1", "127.attacker.example:8080", "http://127.attacker.example:8080", false],
    ["127.0.0.1", "127.0.0.1.nip.io:8080", null, false],
    ["127.0.0.1", "127.0.0.2:8080", null, true],
    ["127.0.0.1", "[::1]:8080", null, true],
    ["127.0.0.1", "127.0.0.1:8080, evil.example", null, false],
    ["127.0.0.1", "127.0.0.1:8080/x", null, false],
  ];
  for (const [bind, host, origin, allowed] of cases) {
    assertEquals(
      checkHostAndOrigin(bind, host, origin) === undefined,
      allowed,
      `${bind} ${host} ${origin}`,
    );
  }
});

Deno.test("http: a non-loopback bind requires the bearer token", async () => {
  const server = await startHttp({
    args: ["--host", "0.0.0.0"],
    env: { BROWX_HTTP_TOKEN: "s3cret-token" },
  });
  try {
    const url = server.url.replace("0.0.0.0", "127.0.0.1");
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assertEquals(res.status, 401);
    await res.body?.cancel();
    const client = await server.connect({ authorization: "Bearer s3cret-token" });
    const listed = await client.ok("list_sessions");
    assertEquals(listed.count, 0);
    const wrong = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer nope" },
      body: "{}",
    });
    assertEquals(wrong.status, 401);
    await wrong.body?.cancel();
  } finally {
    await server.close();
  }
});
