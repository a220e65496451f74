/**
 * The HTTP wire under attack: malformed JSON-RPC is answered correctly,
 * bodies are bounded before they are read, slow bodies and heads time out. Sessions (capped,
 * expiring, bound to their token) are in wire_http_sessions_test.ts.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { MALFORMED } from "./_malformed.ts";
import { startHttp } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { initializeRequest, type RawResponse, readResponse, type Wire } from "./_wire.ts";
import { establish, head, messagesOf, portOf, post } from "./_http_raw.ts";

const MiB = 1024 * 1024;
Deno.test("http: every malformed request with an id gets the right error", async () => {
  const server = await startHttp();
  try {
    const session = await establish(server.url);
    const withSession = { "mcp-session-id": session };
    for (const c of MALFORMED) {
      const res = await post(server.url, c.text, withSession);
      const got = await messagesOf(res);
      if (c.expect === "none") {
        assertEquals([res.status, got], [202, []], c.name);
        continue;
      }
      assertEquals(got.length, 1, `${c.name}: ${JSON.stringify(got)}`);
      assertEquals(got[0]!.id, c.expect.id, c.name);
      assertEquals((got[0]!.error as { code: number }).code, c.expect.code, c.name);
    }
    // A batch is served member by member; one with a refused member is refused whole, by id.
    const ok = await messagesOf(
      await post(
        server.url,
        JSON.stringify([
          { jsonrpc: "2.0", id: 30, method: "ping" },
          { jsonrpc: "2.0", id: 31, method: "no/such" },
        ]),
        withSession,
      ),
    );
    const byId = (a: Wire, b: Wire) => Number(a.id) - Number(b.id);
    assertEquals(ok.sort(byId).map((m) => [m.id, (m.error as { code?: number })?.code]), [
      [30, undefined],
      [31, -32601],
    ]);
    const refused = await messagesOf(
      await post(
        server.url,
        JSON.stringify([
          { jsonrpc: "2.0", id: 32, method: "ping" },
          { jsonrpc: "2.0", id: 33, method: "tools/call", params: {} },
        ]),
        withSession,
      ),
    );
    assertEquals(refused.map((m) => [m.id, (m.error as { code: number }).code]), [
      [33, -32602],
      [32, -32600],
    ]);
    // A second initialize in a session is refused by id.
    const again = await messagesOf(
      await post(server.url, JSON.stringify(initializeRequest(41)), withSession),
    );
    assertEquals([again[0]!.id, (again[0]!.error as { code: number }).code], [41, -32600]);
    // Before initialize: the same gate, and a request that is not initialize is refused by id.
    const early = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }));
    assertEquals(early.status, 400);
    assertEquals((await messagesOf(early))[0]!.id, 7);
    assertEquals(
      ((await messagesOf(await post(server.url, "{oops")))[0]!.error as { code: number }).code,
      -32700,
    );
    // Still serving.
    const listed = await messagesOf(
      await post(
        server.url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 40,
          method: "tools/call",
          params: { name: "list_sessions", arguments: {} },
        }),
        withSession,
      ),
    );
    assertEquals(
      (listed[0]!.result as { structuredContent: { count: number } }).structuredContent.count,
      0,
    );
    assertTrue(!server.stderr().includes("-32603"));
  } finally {
    await server.close();
  }
});

/** Sends `bytes` on a connection unless a response came first; true when all were sent. */
async function sendUnlessAnswered(
  conn: Deno.Conn,
  answered: Promise<unknown>,
  chunks: Iterable<Uint8Array>,
  pauseMs = 0,
): Promise<{ sent: number; all: boolean }> {
  let done = false;
  answered.then(() => done = true, () => done = true);
  let sent = 0;
  for (const chunk of chunks) {
    if (done) return { sent, all: false };
    const wrote = await Promise.race([
      conn.write(chunk).then(() => true, () => false),
      answered.then(() => false, () => false),
    ]);
    if (!wrote) return { sent, all: false };
    sent += chunk.length;
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  }
  return { sent, all: true };
}

function* repeat(chunk: Uint8Array, times: number): Generator<Uint8Array> {
  for (let i = 0; i < times; i++) yield chunk;
}

