import { assertEquals, assertRejects, assertTrue } from "../../tests/_assert.ts";
import { type FakePage, fakePage, fakeSession } from "../../tests/_fake_session.ts";
import type { Page } from "../../cdp/page.ts";
import { ActionRecorder } from "./recorder.ts";
import { keysOnly } from "../network_writes.ts";

const URL_A = "http://127.0.0.1:8000/a.html";

function start(url = URL_A) {
  const page = fakePage(url);
  const fake = fakeSession(page);
  const recorder = new ActionRecorder(fake.session, page as unknown as Page);
  return { page, fake, recorder };
}

let requestSeq = 0;
/** A request of `page` as CDP reports it; `finish` also answers it. */
function request(
  fake: ReturnType<typeof fakeSession>,
  page: FakePage,
  r: { url: string; method?: string; type?: string; status?: number; mimeType?: string },
  finish = true,
): string {
  const requestId = `r${++requestSeq}`;
  fake.emit(page, "Network.requestWillBeSent", {
    requestId,
    request: { url: r.url, method: r.method ?? "GET" },
    wallTime: Date.now() / 1000,
    type: r.type ?? "Fetch",
  });
  if (!finish) return requestId;
  fake.emit(page, "Network.responseReceived", {
    requestId,
    response: { status: r.status ?? 200, mimeType: r.mimeType ?? "text/html" },
  });
  fake.emit(page, "Network.loadingFinished", { requestId });
  return requestId;
}

Deno.test("recorder: a window where nothing happened says so", async () => {
  const { fake, recorder } = start();
  assertEquals(await recorder.settle(Date.now() + 5000), true);
  const rec = await recorder.finish(false);
  assertEquals(rec.navigation, { changed: false, from: URL_A, to: URL_A, kind: null });
  assertEquals(rec.network, {
    summary: { total: 0, byType: {}, failed: 0 },
    requests: [],
    mutations: [],
  });
  assertEquals(rec.console, { errors: [], warnings: 0 });
  assertEquals([rec.pageErrors, rec.dialogs, rec.newTabs, rec.newTabCount], [[], [], [], 0]);
  assertEquals([rec.fullLoad, rec.stillLoading], [false, false]);
  // finish stopped listening.
  assertEquals(fake.listeners.size, 0);
});

Deno.test("recorder: console errors and warnings, page errors, only from the window", async () => {
  const page = fakePage(URL_A);
  const fake = fakeSession(page);
  const log = (type: string, text: string, timestamp: number) =>
    fake.emit(page, "Runtime.consoleAPICalled", {
      type,
      args: [{ type: "string", value: text }],
      timestamp,
      executionContextId: 1,
    });
  log("error", "before the action", 1);
  const recorder = new ActionRecorder(fake.session, page as unknown as Page);
  log("error", "bad thing", 2);
  log("warning", "careful", 3);
  log("warning", "careful again", 4);
  log("log", "chatter", 5);
  fake.emit(page, "Runtime.exceptionThrown", {
    timestamp: 6,
    exceptionDetails: {
      text: "Uncaught",
      lineNumber: 0,
      columnNumber: 0,
      exceptionId: 1,
      exception: { type: "object", description: "Error: boom\n    at click (a.html:3)" },
    },
  });
  log("error", "x".repeat(400), 7);
  const rec = await recorder.finish(false);
  assertEquals(rec.console.errors, ["bad thing", "x".repeat(300)]);
  assertEquals(rec.console.warnings, 2);
  assertEquals(rec.pageErrors, ["Error: boom"]);
});

Deno.test("recorder: a full load, an SPA route and a hash move are told apart", async () => {
  {
    const { page, fake, recorder } = start();
    page.url = "http://127.0.0.1:8000/b.html";
    fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: page.url } });
    const rec = await recorder.finish(false);
    assertEquals(rec.navigation.kind, "full_load");
    assertEquals(rec.navigation.changed, true);
    assertEquals(rec.navigation.to, page.url);
    assertEquals(rec.fullLoad, true);
  }
  {
    const { page, fake, recorder } = start();
    page.url = "http://127.0.0.1:8000/spa/page2";
    fake.emit(page, "Page.navigatedWithinDocument", { frameId: page.mainFrameId, url: page.url });
    const rec = await recorder.finish(false);
    assertEquals([rec.navigation.kind, rec.navigation.changed, rec.fullLoad], [
      "spa",
      true,
      false,
    ]);
  }
  {
    const { page, fake, recorder } = start();
    page.url = `${URL_A}#section`;
    fake.emit(page, "Page.navigatedWithinDocument", { frameId: page.mainFrameId, url: page.url });
    assertEquals((await recorder.finish(false)).navigation.kind, "hash");
  }
  {
    // A subframe's navigation is not the tab's.
    const { page, fake, recorder } = start();
    fake.emit(page, "Page.frameNavigated", { frame: { id: "child", parentId: "x", url: "y" } });
    fake.emit(page, "Page.navigatedWithinDocument", { frameId: "child", url: "z" });
    assertEquals((await recorder.finish(false)).navigation.changed, false);
  }
});

