/**
 * Who may use the web console (issue 15): no token, a wrong token or cookie, a wrong Origin or
 * Host are refused on every route and the live socket; off loopback the `--http` bearer tokens
 * do not open it (the printed URL does); malformed live-socket messages are answered and survived.
 *
 * @module
 */
import { assertEquals, assertTrue as assert } from "./_assert.ts";
import {
  loginCookie,
  openSocket,
  rawRequest,
  startConsoleStdio,
  upgradeStatus,
} from "./_console.ts";
import { startHttp } from "./_mcp.ts";
import { eventually } from "./_util.ts";

function assertMatch(text: string, re: RegExp): void {
  assert(re.test(text), `expected ${re} in: ${text.slice(0, 500)}`);
}

Deno.test("console: no token, a wrong token or a wrong cookie get 401 and nothing else, on every route and the socket", async () => {
  const server = await startConsoleStdio();
  try {
    const b = server.base;
    const routes: Array<[string, string]> = [
      ["GET", "/"],
      ["GET", "/console"],
      ["GET", "/console/console.js"],
      ["GET", "/console/console.css"],
      ["GET", "/console/api/state"],
      ["POST", "/console/api/message"],
      ["GET", "/console/live"],
      ["GET", "/console/nothing-here"],
      ["GET", "/console?token=wrong"],
      ["GET", "/?token="],
    ];
    for (
      const cookie of [undefined, "browx_console_1=abc", `browx_console_${new URL(b).port}=00ff`]
    ) {
      for (const [method, path] of routes) {
        const r = await fetch(`${b}${path}`, {
          method,
          redirect: "manual",
          headers: {
            ...(cookie ? { cookie } : {}),
            origin: b,
            "content-type": "application/json",
          },
          ...(method === "POST" ? { body: '{"type":"ping"}' } : {}),
        });
        const body = await r.text();
        assertEquals(r.status, 401, `${method} ${path} (cookie ${cookie}): ${body}`);
        assertEquals(r.headers.get("set-cookie"), null);
        assertEquals(Object.keys(JSON.parse(body)), ["error"]);
        assert(!/<html|sessions|activity/i.test(body), body);
      }
      const up = await upgradeStatus(b, { origin: b, ...(cookie ? { cookie } : {}) });
      assertEquals(up.status, 401, `socket upgrade: ${up.body}`);
    }
    // The right token logs in; the cookie then opens every route.
    const cookie = await loginCookie(server.url);
    const page = await fetch(`${b}/console`, { headers: { cookie } });
    assertEquals(page.status, 200);
    assertMatch(await page.text(), /<script type="module" src="\/console\/console.js">/);
    assertEquals(page.headers.get("x-content-type-options"), "nosniff");
    assertMatch(
      page.headers.get("content-security-policy") ?? "",
      /default-src 'self'.*frame-ancestors 'none'/,
    );
    const state = await fetch(`${b}/console/api/state`, { headers: { cookie } });
    assertEquals(state.headers.get("cache-control"), "no-store");
    assert(Array.isArray((await state.json()).sessions));
  } finally {
    await server.close();
  }
});

