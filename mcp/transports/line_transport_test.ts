import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
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

/** A transport over a stream the test feeds by hand; the server side never answers unless told. */
function manual(
  options: { maxInFlight?: number; maxHeld?: number; maxQueuedBytes?: number } = {},
) {
  const enc = new TextEncoder();
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  let pulls = 0;
  const readable = new ReadableStream<Uint8Array>({
    start: (c) => void (ctl = c),
    pull: () => void pulls++,
  }, { highWaterMark: 0 });
  const written: Array<{ id?: unknown; error?: { code: number; message: string } }> = [];
  let release: (() => void) | undefined;
  let blocked = false;
  const t = new LineTransport({
    readable,
    write: async (b) => {
      if (blocked) await new Promise<void>((r) => release = r);
      for (const line of new TextDecoder().decode(b).split("\n")) {
        if (line) written.push(JSON.parse(line));
      }
    },
  }, options);
  const delivered: Array<{ id?: unknown; method?: string }> = [];
  t.onmessage = (m) => void delivered.push(m as { id?: unknown });
  const closed = new Promise<void>((r) => t.onclose = r);
  return {
    t,
    delivered,
    written,
    closed,
    feed: (text: string) => ctl.enqueue(enc.encode(text)),
    end: () => ctl.close(),
    pulls: () => pulls,
    block: () => void (blocked = true),
    unblock: () => {
      blocked = false;
      release?.();
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("LineTransport: a cancelled request is not waited for at EOF; a busy id is refused", async () => {
  const m = manual();
  await m.t.start();
  m.feed(`${ping(1)}\n${ping(1)}\n${ping(2)}\n`);
  while (m.delivered.length < 2 || !m.written.length) await tick();
  assertEquals(m.delivered.map((d) => d.id), [1, 2]);
  assertEquals(m.written[0]!.id, 1);
  assertEquals(m.written[0]!.error!.code, -32600);
  assertIncludes(m.written[0]!.error!.message, "id 1 is already in use");
  // Both cancelled: at EOF nothing is pending, so the transport closes without the 60 s wait.
  for (const id of [1, 2]) {
    m.feed(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id },
      }) + "\n",
    );
  }
  m.end();
  await m.closed;
  assertEquals(m.t.closeReason, { kind: "eof" });
  assertEquals(m.t.backlog.inFlight, 0);
});

Deno.test("LineTransport: a second initialize is refused with its id", async () => {
  const init = (id: number) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    });
  const r = await run([`${init(1)}\n${init(2)}\n`], 100_000);
  assertEquals(r.delivered.map((m) => (m as { id: number }).id), [1]);
  const reply = r.written[0] as { id: unknown; error: { code: number; message: string } };
  assertEquals([reply.id, reply.error.code], [2, -32600]);
  assertIncludes(reply.error.message, "already initialized");
});

Deno.test("LineTransport: an oversize notification is not answered", async () => {
  const big = JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/x",
    params: { pad: "a".repeat(5000) },
  });
  const r = await run([big + "\n" + ping(2) + "\n"]);
  assertEquals(r.delivered.map((m) => (m as { id: number }).id), [2]);
  assertEquals(r.written, []);
});

/** A request that counts against the in-flight cap (pings do not). */
const req = (id: number | string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } });
const cancelOf = (id: number | string) =>
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });

