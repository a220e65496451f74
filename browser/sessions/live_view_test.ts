import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { eventually } from "../../tests/_util.ts";
import type { BrowserSession } from "./browser_session.ts";
import { castParams, type LiveFrame, LiveView, QUIET_REFRESH_MS } from "./live_view.ts";

type Handler = (params: unknown, session: unknown) => void;

/** A page that records what is sent to it and lets the test fire its events. */
function fakePage(id: string) {
  const handlers = new Set<{ name: string; fn: Handler }>();
  const sent: Array<{ method: string; params: unknown }> = [];
  const session = { id: `s-${id}` };
  const page = {
    target: { targetId: id },
    session,
    isClosed: false,
    crashed: false,
    url: `http://x/${id}`,
    onEvent(name: string, fn: Handler) {
      const h = { name, fn };
      handlers.add(h);
      return () => handlers.delete(h);
    },
    send(method: string, params?: unknown) {
      sent.push({ method, params });
      return Promise.resolve({});
    },
  };
  const fire = (name: string, params: unknown) => {
    for (const h of [...handlers]) if (h.name === name) h.fn(params, session);
  };
  const count = (method: string) => sent.filter((s) => s.method === method).length;
  return { page, sent, fire, count, listeners: () => handlers.size };
}

function fakeSession(active: unknown) {
  const closing = new AbortController();
  const s = {
    activePage: active,
    closed: false,
    acting: false,
    closedSignal: closing.signal,
  };
  return { s, session: s as unknown as BrowserSession, close: () => closing.abort() };
}

const frame = (n: number) => ({
  data: `jpeg${n}`,
  sessionId: n,
  metadata: {
    offsetTop: 0,
    pageScaleFactor: 1,
    deviceWidth: 800,
    deviceHeight: 600,
    scrollOffsetX: 0,
    scrollOffsetY: 0,
  },
});

Deno.test("live view: casts only while watched, delivers and acknowledges every frame, stops with the last watcher", async () => {
  const a = fakePage("A");
  const { session } = fakeSession(a.page);
  const view = new LiveView(session);
  assertEquals(a.count("Page.startScreencast"), 0);
  const got: LiveFrame[] = [];
  const stop1 = view.watch({ maxWidth: 800, maxHeight: 600 }, (f) => got.push(f));
  assertEquals(a.count("Page.startScreencast"), 1);
  const got2: LiveFrame[] = [];
  const stop2 = view.watch({ maxWidth: 400, maxHeight: 300 }, (f) => got2.push(f));
  // A smaller second watcher needs no new cast.
  assertEquals(a.count("Page.startScreencast"), 1);
  for (let i = 1; i <= 3; i++) a.fire("Page.screencastFrame", frame(i));
  assertEquals(got.map((f) => f.data), ["jpeg1", "jpeg2", "jpeg3"]);
  assertEquals(got2.length, 3);
  assertEquals(got[0]!.tab, "A");
  await eventually(() => a.count("Page.screencastFrameAck") === 3, 2000, "three acks");
  assertEquals(
    a.sent.filter((s) => s.method === "Page.screencastFrameAck").map((s) => s.params),
    [{ sessionId: 1 }, { sessionId: 2 }, { sessionId: 3 }],
  );
  stop1();
  stop1(); // idempotent
  // The larger watcher left: the cast shrinks to what the other one needs.
  assertEquals(a.count("Page.stopScreencast"), 1);
  assertEquals(a.count("Page.startScreencast"), 2);
  assertEquals(
    (a.sent.filter((s) => s.method === "Page.startScreencast").at(-1)!.params as {
      maxWidth: number;
    }).maxWidth,
    400,
  );
  stop2();
  assertEquals(a.count("Page.stopScreencast"), 2);
  assertEquals(a.listeners(), 0);
  assertEquals(view.watchers, 0);
});