Deno.test("http: oversize bodies are refused before they are read", async () => {
  const server = await startHttp({ env: { BROWX_HTTP_BODY_TIMEOUT_MS: "600000" } });
  const port = portOf(server.url);
  const conns: Deno.Conn[] = [];
  const open = async () => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(c);
    return c;
  };
  try {
    // 300 MB declared before initialize: answered 413 with not one body byte sent.
    const pre = await open();
    await pre.write(head(port, { "Content-Length": String(300_000_000) }));
    const preRes = await readResponse(pre);
    assertEquals(preRes?.status, 413);
    assertIncludes(preRes!.body, "1 MiB");

    // With a session, over 96 MiB declared: the same.
    const session = await establish(server.url);
    const big = await open();
    await big.write(
      head(port, { "Content-Length": String(200 * MiB), "Mcp-Session-Id": session }),
    );
    assertEquals((await readResponse(big))?.status, 413);

    // A chunked body (no Content-Length) before initialize: cut off past 1 MiB, answered while
    // the client still has most of its 64 MiB to send.
    const chunked = await open();
    await chunked.write(head(port, { "Transfer-Encoding": "chunked" }));
    const answered = readResponse(chunked);
    const piece = new TextEncoder().encode(`10000\r\n${"a".repeat(0x10000)}\r\n`);
    const sent = await sendUnlessAnswered(chunked, answered, repeat(piece, 1024));
    assertEquals((await answered)?.status, 413);
    assertTrue(!sent.all, `sent all ${sent.sent} bytes before the answer`);

    // 40 sockets declaring 50 MB each and sending 8 MiB of it (320 MiB in all): the server
    // holds at most its budget of body bytes in flight (192 MiB); past it, bodies are dropped
    // (503). The ones it holds would wait for the body timeout: not waited for here.
    const many = await Promise.all(Array.from({ length: 40 }, open));
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let some503!: () => void;
    const seen503 = new Promise<void>((r) => some503 = r);
    const answers = await Promise.all(many.map(async (c) => {
      await c.write(
        head(port, { "Content-Length": String(50_000_000), "Mcp-Session-Id": session }),
      );
      let status = "pending" as number | string | undefined;
      const answered = readResponse(c).then((r) => {
        status = r?.status;
        if (status === 503) some503();
      });
      await sendUnlessAnswered(c, answered, repeat(chunk, 128));
      await Promise.race([answered, seen503]);
      return status;
    }));
    assertTrue(answers.includes(503), `answers: ${answers.join(",")}`);
    assertTrue(answers.every((s) => s === 503 || s === "pending"), `answers: ${answers.join(",")}`);

    // Once those clients are gone, their bytes are given back: still serving.
    for (const c of many) c.close();
    await eventually(
      async () => {
        const res = await post(server.url, JSON.stringify(initializeRequest(1)));
        await res.body?.cancel();
        return res.status === 200 ? true : undefined;
      },
      30_000,
      "the budget to be given back",
    );
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed already */ }
    }
    await server.close();
  }
});

Deno.test("http: slow and stalled bodies time out (408)", async () => {
  const server = await startHttp({ env: { BROWX_HTTP_BODY_TIMEOUT_MS: "1000" } });
  const port = portOf(server.url);
  const conns: Deno.Conn[] = [];
  try {
    const session = await establish(server.url);
    // Slowloris: one body byte every 100 ms of a 1000-byte body (it would take 100 s).
    const slow = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(slow);
    await slow.write(head(port, { "Content-Length": "1000", "Mcp-Session-Id": session }));
    const answered = readResponse(slow);
    const sent = await sendUnlessAnswered(
      slow,
      answered,
      repeat(new Uint8Array([0x20]), 1000),
      100,
    );
    const res = await answered as RawResponse;
    assertEquals(res.status, 408);
    assertIncludes(res.body, "did not arrive within 1000 ms");
    assertTrue(!sent.all);

    // Half-open: the head, then nothing.
    const stalled = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(stalled);
    await stalled.write(head(port, { "Content-Length": "100" }));
    assertEquals((await readResponse(stalled))?.status, 408);

    // Deno.serve bounds the header block itself (hyper): a 1 MiB header is refused at once.
    const fat = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(fat);
    await fat.write(head(port, { "X-Fat": "a".repeat(MiB), "Content-Length": "2" }));
    const fatRes = await readResponse(fat);
    assertTrue(fatRes === undefined || fatRes.status === 400 || fatRes.status === 431);

    await establish(server.url);
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await server.close();
  }
});

Deno.test("http: slow and half-open request heads time out (408); one request per connection", async () => {
  const server = await startHttp({ env: { BROWX_HTTP_HEAD_TIMEOUT_MS: "1000" } });
  const port = portOf(server.url);
  const conns: Deno.Conn[] = [];
  const connect = async () => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(c);
    return c;
  };
  try {
    // Slowloris in the head: one header byte every 100 ms (it would take 30 s).
    const slow = await connect();
    const answered = readResponse(slow);
    const line = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${"a".repeat(300)}`;
    const sent = await sendUnlessAnswered(
      slow,
      answered,
      [...new TextEncoder().encode(line)].map((b) => new Uint8Array([b])),
      100,
    );
    assertEquals((await answered)?.status, 408);
    assertTrue(!sent.all, "answered while the head was still arriving");

    // Half-open: connected, nothing sent.
    const silent = await connect();
    assertEquals((await readResponse(silent))?.status, 408);

    // A whole request is answered with Connection: close, and the connection ends there: no
    // second head can dawdle on a kept-alive socket.
    const once = await connect();
    await once.write(
      new TextEncoder().encode(
        `GET /nope HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`,
      ),
    );
    const first = await readResponse(once);
    assertEquals(first?.status, 404);
    assertEquals(first?.headers["connection"], "close");
    assertEquals(await once.read(new Uint8Array(16)).catch(() => null), null, "closed after one");

    // The server still serves.
    await establish(server.url);
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await server.close();
  }
});
