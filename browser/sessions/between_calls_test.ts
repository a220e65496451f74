import { assertEquals } from "../../tests/_assert.ts";
import { BetweenCalls, type TabLike } from "./between_calls.ts";
import type { NetworkEntry } from "./page_logs.ts";

interface FakeTab extends TabLike {
  url: string;
  isClosed: boolean;
}

function tab(url: string, id = "T1"): FakeTab {
  return { url, isClosed: false, mainFrameId: id, session: { id } };
}

/** A session's view of its tabs, in `tabs` order. */
function view(tabs: FakeTab[], active?: FakeTab) {
  return { indexOf: (t: FakeTab) => tabs.indexOf(t), active: active ?? tabs[0] };
}

Deno.test("BetweenCalls: news is taken once, then the buffer is empty", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/");
  assertEquals(b.take(view([t])), undefined);
  b.dialog({ kind: "alert", message: "hi", handledAs: "accepted" });
  b.pageError("Error: boom");
  assertEquals(b.take(view([t])), {
    dialogs: [{ kind: "alert", message: "hi", handledAs: "accepted" }],
    pageErrors: ["Error: boom"],
  });
  assertEquals(b.take(view([t])), undefined);
});

Deno.test("BetweenCalls: an action window's hold keeps events out (they are the window's)", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/");
  b.tabSeen(t);
  const release = b.hold();
  b.dialog({ kind: "confirm", message: "sure?", handledAs: "dismissed" });
  b.pageError("Error: in the window");
  b.navigated(t, "http://a.test/next", false);
  assertEquals(b.held, true);
  release();
  release(); // idempotent
  assertEquals(b.held, false);
  assertEquals(b.take(view([t])), undefined);
  // The URL moved on while held: the next navigation comes from there.
  b.navigated(t, "http://a.test/next#x", true);
  assertEquals(b.take(view([t]))?.navigations, [{
    tab: 0,
    url: "http://a.test/next#x",
    kind: "hash",
  }]);
});

Deno.test("BetweenCalls: a document restored from the back/forward cache is bfcache_restore", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/two");
  b.tabSeen(t);
  b.navigated(t, "http://a.test/one", false, { restored: true });
  b.navigated(t, "http://a.test/two", false);
  assertEquals(b.take(view([t]))?.navigations, [
    { tab: 0, url: "http://a.test/one", kind: "bfcache_restore" },
    { tab: 0, url: "http://a.test/two", kind: "full_load" },
  ]);
});

Deno.test("BetweenCalls: bounded whatever a noisy page does, counting what was left out", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/");
  b.tabSeen(t);
  for (let i = 0; i < 10_000; i++) {
    b.pageError(`Error ${i}: ${"x".repeat(1000)}`);
    b.dialog({ kind: "alert", message: `m${i}`, handledAs: "accepted" });
    b.navigated(t, `http://a.test/#${i}`, true);
  }
  const news = b.take(view([t]))!;
  assertEquals(news.pageErrors?.length, 3);
  assertEquals(news.pageErrors![0]!.startsWith("Error 0: x"), true);
  assertEquals(news.pageErrors![0]!.length < 330, true);
  assertEquals(news.dialogs?.map((d) => d.message), ["m0", "m1", "m2", "m3", "m4"]);
  // Navigations keep the latest: where the tab ended up.
  assertEquals(news.navigations?.map((n) => n.url), [
    "http://a.test/#9997",
    "http://a.test/#9998",
    "http://a.test/#9999",
  ]);
  assertEquals(news.omitted, { dialogs: 9995, pageErrors: 9997, navigations: 9997 });
  assertEquals(JSON.stringify(news).length < 3000, true);
});

Deno.test("BetweenCalls: a cut never keeps part of a secret's value", () => {
  const secret = "hunter2hunter2";
  const spans = (text: string): Array<[number, number]> => {
    const i = text.indexOf(secret);
    return i < 0 ? [] : [[i, i + secret.length]];
  };
  const b = new BetweenCalls<FakeTab>({ secretSpans: spans });
  b.pageError("x".repeat(290) + secret);
  const [kept] = b.take(view([tab("about:blank")]))!.pageErrors!;
  assertEquals(kept!.includes("hunter"), false);
});

Deno.test("BetweenCalls: a tab's first document is no news; navigations of closed tabs are stale", () => {
  const b = new BetweenCalls<FakeTab>();
  const main = tab("about:blank", "T1");
  const popup = tab("", "T2");
  b.tabSeen(main);
  b.navigated(main, "http://a.test/", false); // first document
  b.tabSeen(popup);
  b.tabOpened(popup);
  b.activeChanged();
  popup.url = "http://a.test/popup";
  b.navigated(popup, popup.url, false); // first document of the popup
  main.url = "http://a.test/later";
  b.navigated(main, main.url, false);
  assertEquals(b.take(view([main, popup], popup)), {
    navigations: [{ tab: 0, url: "http://a.test/later", kind: "full_load" }],
    tabsOpened: [{ index: 1, url: "http://a.test/popup" }],
    activeTab: { index: 1, url: "http://a.test/popup" },
  });
  b.navigated(popup, "http://a.test/popup2", false);
  b.crashed(popup);
  popup.isClosed = true;
  b.tabClosed(popup);
  b.activeChanged();
  assertEquals(b.take(view([main], main)), {
    tabsClosed: [{ url: "http://a.test/popup" }],
    activeTab: { index: 0, url: "http://a.test/later" },
  });
});