Deno.test("LineTransport: past maxInFlight requests wait in order; cancels, pings and notifications are read at once", async () => {
  const m = manual({ maxInFlight: 3 });
  await m.t.start();
  const ids = () => m.delivered.map((d) => d.id ?? d.method);
  m.feed([1, 2, 3, 4, 5].map(req).join("\n") + "\n");
  while (m.t.backlog.held < 2) await tick();
  assertEquals(ids(), [1, 2, 3]);
  // At the cap, reading goes on: a ping and a notification are handed on at once.
  m.feed(`${ping(9)}\n{"jsonrpc":"2.0","method":"notifications/x"}\n`);
  while (m.delivered.length < 5) await tick();
  assertEquals(ids(), [1, 2, 3, 9, "notifications/x"]);
  m.t.send({ jsonrpc: "2.0", id: 9, result: {} }).catch(() => {});
  // A cancel of a held request: it never runs, and gets no answer (MCP).
  m.feed(cancelOf(4) + "\n");
  while (m.t.backlog.held > 1) await tick();
  // A cancel of a running request is handed on, and frees its place for the held one.
  m.feed(cancelOf(1) + "\n");
  while (m.delivered.length < 8) await tick();
  assertEquals(ids().slice(5), ["notifications/cancelled", "notifications/cancelled", 5]);
  assertEquals(m.t.backlog, { queuedBytes: 0, inFlight: 3, held: 0 });
  // Answers free places too: the next request runs at once.
  m.t.send({ jsonrpc: "2.0", id: 2, result: {} }).catch(() => {});
  m.feed(req(6) + "\n");
  while (m.delivered.length < 9) await tick();
  assertEquals(ids().at(-1), 6);
  assertEquals(m.delivered.filter((d) => d.id === 4), []);
  assertEquals(m.written.filter((w) => w.error), []);
  // EOF waits for 3, 5 and 6 (running) only.
  m.end();
  for (const id of [3, 5, 6]) m.t.send({ jsonrpc: "2.0", id, result: {} }).catch(() => {});
  await m.closed;
  assertEquals(m.t.closeReason, { kind: "eof" });
  assertEquals(m.t.backlog.inFlight, 0);
});

Deno.test("LineTransport: reading stops while too many requests are held back or answers unwritten", async () => {
  const m = manual({ maxInFlight: 3, maxHeld: 2, maxQueuedBytes: 1000 });
  await m.t.start();
  m.feed(Array.from({ length: 10 }, (_, i) => req(i)).join("\n") + "\n");
  while (m.t.backlog.held < 2) await tick();
  const pulled = m.pulls();
  for (let i = 0; i < 20; i++) await tick();
  // Three in flight, two held back: nothing more handed on, nothing more read.
  assertEquals(m.delivered.length, 3);
  assertEquals(m.t.backlog.held, 2);
  assertEquals(m.pulls(), pulled);
  // Answers that the peer does not take: past 1000 bytes unwritten, nothing more runs.
  m.block();
  const long = { jsonrpc: "2.0" as const, result: { pad: "x".repeat(200) } };
  for (const d of [...m.delivered]) m.t.send({ ...long, id: d.id as number }).catch(() => {});
  while (m.delivered.length < 6) await tick();
  for (let i = 0; i < 20; i++) await tick();
  assertEquals(m.delivered.length, 6, "the three freed places only");
  for (const d of m.delivered.slice(3)) m.t.send({ ...long, id: d.id as number }).catch(() => {});
  for (let i = 0; i < 20; i++) await tick();
  assertTrue(m.t.backlog.queuedBytes > 1000);
  assertEquals(m.delivered.length, 6, "answers unwritten: nothing more runs");
  // The peer reads: everything flows, in order.
  m.unblock();
  while (m.delivered.length < 10) {
    for (const d of m.delivered) {
      if (!m.written.some((w) => w.id === d.id)) {
        m.t.send({ jsonrpc: "2.0", id: d.id as number, result: {} }).catch(() => {});
      }
    }
    await tick();
  }
  assertEquals(m.delivered.map((d) => d.id), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  m.end();
  for (const d of m.delivered.slice(6)) {
    m.t.send({ jsonrpc: "2.0", id: d.id as number, result: {} });
  }
  await m.closed;
  assertEquals(m.t.closeReason, { kind: "eof" });
});

Deno.test("LineTransport: answers sent while a write is under way go out together, in order", async () => {
  const writes: string[] = [];
  let release!: () => void;
  const first = new Promise<void>((r) => release = r);
  const t = new LineTransport({
    readable: new ReadableStream<Uint8Array>({ start: () => {} }),
    write: async (b) => {
      writes.push(new TextDecoder().decode(b));
      if (writes.length === 1) await first;
    },
  });
  const answer = (id: number) => t.send({ jsonrpc: "2.0", id, result: {} });
  const sent = [answer(1)];
  while (!writes.length) await tick();
  // The first write is under way: these three wait for it, then go in one write.
  sent.push(answer(2), answer(3), answer(4));
  release();
  await Promise.all(sent);
  assertEquals(writes.length, 2);
  const ids = writes.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
  assertEquals(ids, [1, 2, 3, 4]);
  await t.close();
});