Deno.test("live view: follows the active tab, restarts for a bigger viewer and after a crash recovery", async () => {
  const a = fakePage("A");
  const b = fakePage("B");
  const fake = fakeSession(a.page);
  const view = new LiveView(fake.session);
  const stop = view.watch({ maxWidth: 640, maxHeight: 480 }, () => {});
  assertEquals(view.castTab, "A");
  fake.s.activePage = b.page;
  await eventually(() => view.castTab === "B", 2000, "the cast to follow tab B");
  assertEquals(a.count("Page.stopScreencast"), 1);
  assertEquals(b.count("Page.startScreencast"), 1);
  // A bigger viewer: the cast restarts with its size.
  const stopBig = view.watch({ maxWidth: 1600, maxHeight: 1000 }, () => {});
  assertEquals(b.count("Page.startScreencast"), 2);
  const last = b.sent.filter((s) => s.method === "Page.startScreencast").at(-1)!.params as {
    maxWidth: number;
  };
  assertEquals(last.maxWidth, 1600);
  // The renderer crashes, then a navigation recovers the tab: the cast starts again.
  b.fire("Inspector.targetCrashed", {});
  b.fire("Page.frameNavigated", { frame: { id: "B" } });
  await eventually(() => b.count("Page.startScreencast") === 3, 2000, "a restart after recovery");
  stopBig();
  stop();
  fake.close();
});

Deno.test("live view: a closed session stops the cast", () => {
  const a = fakePage("A");
  const fake = fakeSession(a.page);
  const view = new LiveView(fake.session);
  view.watch({ maxWidth: 640, maxHeight: 480 }, () => {});
  fake.s.closed = true;
  fake.close();
  assertEquals(a.count("Page.stopScreencast"), 1);
  assertEquals(view.watchers, 0);
});

Deno.test("live view: cast parameters serve the largest watcher, clamped", () => {
  assertEquals(castParams([]), {
    format: "jpeg",
    quality: 1,
    maxWidth: 64,
    maxHeight: 64,
    everyNthFrame: 1,
  });
  const p = castParams([
    { options: { maxWidth: 99999, maxHeight: NaN, quality: 500 } },
    { options: { maxWidth: 10, maxHeight: 300 } },
  ]);
  assertEquals([p.maxWidth, p.maxHeight, p.quality], [4096, 800, 100]);
  assertTrue(castParams([{ options: { maxWidth: 800, maxHeight: 600 } }]).quality === 70);
});

Deno.test("live view: after a paced burst of frames, once still, the cast restarts once for a fresh frame", async () => {
  const a = fakePage("A");
  const fake = fakeSession(a.page);
  const view = new LiveView(fake.session);
  const stop = view.watch({ maxWidth: 640, maxHeight: 480 }, () => {});
  assertEquals(a.count("Page.startScreencast"), 1);
  for (let i = 1; i <= 3; i++) a.fire("Page.screencastFrame", frame(i));
  await eventually(() => a.count("Page.startScreencast") === 2, 3000, "the refresh");
  assertEquals(a.count("Page.stopScreencast"), 1);
  // The refresh's frame arrives: nothing more until the page changes again. Showing that
  // nothing happens needs the refresh's quiet window to pass (no event marks "no refresh").
  a.fire("Page.screencastFrame", frame(4));
  await new Promise((r) => setTimeout(r, QUIET_REFRESH_MS * 2 + 100));
  assertEquals(a.count("Page.startScreencast"), 2);
  // One frame, acknowledged at once: nothing can have been dropped, no refresh.
  a.fire("Page.screencastFrame", frame(5));
  await new Promise((r) => setTimeout(r, QUIET_REFRESH_MS * 2 + 100));
  assertEquals(a.count("Page.startScreencast"), 2);
  // A burst again (its second frame's acknowledgement is held back): one more refresh.
  a.fire("Page.screencastFrame", frame(6));
  a.fire("Page.screencastFrame", frame(7));
  await eventually(() => a.count("Page.startScreencast") === 3, 3000, "a second refresh");
  stop();
  fake.close();
});
