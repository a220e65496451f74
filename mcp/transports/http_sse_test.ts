import { assertEquals, assertRejects } from "../../tests/_assert.ts";
import { SseTransport } from "./http_sse.ts";

Deno.test("SseTransport: the endpoint event first, then messages; the client leaving ends it once", async () => {
  const t = new SseTransport("/messages");
  let gone = 0;
  let closed = 0;
  t.onGone = () => gone++;
  t.onclose = () => closed++;
  const reader = t.response.body!.pipeThrough(new TextDecoderStream()).getReader();
  await t.start();
  assertEquals(
    (await reader.read()).value,
    `event: endpoint\ndata: /messages?sessionId=${t.sessionId}\n\n`,
  );
  await t.send({ jsonrpc: "2.0", id: 1, result: {} });
  assertEquals(
    (await reader.read()).value,
    'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
  );
  // The client closes the connection: the stream is cancelled.
  await reader.cancel();
  assertEquals([gone, closed], [1, 1]);
  await t.close();
  assertEquals([gone, closed], [1, 1]);
  await assertRejects(() => t.send({ jsonrpc: "2.0", id: 2, result: {} }), Error);
});

Deno.test("SseTransport: posted messages reach onmessage with the request info", () => {
  const t = new SseTransport("/messages");
  const got: unknown[] = [];
  t.onmessage = (m, extra) => got.push([m, extra?.requestInfo?.headers]);
  t.receive({ jsonrpc: "2.0", method: "ping", id: 3 }, { requestInfo: { headers: { a: "b" } } });
  assertEquals(got, [[{ jsonrpc: "2.0", method: "ping", id: 3 }, { a: "b" }]]);
});

Deno.test("SseTransport: a write finding more than the bound queued behind the next message closes the client; big messages pass", async () => {
  const t = new SseTransport("/messages", { maxQueuedBytes: 1000 });
  let gone = 0;
  t.onGone = () => gone++;
  const reader = t.response.body!.getReader();
  await t.start();
  await reader.read();
  // A reading client gets a message bigger than the bound.
  await t.send({ jsonrpc: "2.0", id: "x".repeat(5000), result: {} });
  assertEquals((await reader.read()).value!.length > 5000, true);
  // Messages behind one still being taken count: a small one and a big one go in...
  await t.send({ jsonrpc: "2.0", id: "y".repeat(5000), result: {} });
  await t.send({ jsonrpc: "2.0", id: "z".repeat(5000), result: {} });
  assertEquals(gone, 0);
  assertEquals(t.queuedBytes > 10_000, true);
  // ...it stops reading: the write that finds more than the bound behind the next closes it.
  await t.send({ jsonrpc: "2.0", id: 3, result: {} });
  assertEquals(gone, 1);
  assertEquals(t.queuedBytes, 0);
  await assertRejects(() => reader.read(), Error);
});
