import { assertEquals, assertTrue } from "../tests/_assert.ts";
import { fakeTransport } from "../tests/_fake_cdp.ts";
import { Connection } from "./connection.ts";
import { AbortError } from "./errors.ts";
import { Page } from "./page.ts";

/** A tab on a fake wire: the browser answers every set-up command; `Page.navigate` waits. */
async function fakeTab() {
  const fake = fakeTransport((command) => {
    if (command.method === "Page.navigate") return undefined;
    if (command.method !== "Page.getFrameTree") return { result: {} };
    return { result: { frameTree: { frame: { id: "T", loaderId: "L0", url: "about:blank" } } } };
  });
  const conn = new Connection(fake.transport);
  const page = await Page.attach({
    targetId: "T",
    type: "page",
    browserContextId: undefined,
    openerId: undefined,
    parentSessionId: undefined,
    session: conn.session("S1"),
    url: "about:blank",
    title: "",
  });
  return { fake, conn, page };
}

Deno.test("Page.onEvent(): listeners get the event's params typed, after the tab's bookkeeping", async () => {
  const { fake, conn, page } = await fakeTab();
  try {
    const seen: string[] = [];
    // No casts below: this test fails to compile if the params are not typed by the event.
    page.onEvent("Network.requestWillBeSent", (e, session) => {
      seen.push(`${e.request.method} ${e.request.url} @${session.id}`);
    });
    page.onEvent((method, params, _session) => {
      if (method === "Page.frameNavigated") seen.push(`navigated ${params.frame.url} ${page.url}`);
    });
    fake.emit("Network.requestWillBeSent", { request: { method: "POST", url: "http://a/" } }, "S1");
    fake.emit(
      "Page.frameNavigated",
      { frame: { id: "T", loaderId: "L1", url: "http://b/" }, type: "Navigation" },
      "S1",
    );
    // Another session's events are not the tab's.
    fake.emit("Network.requestWillBeSent", { request: { method: "GET", url: "http://c/" } }, "S2");
    assertEquals(seen, ["POST http://a/ @S1", "navigated http://b/ http://b/"]);
  } finally {
    page.dispose();
    await conn.close();
  }
});

Deno.test("Page.send() passes the call's signal: an abort rejects at once and forgets the call", async () => {
  const { fake, conn, page } = await fakeTab();
  try {
    const cancel = new AbortController();
    const navigating = page.send("Page.navigate", { url: "http://x/" }, { signal: cancel.signal })
      .then(() => undefined, (e: unknown) => e);
    assertEquals(fake.last().method, "Page.navigate");
    assertEquals(fake.last().sessionId, "S1");
    assertEquals(fake.calls.size, 1);
    cancel.abort("cancelled by the client");
    const error = await navigating;
    assertTrue(error instanceof AbortError, `got ${error}`);
    assertEquals(error.reason, "cancelled by the client");
    assertEquals(fake.calls.size, 0);
    fake.last().reply({ result: { frameId: "T" } });
    // The late reply was dropped; the tab goes on.
    const { frameTree } = await page.send("Page.getFrameTree");
    assertEquals(frameTree.frame.id, "T");
  } finally {
    page.dispose();
    await conn.close();
  }
});