Deno.test("recorder: offOrigin when the landed host differs from the requested one", async () => {
  const landed = async (requested: string, to: string) => {
    const { page, fake, recorder } = start("about:blank");
    page.url = to;
    fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: to } });
    return (await recorder.finish(false, requested)).navigation.offOrigin;
  };
  assertEquals(await landed("https://mail.example.com/inbox", "https://www.example.com/login"), {
    requested: "https://mail.example.com",
    landed: "https://www.example.com",
  });
  // Hosts are compared, not origins: an upgrade to https stays quiet.
  assertEquals(await landed("http://example.com/", "https://example.com/"), undefined);
  assertEquals(await landed("http://example.com/a", "http://example.com/b"), undefined);
});

Deno.test("recorder: network summary by type, failures, and writes by keys only", async () => {
  const { page, fake, recorder } = start();
  request(fake, page, { url: "http://127.0.0.1:8000/next.html", type: "Document" });
  request(fake, page, { url: "http://127.0.0.1:8000/app.js", type: "Script" });
  request(fake, page, { url: "http://127.0.0.1:8000/favicon.ico", type: "Other" });
  request(fake, page, { url: "http://127.0.0.1:8000/missing", status: 404 });
  const post = request(fake, page, {
    url: "http://127.0.0.1:8000/api/orders?token=s3cret&draft=1",
    method: "POST",
    mimeType: "application/json",
  });
  fake.bodies.set(post, JSON.stringify({ id: 1, total: 9, lines: [] }));
  const rec = await recorder.finish(false);
  // The browser's own favicon fetch is not something the page did.
  assertEquals(rec.network.summary, {
    total: 4,
    byType: { document: 1, script: 1, fetch: 2 },
    failed: 1,
  });
  assertEquals(rec.network.requests.map((r) => [r.type, r.status, r.failed ?? false]), [
    ["Document", 200, false],
    ["Fetch", 404, true],
    ["Fetch", 200, false],
  ]);
  assertEquals(rec.network.requests[2]!.url, "http://127.0.0.1:8000/api/orders?token&draft");
  assertEquals(rec.network.mutations.length, 1);
  const m = rec.network.mutations[0]!;
  assertEquals([m.method, m.urlPattern, m.status, m.ok], [
    "POST",
    "http://127.0.0.1:8000/api/orders?token&draft",
    200,
    true,
  ]);
  assertEquals(m.responseShape, ["id", "total", "lines"]);
  assertTrue(!JSON.stringify(rec.network).includes("s3cret"), "no values");
  assertEquals(keysOnly("not a url?a=1"), "not a url");
});

Deno.test("recorder: a write with no answer yet is pending, not failed", async () => {
  const { page, fake, recorder } = start();
  request(fake, page, { url: "http://127.0.0.1:8000/api/save?sid=s3cret", method: "POST" }, false);
  const rec = await recorder.finish(false);
  assertEquals(rec.network.mutations, [{
    method: "POST",
    urlPattern: "http://127.0.0.1:8000/api/save?sid",
    ok: false,
    pending: true,
  }]);
});

Deno.test("recorder: a tab whose document a form's POST fetched is shown by its keys", async () => {
  const { page, fake, recorder } = start();
  page.url = "http://127.0.0.1:8000/done?sid=s3cret";
  page.documentMethod = "POST";
  fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: page.url } });
  const rec = await recorder.finish(false);
  assertEquals([rec.navigation.from, rec.navigation.to], [URL_A, "http://127.0.0.1:8000/done?sid"]);
  // The next window starts there: `from` by its keys too.
  const next = new ActionRecorder(fake.session, page as unknown as Page);
  assertEquals((await next.finish(false)).navigation.from, "http://127.0.0.1:8000/done?sid");
});

