/** Events on a Connection: routed by session, typed by method, handlers isolated and removed. */
import { assertEquals } from "../tests/_assert.ts";
import { Connection } from "./connection.ts";
import { fakeTransport } from "../tests/_fake_cdp.ts";

Deno.test("Connection.on() routes events by session", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const all: string[] = [];
    const onlyS1: string[] = [];
    const onlyBrowser: string[] = [];
    const viaSession: string[] = [];
    conn.on("Page.loadEventFired", (e, sid) => all.push(`${sid}:${e.timestamp}`));
    conn.on("Page.loadEventFired", (e, sid) => onlyS1.push(`${sid}:${e.timestamp}`), "S1");
    conn.on("Page.loadEventFired", (e, sid) => onlyBrowser.push(`${sid}:${e.timestamp}`), null);
    conn.session("S2").on("Page.loadEventFired", (e) => viaSession.push(`${e.timestamp}`));

    fake.emit("Page.loadEventFired", { timestamp: 1 }, "S1");
    fake.emit("Page.loadEventFired", { timestamp: 2 }, "S2");
    fake.emit("Page.loadEventFired", { timestamp: 3 });
    fake.emit("Page.domContentEventFired", { timestamp: 4 }, "S1");

    assertEquals(all, ["S1:1", "S2:2", "undefined:3"]);
    assertEquals(onlyS1, ["S1:1"]);
    assertEquals(onlyBrowser, ["undefined:3"]);
    assertEquals(viaSession, ["2"]);
  } finally {
    await conn.close();
  }
});

Deno.test("Connection.onAny() gets every event of one session", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const s1: [string, unknown][] = [];
    const browser: string[] = [];
    conn.onAny("S1", (method, params) => s1.push([method, params]));
    conn.onAny(null, (method, _params) => browser.push(method));

    fake.emit("Page.loadEventFired", { timestamp: 1 }, "S1");
    fake.emit("Network.requestWillBeSent", { requestId: "r" }, "S1");
    fake.emit("Page.loadEventFired", { timestamp: 2 }, "S2");
    fake.emit("Target.targetCreated", { targetInfo: {} });

    assertEquals(s1, [
      ["Page.loadEventFired", { timestamp: 1 }],
      ["Network.requestWillBeSent", { requestId: "r" }],
    ]);
    assertEquals(browser, ["Target.targetCreated"]);
  } finally {
    await conn.close();
  }
});

Deno.test("Connection.onAny() hands each event's params typed by its method", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const seen: string[] = [];
    conn.onAny("S1", (method, params) => {
      // No casts: `params` narrows by `method` (this test fails to compile otherwise).
      switch (method) {
        case "Network.requestWillBeSent":
          seen.push(`${params.request.method} ${params.request.url}`);
          break;
        case "Page.frameNavigated":
          seen.push(`navigated ${params.frame.url}`);
          break;
      }
    });
    conn.session("S1").on("Page.lifecycleEvent", (e) => seen.push(`lifecycle ${e.name}`));
    fake.emit("Network.requestWillBeSent", { request: { method: "POST", url: "http://a/" } }, "S1");
    fake.emit("Page.frameNavigated", { frame: { url: "http://b/" } }, "S1");
    fake.emit("Page.lifecycleEvent", { name: "load" }, "S1");
    assertEquals(seen, ["POST http://a/", "navigated http://b/", "lifecycle load"]);
  } finally {
    await conn.close();
  }
});

Deno.test("Connection.on() unsubscribe removes exactly that handler", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const calls: string[] = [];
    const shared = (e: { timestamp: number }) => calls.push(`shared:${e.timestamp}`);
    const offA = conn.on("Page.loadEventFired", (e) => calls.push(`a:${e.timestamp}`));
    conn.on("Page.loadEventFired", (e) => calls.push(`b:${e.timestamp}`));
    const offSharedAll = conn.on("Page.loadEventFired", shared);
    conn.on("Page.loadEventFired", shared, "S1");
    const offAny = conn.onAny("S1", (m, _p) => calls.push(`any:${m}`));

    fake.emit("Page.loadEventFired", { timestamp: 1 }, "S1");
    assertEquals(calls, ["a:1", "b:1", "shared:1", "shared:1", "any:Page.loadEventFired"]);

    calls.length = 0;
    offA();
    offSharedAll();
    offAny();
    fake.emit("Page.loadEventFired", { timestamp: 2 }, "S1");
    assertEquals(calls, ["b:2", "shared:2"], "the same function on another session stays");

    calls.length = 0;
    offA(); // twice is harmless
    fake.emit("Page.loadEventFired", { timestamp: 3 }, "S1");
    assertEquals(calls, ["b:3", "shared:3"]);
  } finally {
    await conn.close();
  }
});

Deno.test("Connection: a throwing event handler does not stop the others", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  const logged: unknown[][] = [];
  const originalError = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const calls: string[] = [];
    conn.on("Page.loadEventFired", () => {
      throw new Error("boom");
    });
    conn.on("Page.loadEventFired", () => calls.push("second"));
    conn.on("Page.loadEventFired", () => calls.push("session"), "S1");
    conn.onAny("S1", () => {
      throw new Error("boom in onAny");
    });
    fake.emit("Page.loadEventFired", { timestamp: 1 }, "S1");
    fake.emit("Page.loadEventFired", { timestamp: 2 }, "S1");
    assertEquals(calls, ["second", "session", "second", "session"]);
    assertEquals(logged.length, 4, "each failure is logged");
  } finally {
    console.error = originalError;
    await conn.close();
  }
});

Deno.test("Connection drops a detached session's event handlers", async () => {
  const fake = fakeTransport();
  const conn = new Connection(fake.transport);
  try {
    const calls: string[] = [];
    conn.session("A").on("Page.loadEventFired", () => calls.push("A"));
    conn.onAny("A", (m, _p) => calls.push(`any:${m}`));
    conn.on("Page.loadEventFired", (_e, sid) => calls.push(`all:${sid}`));
    fake.emit("Target.detachedFromTarget", { sessionId: "A" });
    calls.length = 0;
    fake.emit("Page.loadEventFired", { timestamp: 1 }, "A");
    assertEquals(calls, ["all:A"]);
  } finally {
    await conn.close();
  }
});