Deno.test("BetweenCalls: page events of the tab, as the session feeds them", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/", "T1");
  b.tabSeen(t);
  const ev = (method: string, params: unknown, session: unknown = t.session) =>
    (b.pageEvent as (...a: unknown[]) => void)(
      t,
      method === "Runtime.exceptionThrown"
        ? { seq: 1, level: "exception", text: "TypeError: late", timestamp: 0, tab: "T1" }
        : undefined,
      method,
      params,
      session,
    );
  ev("Runtime.exceptionThrown", {});
  // A child frame's navigation, and an iframe's crash, are not the tab's.
  ev("Page.frameNavigated", { frame: { id: "child", parentId: "T1", url: "http://b.test/" } });
  ev("Inspector.targetCrashed", {}, { id: "oopif" });
  ev("Page.frameNavigated", { frame: { id: "T1", url: "http://a.test/next", urlFragment: "#f" } });
  ev("Page.navigatedWithinDocument", { frameId: "T1", url: "http://a.test/spa" });
  ev("Inspector.targetCrashed", {});
  assertEquals(b.take(view([t])), {
    pageErrors: ["TypeError: late"],
    navigations: [
      { tab: 0, url: "http://a.test/next#f", kind: "full_load" },
      { tab: 0, url: "http://a.test/spa", kind: "spa" },
    ],
    crashed: [{ tab: 0, url: "http://a.test/" }],
  });
});

Deno.test("BetweenCalls: downloads that began, saved or cancelled", () => {
  const b = new BetweenCalls<FakeTab>();
  b.download({ filename: "a.txt", url: "http://a.test/a.txt", saved: false });
  assertEquals(b.take(view([])), {
    downloads: [{ filename: "a.txt", url: "http://a.test/a.txt", saved: false }],
  });
});

Deno.test("BetweenCalls: a tab whose document a form's POST fetched is shown by its keys", () => {
  const b = new BetweenCalls<FakeTab>();
  let method: string | undefined;
  const t: FakeTab = {
    ...tab("http://a.test/form"),
    documentResponse: () => (method ? { method } : undefined),
  };
  b.tabSeen(t);
  // The page submits a form between calls: the landed URL carries a value.
  method = "POST";
  t.url = "http://a.test/done?sid=s3cret";
  b.navigated(t, t.url, false);
  b.tabClosed(t);
  assertEquals(b.take(view([t])), {
    navigations: [{ tab: 0, url: "http://a.test/done?sid", kind: "full_load" }],
    tabsClosed: [{ url: "http://a.test/done?sid" }],
  });
  // A page fetched by GET keeps its query.
  method = "GET";
  b.navigated(t, "http://a.test/search?q=shoes", false);
  assertEquals(b.take(view([t]))?.navigations?.[0]?.url, "http://a.test/search?q=shoes");
});

Deno.test("BetweenCalls: writes sent while no window held it, by keys, as answered when taken", () => {
  const b = new BetweenCalls<FakeTab>();
  const t = tab("http://a.test/");
  const entry = (requestId: string, method: string, url: string, type = "Fetch"): NetworkEntry => ({
    seq: 0,
    requestId,
    method,
    url,
    type,
    failed: false,
    timestamp: 0,
    done: false,
    tab: "T1",
  });
  const sent = (e: NetworkEntry) =>
    b.pageEvent(t, e, "Network.requestWillBeSent", {
      requestId: e.requestId,
      request: { method: e.method, url: e.url },
      type: e.type,
    } as never, undefined as never);
  const saved = entry("1", "POST", "http://a.test/save?id=7&token=s3cret");
  const read = entry("2", "GET", "http://a.test/list");
  const report = entry("3", "POST", "http://a.test/csp", "CSPViolationReport");
  const stopped = entry("4", "PUT", "http://a.test/form");
  const lost = entry("5", "DELETE", "http://a.test/item/9");
  for (const e of [saved, read, report, stopped, lost]) sent(e);
  const release = b.hold();
  sent(entry("6", "PATCH", "http://a.test/in-window"));
  release();
  saved.status = 201;
  stopped.blockedByPolicy = true;
  lost.failed = true;
  assertEquals(b.take(view([t]))?.writes, [
    { method: "POST", url: "http://a.test/save?id&token", status: 201 },
    { method: "DELETE", url: "http://a.test/item/9", failed: true },
  ]);
  assertEquals(b.take(view([t])), undefined);
  // Bounded: the first five, the rest counted.
  for (let i = 0; i < 7; i++) sent(entry(`w${i}`, "POST", `http://a.test/w${i}`));
  const news = b.take(view([t]));
  assertEquals(news?.writes?.length, 5);
  assertEquals(news?.writes?.[0], { method: "POST", url: "http://a.test/w0", pending: true });
  assertEquals(news?.omitted, { writes: 2 });
});