Deno.test("recorder: settle waits for the main frame's load and a pending request", async () => {
  const { page, fake, recorder } = start();
  fake.emit(page, "Page.frameStartedLoading", { frameId: page.mainFrameId });
  // Still loading at the deadline: settling gives up there and says so.
  assertEquals(await recorder.settle(Date.now() + 150), false);
  const settling = recorder.settle(Date.now() + 5000);
  setTimeout(() => fake.emit(page, "Page.frameStoppedLoading", { frameId: page.mainFrameId }));
  assertEquals(await settling, true);
  const id = request(fake, page, { url: "http://127.0.0.1:8000/api/slow" }, false);
  assertEquals(await recorder.settle(Date.now() + 150), false);
  const again = recorder.settle(Date.now() + 5000);
  setTimeout(() =>
    fake.emit(page, "Network.responseReceived", {
      requestId: id,
      response: { status: 200, mimeType: "text/plain" },
    })
  );
  assertEquals(await again, true);
  assertEquals((await recorder.finish(true)).stillLoading, true);
});

Deno.test("recorder: dialogs and the tabs the action opened", async () => {
  const { fake, recorder } = start();
  fake.dialog({ kind: "confirm", message: "Delete?", handledAs: "dismissed", raised: true });
  fake.dialog({ kind: "alert", message: "Hi", handledAs: "accepted" });
  for (let i = 0; i < 12; i++) fake.open(fakePage(`http://127.0.0.1:8000/popup-${i}`, `P${i}`));
  const rec = await recorder.finish(false);
  assertEquals(rec.dialogs, [
    { kind: "confirm", message: "Delete?", handledAs: "dismissed", raised: true },
    { kind: "alert", message: "Hi", handledAs: "accepted" },
  ]);
  assertEquals(rec.newTabCount, 12);
  assertEquals(rec.newTabs.length, 10);
  assertEquals(rec.newTabs[0], {
    index: 1,
    url: "http://127.0.0.1:8000/popup-0",
    title: "title of http://127.0.0.1:8000/popup-0",
  });
  // The session's active tab is now the last popup; navigation is still the acted-on tab's.
  assertEquals(rec.activePage.url, "http://127.0.0.1:8000/popup-11");
  assertEquals(rec.navigation.to, URL_A);
});

Deno.test("recorder: dispose stops listening, and later events are not recorded", async () => {
  const { page, fake, recorder } = start();
  assertEquals(fake.listeners.size, 1);
  recorder.dispose();
  assertEquals(fake.listeners.size, 0);
  fake.dialog({ kind: "alert", message: "late", handledAs: "accepted" });
  page.url = "http://127.0.0.1:8000/b.html";
  fake.emit(page, "Page.frameNavigated", { frame: { id: page.mainFrameId, url: page.url } });
  const rec = await recorder.finish(false);
  assertEquals(rec.dialogs, []);
  assertEquals(rec.navigation.kind, null);
});

Deno.test("recorder: the call's signal ends settling at once with its reason", async () => {
  const { page, fake, recorder } = start();
  // A navigation that never answers keeps the page loading.
  fake.emit(page, "Page.frameStartedLoading", { frameId: page.mainFrameId });
  const ac = new AbortController();
  const settling = recorder.settle(Date.now() + 60_000, ac.signal);
  setTimeout(() => ac.abort(new Error("cancelled by the client")));
  const e = await assertRejects(() => settling, Error);
  assertEquals(e.message, "cancelled by the client");
  // An aborted signal stops it before any wait.
  await assertRejects(() => recorder.settle(Date.now() + 60_000, ac.signal), Error);
  recorder.dispose();
  assertEquals(fake.listeners.size, 0);
});

