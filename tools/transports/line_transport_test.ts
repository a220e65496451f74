import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { LineTransport } from "./line_transport.ts";

/** Runs a transport over `chunks`; returns what it delivered and what it wrote back. */
async function run(chunks: string[], maxMessageBytes = 1000) {
  const enc = new TextEncoder();
  const readable = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
  const written: unknown[] = [];
  const t = new LineTransport({
    readable,
    write: (b) => {
      for (const line of new TextDecoder().decode(b).split("\n")) {
        if (line) written.push(JSON.parse(line));
      }
      return Promise.resolve();
    },
  }, { maxMessageBytes });
  const delivered: unknown[] = [];
  t.onmessage = (m) => {
    delivered.push(m);
    // Answered as the server would: a transport waits for answers before it closes at EOF.
    const id = (m as { id?: string | number }).id;
    if (id !== undefined) t.send({ jsonrpc: "2.0", id, result: {} }).catch(() => {});
  };
  const closed = new Promise<void>((r) => t.onclose = r);
  await t.start();
  await closed;
  const errors = written.filter((w) => (w as { error?: unknown }).error);
  return { delivered, written: errors, reason: t.closeReason };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

Deno.test("LineTransport: splits lines across and within chunks, CRLF and blank lines", async () => {
  const text = `${ping(1)}\r\n\n${ping(2)}\n${ping(3)}`;
  for (const size of [1, 7, 1000]) {
    const chunks = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const r = await run(chunks);
    assertEquals(r.delivered.map((m) => (m as { id: number }).id), [1, 2, 3], `chunks of ${size}`);
    assertEquals(r.written, []);
    assertEquals(r.reason, { kind: "eof" });
  }
});

Deno.test("LineTransport: an oversize line is skipped and answered; the next one is served", async () => {
  const big = JSON.stringify({
    jsonrpc: "2.0",
    method: "tools/call",
    params: { name: "x", arguments: { pad: "a".repeat(5000) } },
    id: "big",
  });
  const r = await run([big.slice(0, 3000), big.slice(3000) + "\n" + ping(2) + "\n"]);
  assertEquals(r.delivered.map((m) => (m as { id: number }).id), [2]);
  const reply = r.written[0] as { id: unknown; error: { code: number; message: string } };
  assertEquals([reply.id, reply.error.code], ["big", -32600]);
  assertIncludes(reply.error.message, "at most 1000 bytes");
});
