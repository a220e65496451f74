import { assertEquals, assertIncludes, assertRejects, assertTrue } from "../tests/_assert.ts";
import { Connection } from "./connection.ts";
import {
  AbortError,
  CdpError,
  ConnectionClosedError,
  isConnectionClosedError,
  isTargetClosedError,
  isTimeoutError,
  ProtocolError,
  TargetClosedError,
  TimeoutError,
} from "./errors.ts";
import { fakeTransport } from "../tests/_fake_cdp.ts";

type Settled<T> = { value: T; error?: undefined } | { error: unknown; value?: undefined };

/** Attaches handlers at once, so a rejection is never unhandled while the test goes on. */
function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then((value) => ({ value }), (error: unknown) => ({ error }));
}

/** Lets queued promise callbacks run. */
function tick(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

Deno.test("Connection.send() resolves with the command's result", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const p = conn.send("Browser.getVersion");
    assertEquals(fake.sent.length, 1);
    assertEquals(fake.last().method, "Browser.getVersion");
    assertEquals(fake.last().sessionId, undefined);
    fake.last().reply({ result: { product: "Chrome/1.2.3" } });
    assertEquals((await p).product, "Chrome/1.2.3");
  } finally {
    await conn.close();
  }
});

Deno.test("CdpSession.send() sends with its session id and resolves with the result", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const session = conn.session("S1");
    assertTrue(conn.session("S1") === session, "one object per session id");
    const p = session.send("Runtime.evaluate", { expression: "1 + 1" });
    assertEquals(fake.last().method, "Runtime.evaluate");
    assertEquals(fake.last().params, { expression: "1 + 1" });
    assertEquals(fake.last().sessionId, "S1");
    fake.last().reply({ result: { result: { type: "number", value: 2 } } });
    assertEquals((await p).result.value, 2);
  } finally {
    await conn.close();
  }
});

Deno.test("Connection.send() rejects a protocol error reply with ProtocolError", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const p = settle(conn.session("S1").send("DOM.describeNode", { backendNodeId: 7 }));
    fake.last().reply({ error: { code: -32000, message: "No node with given id found" } });
    const { error } = await p;
    assertTrue(error instanceof ProtocolError, `expected ProtocolError, got ${error}`);
    assertTrue(error instanceof CdpError);
    assertEquals(error.name, "ProtocolError");
    assertEquals(error.method, "DOM.describeNode");
    assertEquals(error.code, -32000);
    assertEquals(error.originalMessage, "No node with given id found");
    assertEquals(error.message, "Protocol error (DOM.describeNode): No node with given id found");
    assertTrue(isTargetClosedError(error), "a vanished node counts as target gone");
  } finally {
    await conn.close();
  }
});

Deno.test("Connection.send() times out with TimeoutError naming the method and the caller", async function callerOfTimedOutSend() {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const error = await assertRejects(
      () => conn.send("Page.navigate", { url: "about:blank" }, { timeoutMs: 20 }),
      TimeoutError,
    );
    assertEquals(error.message, 'Timed out after 20 ms: "Page.navigate"');
    assertTrue(isTimeoutError(error));
    assertTrue(!isTargetClosedError(error));
    const stack = error.stack ?? "";
    assertTrue(stack.startsWith('TimeoutError: Timed out after 20 ms: "Page.navigate"\n'), stack);
    assertIncludes(stack, "callerOfTimedOutSend");
    // The call is forgotten; a reply after the timeout is dropped, not delivered twice.
    assertEquals(fake.calls.size, 0);
    fake.last().reply({ result: { frameId: "F" } });
    await tick();
  } finally {
    await conn.close();
  }
});

Deno.test("Connection uses its default timeout when the call names none", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport, { defaultTimeoutMs: 10 });
  try {
    const error = await assertRejects(() => conn.session("S").send("DOM.enable"), TimeoutError);
    assertEquals(error.message, 'Timed out after 10 ms: "DOM.enable"');
  } finally {
    await conn.close();
  }
});

