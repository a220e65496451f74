/**
 * The HTTP wire under attack: malformed JSON-RPC is answered correctly,
 * bodies are bounded before they are read, slow bodies time out, abandoned
 * handshakes expire, sessions are capped and bound to their token.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { MALFORMED } from "./_malformed.ts";
import { startHttp } from "./_mcp.ts";
import { eventually } from "./_util.ts";
import { initializeRequest, type RawResponse, readResponse, type Wire } from "./_wire.ts";

const MiB = 1024 * 1024;
const ACCEPT = "application/json, text/event-stream";

/** The JSON-RPC messages of a response: a JSON body or the `data:` lines of an SSE stream. */
async function messagesOf(res: Response): Promise<Wire[]> {
  const text = await res.text();
  if (!text) return [];
  if (res.headers.get("content-type")?.includes("text/event-stream")) {
    return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** POSTs raw text to /mcp (with a session when given). */
function post(url: string, text: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: text,
  });
}

/** Initializes a client over raw HTTP; returns its session id. */
async function initialize(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await post(url, JSON.stringify(initializeRequest(1)), headers);
  const id = res.headers.get("mcp-session-id");
  await res.body?.cancel();
  assertEquals(res.status, 200, `initialize: HTTP ${res.status}`);
  return id!;
}

/** Completes a handshake: the session is then established (not an abandoned initialize). */
async function establish(url: string, headers: Record<string, string> = {}): Promise<string> {
  const session = await initialize(url, headers);
  const res = await post(
    url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    { ...headers, "mcp-session-id": session },
  );
  await res.body?.cancel();
  assertEquals(res.status, 202);
  return session;
}

const portOf = (url: string) => Number(new URL(url).port);

/** A raw POST head for /mcp. */
function head(port: number, extra: Record<string, string>): Uint8Array {
  const lines = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    `Accept: ${ACCEPT}`,
    "Mcp-Protocol-Version: 2025-06-18",
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
}

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
