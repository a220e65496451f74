/**
 * `open_session { url }` answers once the page settled, as `navigate` does: an app that wires
 * itself up after the load event (it fetches what it needs first) is ready for the first
 * action. What the load raised (page errors, dialogs, new tabs) comes in that answer.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { refOf } from "./_util.ts";
import { sharedServerCases } from "./_shared_cases.ts";

// One server for these cases; each case ends with its sessions closed.
const cases = sharedServerCases("open_session with a url, one server");

cases.test("open_session with a url answers once the app set itself up after the load", async (mcp) => {
  const fx = await startFixtureServer();
  try {
    const opened = await mcp.ok("open_session", { session: "late", url: fx.url("late-app.html") });
    assertEquals(opened.httpStatus, 200);
    // The first look after the answer finds the app ready, its button there to act on.
    const tree = String((await mcp.ok("snapshot", { session: "late" })).tree);
    assertIncludes(tree, "Ready");
    const add = await mcp.ok("click", { session: "late", ref: refOf(tree, 'button "Add item"') });
    assertIncludes(String((add.snapshotDelta as Record<string, unknown>).tree), "Item 1");

    // What the load raised is that call's news, said once, there.
    const failing = await mcp.ok("open_session", {
      session: "boot",
      url: fx.url("late-app.html?fail"),
    });
    assertIncludes(JSON.stringify(failing.pageErrors), "Boot failed");
    const next = await mcp.ok("snapshot", { session: "boot" });
    assertIncludes(String(next.tree), "Ready");
    assertEquals(next.sinceLastCall, undefined);

    const popping = await mcp.ok("open_session", {
      session: "popup",
      url: fx.url("late-app.html?popup"),
    });
    assertEquals((popping.newTabs as Array<{ url: string }>).map((t) => t.url), [
      fx.url("basic.html"),
    ]);
    assertEquals((await mcp.ok("snapshot", { session: "popup" })).sinceLastCall, undefined);
  } finally {
    await fx.close();
  }
});

cases.test("open_session with a url keeps its timeoutMs: a server that does not answer fails in time, a page still loading is said so", async (mcp) => {
  const fx = await startFixtureServer();
  try {
    // No response within timeoutMs: the session is not opened, and the hint names the budget.
    const r = await mcp.call("open_session", {
      session: "silent",
      url: fx.url("slow?ms=10000"),
      timeoutMs: 1000,
    });
    assertEquals(r.isError, true, JSON.stringify(r.structuredContent));
    const error = r.structuredContent?.error as { code: string; message: string; hint: string };
    assertEquals(error.code, "navigation-failed");
    assertIncludes(error.message, "no response within 1000 ms");
    assertIncludes(error.hint, "timeoutMs");
    assertEquals((await mcp.ok("list_sessions", {})).sessions, []);

    // The document came but its load does not end: the answer comes at timeoutMs, says so,
    // and the page is there to read.
    const stuck = await mcp.ok("open_session", {
      session: "stuck",
      url: fx.url("stuck-image.html"),
      timeoutMs: 1000,
    });
    assertIncludes(String(stuck.warning), "loading");
    assertIncludes(String((await mcp.ok("snapshot", { session: "stuck" })).tree), "Stuck image");
  } finally {
    await fx.close();
  }
});