Deno.test("recorder: what routes did in the window, and network entries marked routed", async () => {
  const page = fakePage(URL_A);
  const fake = fakeSession(page);
  const routes = fake.session.routes;
  routes.note({ url: "http://127.0.0.1:8000/before", pattern: "**", action: "fulfilled" });
  const recorder = new ActionRecorder(fake.session, page as unknown as Page);
  const id = request(fake, page, { url: "http://127.0.0.1:8000/api/x", status: 201 }, false);
  fake.logs.markRouted(id, "**/api/*");
  routes.note({
    url: "http://127.0.0.1:8000/api/x",
    pattern: "**/api/*",
    action: "fulfilled",
    status: 201,
  });
  routes.note({
    url: "http://b.test/x",
    pattern: "**",
    action: "refused",
    why: "blocked by policy: w",
  });
  const rec = await recorder.finish(false);
  assertEquals(rec.network.routed, [
    { url: "http://127.0.0.1:8000/api/x", pattern: "**/api/*", action: "fulfilled", status: 201 },
    { url: "http://b.test/x", pattern: "**", action: "refused", why: "blocked by policy: w" },
  ]);
  assertEquals(fake.logs.network.since(0).at(-1)?.routed, "**/api/*");
  // A request marked before CDP reported it gets the mark when it does.
  fake.logs.markRouted("early", "**/e");
  fake.emit(page, "Network.requestWillBeSent", {
    requestId: "early",
    request: { url: "http://127.0.0.1:8000/e", method: "GET" },
    wallTime: Date.now() / 1000,
    type: "Image",
  });
  assertEquals(fake.logs.network.since(0).at(-1)?.routed, "**/e");
});

Deno.test("recorder: a request that starts while the timers question is out keeps the window open", async () => {
  const { page, fake, recorder } = start();
  let asked = 0;
  let pending: string | undefined;
  // The page answers "no timers" once its script ran; that script started the next module's
  // request meanwhile (its event comes before the answer, as CDP orders them).
  const timersDue = () => {
    asked++;
    if (asked === 1) {
      pending = request(
        fake,
        page,
        { url: "http://127.0.0.1:8000/next.js", type: "Script" },
        false,
      );
      setTimeout(() =>
        fake.emit(page, "Network.responseReceived", {
          requestId: pending!,
          response: { status: 200, mimeType: "text/javascript" },
        })
      );
    }
    return Promise.resolve(undefined);
  };
  assertEquals(await recorder.settle(Date.now() + 5000, undefined, timersDue, 5), true);
  // Asked again once the request was answered: the first "none" did not close the window.
  assertEquals(asked, 2);
  const rec = await recorder.finish(false);
  assertEquals(rec.network.summary.total, 1);
});

Deno.test("recorder: the quiet counts from the input's answer; activity after it restarts the clock", async () => {
  // A quiet period longer than the deadline leaves: only a quiet counted from the input,
  // long ago, can have elapsed before it.
  const quietMs = 60_000;
  {
    const { recorder } = start();
    let asked = 0;
    const timersDue = () => (asked++, Promise.resolve(undefined));
    recorder.inputAnswered(Date.now() - quietMs);
    assertEquals(await recorder.settle(Date.now() + 2000, undefined, timersDue, quietMs), true);
    // The timer watch was still asked before the window closed.
    assertEquals(asked, 1);
    recorder.dispose();
  }
  {
    // Counted from settle's own start (no input named), the same quiet is not over by then.
    const { recorder } = start();
    assertEquals(await recorder.settle(Date.now() + 200, undefined, undefined, quietMs), false);
    recorder.dispose();
  }
  {
    // The page answered a request after the input: the quiet counts from that activity.
    const { page, fake, recorder } = start();
    recorder.inputAnswered(Date.now() - quietMs);
    request(fake, page, { url: "http://127.0.0.1:8000/api/after" });
    assertEquals(await recorder.settle(Date.now() + 200, undefined, undefined, quietMs), false);
    recorder.dispose();
  }
  {
    // A dialog the page raised after the input restarts it as well.
    const { fake, recorder } = start();
    recorder.inputAnswered(Date.now() - quietMs);
    fake.dialog({ kind: "alert", message: "late", handledAs: "accepted" });
    assertEquals(await recorder.settle(Date.now() + 200, undefined, undefined, quietMs), false);
    assertEquals((await recorder.finish(true)).dialogs.length, 1);
  }
  {
    // The input's time serves one settle: a second one (after the guard's wait) counts anew.
    const { recorder } = start();
    recorder.inputAnswered(Date.now() - quietMs);
    assertEquals(await recorder.settle(Date.now() + 2000, undefined, undefined, quietMs), true);
    assertEquals(await recorder.settle(Date.now() + 200, undefined, undefined, quietMs), false);
    recorder.dispose();
  }
});
