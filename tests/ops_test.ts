/**
 * Issue 16 "Beyond one machine", per instance, over a real `--http` server and Chromium:
 * /healthz, /readyz and /metrics; BROWX_MAX_SESSIONS with its queue and `busy`; idle sessions
 * reaped and their client told why; SIGTERM drains (calls in flight finish, new ones get 503,
 * exit 0).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type HttpProcess, startHttp, textOf, type ToolResult } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { sample } from "./_metrics.ts";

type R = Record<string, unknown>;

/** GETs an ops route of `server` (the MCP URL with another path). */
async function get(
  server: HttpProcess,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const r = await fetch(new URL(path, server.url), { headers });
  return { status: r.status, body: await r.text() };
}

async function metricsOf(server: HttpProcess, token?: string): Promise<string> {
  const r = await get(server, "/metrics", token ? { authorization: `Bearer ${token}` } : {});
  assertEquals(r.status, 200, r.body);
  return r.body;
}

const errorOf = (r: ToolResult) => {
  assertEquals(r.isError, true, textOf(r));
  return (r.structuredContent as R).error as { code: string; message: string; hint: string };
};

Deno.test("ops: healthz and readyz answer without a token, metrics need it and count calls", async () => {
  const fx = await startFixtureServer();
  const token = "ops-test-token";
  const server = await startHttp({ env: { BROWX_HTTP_TOKEN: token } });
  try {
    const health = await get(server, "/healthz");
    assertEquals([health.status, health.body], [200, "ok\n"]);
    const ready = await get(server, "/readyz");
    assertEquals([ready.status, ready.body], [200, "ready\n"]);
    const anonymous = await get(server, "/metrics");
    assertEquals(anonymous.status, 401);
    const wrong = await get(server, "/metrics", { authorization: "Bearer nope" });
    assertEquals(wrong.status, 401);

    const a = await server.connect({ authorization: `Bearer ${token}` });
    await a.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    await a.ok("snapshot");
    const bad = await a.call("click", { ref: "e999" });
    const code = errorOf(bad).code;
    const m = await metricsOf(server, token);
    assertEquals(sample(m, "browxai_calls_total", { tool: "navigate", outcome: "ok" }), 1);
    assertEquals(sample(m, "browxai_calls_total", { tool: "snapshot", outcome: "ok" }), 1);
    assertEquals(sample(m, "browxai_calls_total", { tool: "click", outcome: code }), 1);
    assertEquals(sample(m, "browxai_call_duration_seconds_count", { tool: "navigate" }), 1);
    assertEquals(sample(m, "browxai_mcp_clients"), 1);
    assertEquals(sample(m, "browxai_browser_sessions"), 1);
    assertEquals(sample(m, "browxai_calls_in_flight"), 0);
    assertTrue(sample(m, "browxai_browser_launches_total") >= 1, m);
    assertEquals(sample(m, "browxai_browser_crashes_total"), 0);
    // The routes say nothing of clients or sessions.
    assertEquals(health.body.includes("session"), false);
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("ops: BROWX_MAX_SESSIONS queues opens, then answers busy", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({
    env: { BROWX_MAX_SESSIONS: "1", BROWX_SESSION_QUEUE: "1", BROWX_SESSION_WAIT_MS: "60000" },
  });
  try {
    const [a, b, c] = [await server.connect(), await server.connect(), await server.connect()];
    await a.ok("open_session", { session: "x", url: fx.url("basic.html") });
    // b waits in the queue for a's slot; c finds the queue full.
    const waiting = b.call("open_session", { session: "y", url: fx.url("basic.html") });
    await eventually(async () => sample(await metricsOf(server), "browxai_session_queue") === 1);
    const e = errorOf(await c.call("open_session", { session: "z" }));
    assertEquals(e.code, "busy", e.message);
    assertIncludes(e.message, "1 of 1 browser sessions are open");
    assertIncludes(e.hint, "close_session");
    // The default session takes a slot too.
    assertEquals(errorOf(await c.call("navigate", { url: fx.url("basic.html") })).code, "busy");
    await a.ok("close_session", { session: "x" });
    const y = await waiting;
    assertEquals(y.isError, undefined, textOf(y));
    const m = await metricsOf(server);
    assertEquals(sample(m, "browxai_busy_refusals_total"), 2);
    assertEquals(sample(m, "browxai_browser_sessions"), 1);
    // The wait is bounded by the call's budget too.
    const late = errorOf(await c.call("open_session", { session: "z", timeoutMs: 500 }));
    assertEquals(late.code, "timeout", late.message);
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("ops: an idle session is reaped and its client told why on its next call", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({ env: { BROWX_SESSION_IDLE_MS: "1500" } });
  try {
    const a = await server.connect();
    await a.ok("open_session", { session: "s", url: fx.url("basic.html") });
    await eventually(
      async () => sample(await metricsOf(server), "browxai_sessions_reaped_total") === 1,
      15_000,
      "the idle session to be reaped",
    );
    // Its slot is free once its close finished.
    await eventually(async () => sample(await metricsOf(server), "browxai_browser_sessions") === 0);
    const e = errorOf(await a.call("snapshot", { session: "s" }));
    assertEquals(e.code, "unknown-session");
    assertIncludes(e.message, "BROWX_SESSION_IDLE_MS");
    assertIncludes(e.hint, "open_session");
    // Told once; then it is an unknown name like any other.
    const again = errorOf(await a.call("snapshot", { session: "s" }));
    assertEquals(again.message.includes("BROWX_SESSION_IDLE_MS"), false, again.message);
    // A session in use is not reaped while its call runs past the idle time.
    const slow = await a.call("navigate", { url: fx.url("slow?ms=2500"), snapshot: "none" });
    assertEquals(slow.isError, undefined, textOf(slow));
  } finally {
    await server.close();
    await fx.close();
  }
});

Deno.test("ops: SIGTERM drains: the call in flight finishes, new ones get 503, exit 0", async () => {
  const fx = await startFixtureServer();
  const server = await startHttp({ env: { BROWX_DRAIN_MS: "20000" } });
  try {
    const a = await server.connect();
    await a.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const inFlight = a.call("navigate", { url: fx.url("slow?ms=2500"), snapshot: "none" });
    await eventually(async () => sample(await metricsOf(server), "browxai_calls_in_flight") === 1);
    server.child.kill("SIGTERM");
    await eventually(async () => (await get(server, "/readyz")).status === 503, 5000, "readyz 503");
    assertIncludes((await get(server, "/readyz")).body, "draining");
    const late = await fetch(server.url, {
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
          clientInfo: { name: "t", version: "0" },
        },
      }),
    });
    assertEquals(late.status, 503);
    assertIncludes(await late.text(), "draining");
    const r = await inFlight;
    assertEquals(r.isError, undefined, textOf(r));
    const status = await server.child.status;
    assertEquals(status.code, 0, server.stderr());
    assertIncludes(server.stderr(), "drained (0 calls unfinished)");
  } finally {
    await server.close();
    await fx.close();
  }
});