Deno.test("console: a wrong or missing Origin on POST and on the socket upgrade is refused; a foreign Host too", async () => {
  const server = await startConsoleStdio();
  try {
    const b = server.base;
    const cookie = await loginCookie(server.url);
    const post = (headers: Record<string, string>, body = '{"type":"ping"}') =>
      fetch(`${b}/console/api/message`, { method: "POST", headers: { cookie, ...headers }, body });
    for (const origin of ["http://evil.example", `${b}0`, "null"]) {
      const r = await post({ origin });
      assertEquals(r.status, 403, await r.text());
      const up = await upgradeStatus(b, { cookie, origin });
      assertEquals(up.status, 403, up.body);
    }
    const none = await post({});
    assertEquals(none.status, 403, await none.text());
    assertEquals((await upgradeStatus(b, { cookie })).status, 403);
    // DNS rebinding: a page of another name resolving to 127.0.0.1.
    const rebound = await rawRequest(b, {
      path: "/console/api/state",
      headers: { cookie, host: "evil.example" },
    });
    assertEquals(rebound.status, 403, rebound.body);
    assertEquals(
      (await upgradeStatus(b, { cookie, origin: "http://evil.example", host: "evil.example" }))
        .status,
      403,
    );
    // The own Origin is accepted, and bad bodies get clear JSON errors.
    const ok = await post({ origin: b }, '{"type":"ping","data":7}');
    assertEquals(await ok.json(), { type: "pong", data: 7 });
    for (
      const [body, status] of [["{", 400], ["[]", 400], ['{"type":3}', 400], [
        '{"type":"nope"}',
        400,
      ], ['{"type":"watch"}', 400]] as const
    ) {
      const r = await post({ origin: b }, body);
      assertEquals(r.status, status, body);
      assert(typeof (await r.json()).error === "string");
    }
    const big = await post(
      { origin: b },
      JSON.stringify({ type: "ping", data: "x".repeat(70_000) }),
    );
    assertEquals(big.status, 413);
    const get = await fetch(`${b}/console/api/message`, { headers: { cookie } });
    assertEquals(get.status, 405);
    await get.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("console: malformed socket messages get errors; the socket and other viewers stay usable", async () => {
  const server = await startConsoleStdio();
  try {
    const b = server.base;
    const cookie = await loginCookie(server.url);
    const a = await openSocket(b, { cookie, origin: b });
    const other = await openSocket(b, { cookie, origin: b });
    try {
      await a.next((m) => m.type === "state");
      const bad: unknown[] = [
        "not json",
        "[1,2]",
        "null",
        '"text"',
        '{"no":"type"}',
        '{"type":42}',
        '{"type":""}',
        '{"type":"no-such-type"}',
        '{"type":"watch","session":"default"}',
        '{"type":"watch","session":{"client":"stdio","session":"nope"}}',
        '{"type":"watch","session":{"client":1,"session":[]}}',
        JSON.stringify({ type: "ping", data: "x".repeat(70_000) }),
      ];
      for (const msg of bad) {
        const from = a.messages.length;
        a.send(msg);
        const e = await a.next((m) => m.type === "error", { from });
        assert(typeof e.error === "string" && e.error.length > 0, JSON.stringify(e));
      }
      const from = a.messages.length;
      a.ws.send(new Uint8Array([1, 2, 3]));
      await a.next((m) => m.type === "error", { from });
      // Still open and answering, with the request's id echoed.
      a.send({ type: "ping", id: "r1" });
      assertEquals(await a.next((m) => m.type === "pong"), { type: "pong", id: "r1" });
      other.send({ type: "ping" });
      await other.next((m) => m.type === "pong");
      assertEquals(a.ws.readyState, WebSocket.OPEN);
      assertEquals(other.ws.readyState, WebSocket.OPEN);
      assert(!other.messages.some((m) => m.type === "error"));
    } finally {
      a.close();
      other.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("console (--http off loopback): the printed URL opens the console; the bearer tokens of /mcp do not", async () => {
  const http = await startHttp({
    args: ["--host", "0.0.0.0"],
    env: { BROWX_HTTP_TOKEN: "s3cret-token" },
  });
  try {
    const m = await eventually(
      () => /web console: http:\/\/0\.0\.0\.0(:\d+)\/console\?token=(\w+)/.exec(http.stderr()),
      10_000,
      "the console URL",
    );
    const base = `http://127.0.0.1${m[1]}`;
    const state = (headers: Record<string, string>) =>
      fetch(`${base}/console/api/state`, { headers });
    for (
      const headers of [
        {},
        { authorization: "Bearer nope" },
        { authorization: "s3cret-token" },
        // The agent's own credential: the console answers its confirms (tests/console_attack).
        { authorization: "Bearer s3cret-token" },
      ]
    ) {
      const r = await state(headers);
      assertEquals(r.status, 401, JSON.stringify(headers));
      await r.body?.cancel();
    }
    // The printed token URL logs a browser (or a script) in.
    const cookie = await loginCookie(`${base}/console?token=${m[2]}`);
    const ok = await state({ cookie });
    assertEquals(ok.status, 200);
    assert(Array.isArray((await ok.json()).sessions));
    const s = await openSocket(base, { cookie, origin: base });
    await s.next((msg) => msg.type === "state");
    s.close();
    for (const token of ["nope", "s3cret-token"]) {
      assertEquals(
        (await upgradeStatus(base, { authorization: `Bearer ${token}`, origin: base })).status,
        401,
      );
    }
  } finally {
    await http.close();
  }
});