Deno.test("A send aborted by its signal rejects at once with AbortError; a late reply is ignored", async function callerOfAbortedSend() {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const session = conn.session("S1");
    const cancel = new AbortController();
    const other = session.send("Runtime.enable");
    const otherReply = fake.last();
    const aborted = settle(
      session.send("Page.navigate", { url: "http://x/" }, { signal: cancel.signal }),
    );
    const navigateReply = fake.last();
    assertEquals(fake.calls.size, 2);
    cancel.abort(new Error("the client cancelled"));
    // No reply came: only the abort can settle it (the default budget is 30 s).
    const { error } = await aborted;
    assertTrue(error instanceof AbortError, `got ${error}`);
    assertTrue(error instanceof CdpError);
    assertEquals(error.name, "AbortError");
    assertEquals(error.message, 'Aborted: "Page.navigate"');
    assertEquals(error.method, "Page.navigate");
    assertEquals((error.reason as Error).message, "the client cancelled");
    assertEquals([isTargetClosedError(error), isTimeoutError(error)], [false, false]);
    assertIncludes(error.stack ?? "", "callerOfAbortedSend");
    assertEquals(fake.calls.size, 1, "its registry entry is gone; the other call waits on");

    // The late reply is dropped; the session and the other call go on.
    navigateReply.reply({ result: { frameId: "F" } });
    otherReply.reply({ result: {} });
    await other;
    const next = session.send("Page.enable", undefined, { signal: cancel.signal });
    assertEquals(fake.calls.size, 0);
    const refused = await assertRejects(() => next, AbortError);
    assertEquals(refused.message, 'Aborted: "Page.enable"');
    assertEquals(fake.sent.length, 2, "an already aborted signal never reaches the wire");
  } finally {
    await conn.close();
  }
});

Deno.test("Connection rejects every pending call with ConnectionClosedError when the wire closes", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  const session = conn.session("S1");
  const browserCall = settle(conn.send("Browser.getVersion"));
  const sessionCall = settle(session.send("Page.enable"));
  assertEquals(conn.isClosed, false);
  fake.drop("WebSocket connection closed");
  const [a, b] = await Promise.all([browserCall, sessionCall]);
  assertEquals(fake.calls.size, 0, "no call is left waiting");
  for (const { error } of [a, b]) {
    assertTrue(error instanceof ConnectionClosedError, `got ${error}`);
    assertEquals(error.message, "Connection closed: WebSocket connection closed");
    assertTrue(isConnectionClosedError(error));
    assertTrue(isTargetClosedError(error), "a closed connection also means the target is gone");
  }
  assertEquals(conn.isClosed, true);
  assertEquals(await conn.closed, "WebSocket connection closed");
  assertEquals(session.detached, true);

  // Later sends reject at once, without reaching the wire.
  const sentBefore = fake.sent.length;
  const later = await assertRejects(() => conn.send("Browser.getVersion"), ConnectionClosedError);
  assertEquals(later.message, 'Cannot send "Browser.getVersion": WebSocket connection closed');
  const laterSession = await assertRejects(
    () => session.send("Runtime.enable"),
    ConnectionClosedError,
  );
  assertEquals(laterSession.message, 'Cannot send "Runtime.enable": WebSocket connection closed');
  assertEquals(fake.sent.length, sentBefore);

  // Replies that still trickle in are ignored.
  for (const s of fake.sent) s.reply({ result: {} });
  await tick();
  await conn.close();
  assertEquals(await conn.closed, "WebSocket connection closed", "the first reason stays");
});

Deno.test("Connection.close() fails pending calls, closes the transport and is idempotent", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  const pending = settle(conn.send("Browser.getVersion"));
  await conn.close();
  const { error } = await pending;
  assertTrue(error instanceof ConnectionClosedError, `got ${error}`);
  assertEquals(error.message, "Connection closed: Connection closed by client");
  assertEquals(await conn.closed, "Connection closed by client");
  await conn.close();
  assertTrue(fake.closeCalls >= 1);
});

Deno.test("Connection turns a failing wire send into ConnectionClosedError", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const p = settle(conn.send("Browser.getVersion"));
    fake.last().fail(new Error("socket hang up"));
    const { error } = await p;
    assertTrue(error instanceof ConnectionClosedError, `got ${error}`);
    assertEquals(error.message, 'Cannot send "Browser.getVersion": socket hang up');
  } finally {
    await conn.close();
  }
});

