/**
 * The HTTP wire's sessions: capped, abandoned handshakes expire, bound to their token; a port in
 * use ends the server; a cancelled call's response stream ends.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { ROOT, startHttp } from "./_mcp.ts";
import { join } from "./_paths.ts";
import { eventually } from "./_util.ts";
import { initializeRequest, type Wire } from "./_wire.ts";
import { parseAuditLog } from "../policy/audit.ts";
import { establish, head, initialize, messagesOf, portOf, post } from "./_http_raw.ts";

Deno.test("http: sessions are capped; abandoned initializes expire, established ones stay", async () => {
  const server = await startHttp({
    env: { BROWX_HTTP_MAX_CLIENTS: "3", BROWX_HTTP_INIT_TTL_MS: "2000" },
  });
  const stalled: Deno.Conn[] = [];
  try {
    // Uploads that never finish hold no slot: they cannot lock clients out.
    const port = portOf(server.url);
    for (let i = 0; i < 3; i++) {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      stalled.push(c);
      await c.write(head(port, { "Content-Length": "100" }));
    }
    const a = await server.connect();
    await initialize(server.url);
    await initialize(server.url);
    const full = await post(server.url, JSON.stringify(initializeRequest(1)));
    assertEquals(full.status, 503);
    assertIncludes(await full.text(), "BROWX_HTTP_MAX_CLIENTS");
    // The two abandoned handshakes expire; then there is room again.
    await eventually(
      async () => {
        const res = await post(server.url, JSON.stringify(initializeRequest(1)));
        await res.body?.cancel();
        return res.status === 200 ? true : undefined;
      },
      15_000,
      "room for a new client",
    );
    // The client that completed its handshake is still served.
    assertEquals((await a.ok("list_sessions")).count, 0);
  } finally {
    for (const c of stalled) c.close();
    await server.close();
  }
});

Deno.test("http: a session id is not enough: it answers only its own token", async () => {
  const server = await startHttp({ env: { BROWX_HTTP_TOKEN: "token-of-a, token-of-b" } });
  try {
    const asA = { authorization: "Bearer token-of-a" };
    const asB = { authorization: "Bearer token-of-b" };
    const session = await establish(server.url, asA);
    const list = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "list_sessions", arguments: {} },
    });
    const stolen = await post(server.url, list, { ...asB, "mcp-session-id": session });
    assertEquals(stolen.status, 404);
    assertIncludes(await stolen.text(), "initialize again");
    const none = await post(server.url, list, { "mcp-session-id": session });
    assertEquals(none.status, 401);
    await none.body?.cancel();
    const own = await post(server.url, list, { ...asA, "mcp-session-id": session });
    assertEquals(own.status, 200);
    assertEquals((await messagesOf(own))[0]!.id, 2);
    // The scheme is case-insensitive (RFC 7235); the token is not.
    for (const scheme of ["bearer", "BEARER"]) {
      const r = await post(server.url, list, {
        authorization: `${scheme} token-of-a`,
        "mcp-session-id": session,
      });
      assertEquals(r.status, 200, scheme);
      await r.body?.cancel();
    }
    const wrongCase = await post(server.url, list, {
      authorization: "Bearer TOKEN-OF-A",
      "mcp-session-id": session,
    });
    assertEquals(wrongCase.status, 401);
    await wrongCase.body?.cancel();
    // Each token is a principal of its own: B has a session of its own.
    const b = await server.connect(asB);
    assertEquals((await b.ok("list_sessions")).count, 0);
  } finally {
    await server.close();
  }
});

Deno.test("http: a port in use is an exit with the reason and code 1, not a hang", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const ws = await Deno.makeTempDir({ prefix: "browxai-wire-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        join(ROOT, "main.ts"),
        "--http",
        "--port",
        String((taken.addr as Deno.NetAddr).port),
      ],
      env: { BROWX_WORKSPACE: ws },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 1);
    assertIncludes(new TextDecoder().decode(out.stderr), "browxai: exiting: AddrInUse");
  } finally {
    taken.close();
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
});

/** Reads an SSE response as it streams: its messages so far, and whether it ended. */
function streamed(res: Response): { messages: Wire[]; ended: () => boolean } {
  assertEquals(res.status, 200);
  assertIncludes(res.headers.get("content-type") ?? "", "text/event-stream");
  const messages: Wire[] = [];
  let ended = false;
  (async () => {
    let rest = "";
    for await (const text of res.body!.pipeThrough(new TextDecoderStream())) {
      rest += text;
      let nl;
      while ((nl = rest.indexOf("\n")) !== -1) {
        const line = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        if (line.startsWith("data: ") && line.length > 6) messages.push(JSON.parse(line.slice(6)));
      }
    }
  })().catch(() => {}).finally(() => ended = true);
  return { messages, ended: () => ended };
}

Deno.test("http: a cancelled call's response stream ends; a batch's once its other calls are answered", async () => {
  const server = await startHttp();
  try {
    const session = await establish(server.url);
    const h = { "mcp-session-id": session };
    const call = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    // Runs 30 s unless cancelled.
    const waitFor = (id: number) =>
      call(id, "wait_for", { text: "never on this page", timeoutMs: 30_000 });
    const cancel = async (id: number) => {
      const res = await post(
        server.url,
        JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "the agent changed its mind" },
        }),
        h,
      );
      await res.body?.cancel();
      assertEquals(res.status, 202);
    };
    /** Resolves once `n` wait_for handlers started (their audit start lines). */
    const started = (n: number, seen: Wire[]) =>
      eventually(
        async () => {
          const dir = join(server.workspace, "audit");
          let text = "";
          for await (const f of Deno.readDir(dir)) {
            text += await Deno.readTextFile(join(dir, f.name));
          }
          return parseAuditLog(text).starts.filter((s) => s.tool === "wait_for").length >= n;
        },
        20_000,
        `${n} wait_for call(s) to start`,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; the stream had: ${JSON.stringify(seen)}`);
      });

    // One call, cancelled while it runs: no answer (MCP), and its stream ends.
    const one = streamed(await post(server.url, JSON.stringify(waitFor(7)), h));
    await started(1, one.messages);
    await cancel(7);
    await eventually(() => one.ended(), 15_000, "the cancelled call's stream to end");
    assertEquals(one.messages.filter((m) => m.id === 7), []);

    // A batch: the stream carries the other call's answer, and ends once the cancelled one is.
    const two = streamed(
      await post(server.url, JSON.stringify([waitFor(8), call(9, "list_sessions", {})]), h),
    );
    await started(2, two.messages);
    await eventually(() => two.messages.some((m) => m.id === 9), 15_000, "list_sessions' answer");
    assertTrue(!two.ended(), "the stream waits for the call still running");
    await cancel(8);
    await eventually(() => two.ended(), 15_000, "the batch's stream to end");
    assertEquals(two.messages.map((m) => m.id), [9]);

    // The ids of the ended streams are free again: a batch reusing them gets both answers
    // (the quick list_sessions answers first; nothing left of the old batch's answer to 9
    // may make its stream look complete before wait_for's answer).
    const again = await messagesOf(
      await post(
        server.url,
        JSON.stringify([
          call(9, "wait_for", { selector: "body", timeoutMs: 10_000 }),
          call(7, "list_sessions", {}),
        ]),
        h,
      ),
    );
    assertEquals(again.map((m) => m.id).sort(), [7, 9]);
  } finally {
    await server.close();
  }
});