Deno.test("Target.detachedFromTarget fails that session's pending calls with TargetClosedError only", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const a = conn.session("A");
    const b = conn.session("B");
    const onA = settle(a.send("Page.enable"));
    const onB = settle(b.send("Page.enable"));
    const replyB = fake.last();
    const onBrowser = settle(conn.send("Browser.getVersion"));
    const replyBrowser = fake.last();
    const seen: string[] = [];
    conn.on("Target.detachedFromTarget", (e) => seen.push(`${e.sessionId}:${a.detached}`));

    fake.emit("Target.detachedFromTarget", { sessionId: "A", targetId: "TA" });

    const { error } = await onA;
    assertTrue(error instanceof TargetClosedError, `got ${error}`);
    assertEquals(error.message, "Target closed");
    assertTrue(isTargetClosedError(error));
    assertEquals(a.detached, true);
    assertEquals(b.detached, false);
    assertEquals(seen, ["A:false"], "listeners see the event before the session is marked");

    // The other session and the browser session are untouched.
    replyB.reply({ result: {} });
    replyBrowser.reply({ result: { product: "P" } });
    assertEquals((await onB).error, undefined);
    assertEquals((await onBrowser).value?.product, "P");

    // A detached session refuses new commands at once, without reaching the wire.
    const sentBefore = fake.sent.length;
    const later = await assertRejects(() => a.send("Runtime.enable"), TargetClosedError);
    assertEquals(later.message, 'Cannot send "Runtime.enable": target closed');
    assertEquals(fake.sent.length, sentBefore);
  } finally {
    await conn.close();
  }
});

Deno.test("Target.detachedFromTarget from a parent session detaches the child session", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const child = conn.session("CHILD");
    const pending = settle(child.send("DOM.enable"));
    // Out-of-process iframes detach through their page's session.
    fake.emit("Target.detachedFromTarget", { sessionId: "CHILD" }, "PAGE");
    const { error } = await pending;
    assertTrue(error instanceof TargetClosedError, `got ${error}`);
    assertEquals(child.detached, true);
  } finally {
    await conn.close();
  }
});

Deno.test("errors: messages and names follow one shape", () => {
  const protocol = new ProtocolError("Page.navigate", -32602, "Invalid parameters");
  assertEquals(protocol.message, "Protocol error (Page.navigate): Invalid parameters");
  assertEquals(protocol.name, "ProtocolError");
  assertEquals(
    String(protocol),
    "ProtocolError: Protocol error (Page.navigate): Invalid parameters",
  );
  for (const E of [TargetClosedError, ConnectionClosedError, TimeoutError, CdpError]) {
    const e = new E("What failed: details", { cause: "why" });
    assertEquals(e.name, E.name);
    assertEquals(e.message, "What failed: details");
    assertEquals(e.cause, "why");
    assertTrue(e instanceof CdpError && e instanceof Error);
  }
});

Deno.test("isTargetClosedError() is true only for a gone target, document or connection", () => {
  assertTrue(isTargetClosedError(new TargetClosedError("Target closed")));
  assertTrue(isTargetClosedError(new ConnectionClosedError("Connection closed: x")));
  for (
    const m of [
      "Target closed",
      "Session with given id not found: ABC",
      "No target with given id found",
      "Cannot find context with specified id",
      "Execution context was destroyed.",
      "Inspected target navigated or closed",
      "No frame with given id found",
      "Frame with the given id was not found.",
      "No node with given id found",
      "Could not find node with given id",
      "Node with given id does not belong to the document",
    ]
  ) {
    assertTrue(isTargetClosedError(new ProtocolError("M.x", -32000, m)), m);
  }
  assertEquals(isTargetClosedError(new ProtocolError("M.x", -32601, "'M.x' wasn't found")), false);
  assertEquals(isTargetClosedError(new TimeoutError("Timed out")), false);
  assertEquals(isTargetClosedError(new Error("Target closed")), false, "only our typed errors");
  assertEquals(isTargetClosedError("Target closed"), false);
  assertEquals(isTargetClosedError(undefined), false);
});

Deno.test("isTimeoutError() and isConnectionClosedError() match only their class", () => {
  assertTrue(isTimeoutError(new TimeoutError("t")));
  assertEquals(isTimeoutError(new CdpError("t")), false);
  assertEquals(isTimeoutError(new Error("Timed out")), false);
  assertEquals(isTimeoutError(null), false);
  assertTrue(isConnectionClosedError(new ConnectionClosedError("c")));
  assertEquals(isConnectionClosedError(new TargetClosedError("c")), false);
  assertEquals(isConnectionClosedError(new Error("c")), false);
});
