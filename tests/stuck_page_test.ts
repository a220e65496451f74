/**
 * After a call's budget is spent on a page whose own script loops forever, the timeout's way
 * out works at once: the stuck script is stopped, and navigating elsewhere succeeds (red team:
 * a navigate, a reload or a new tab timed out for about 30 s; only close_session helped).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { textOf } from "./_mcp.ts";
import { sharedServerCases } from "./_shared_cases.ts";
import { startFixtureServer } from "./fixtures/server.ts";

/**
 * The cases share one server (default configuration); each closes its sessions after it, so the
 * next starts on a fresh session as on a fresh server.
 */
const cases = sharedServerCases("stuck pages and turns, one server");

cases.test("a spent budget stops the page's endless script; navigate works next", async (mcp) => {
  const fx = await startFixtureServer();
  try {
    await mcp.ok("navigate", { url: fx.url("stuck.html") });
    const r = await mcp.call("click", { selector: "#hang", timeoutMs: 1000 });
    assertEquals((r.structuredContent?.error as { code?: string } | undefined)?.code, "timeout");
    assertIncludes(textOf(r), "navigate elsewhere or reload");
    // The way out the hint names, within its own default budget.
    const next = await mcp.call("navigate", { url: fx.url("basic.html"), timeoutMs: 5000 });
    assertEquals(next.isError, undefined, textOf(next));
    const snap = await mcp.call("snapshot", {});
    assertEquals(snap.isError, undefined, textOf(snap));
  } finally {
    await fx.close();
  }
});

cases.test("a call kept waiting for its session's turn until its budget ran out is told so", async (mcp) => {
  const fx = await startFixtureServer();
  try {
    await mcp.ok("navigate", { url: fx.url("turns.html") });
    // Holds the session's turn for its 8 s: its target never stops moving.
    const slow = mcp.call("click", { selector: "#moving", timeoutMs: 8000 });
    // Queued behind it, with a budget (300 ms + the grace) that runs out while it waits.
    const queued = await mcp.call("click", { coords: { x: 100, y: 330 }, timeoutMs: 300 });
    const error = queued.structuredContent?.error as { code?: string; message?: string };
    assertEquals(error.code, "timeout");
    // Said by the MCP layer or the browser layer, whichever ran out first (timing): both name
    // the session's turn and that nothing was done.
    assertIncludes(error.message ?? "", "the session's turn");
    assertIncludes(error.message ?? "", "nothing was done");
    assertIncludes(textOf(queued), "use another session");
    await slow;
  } finally {
    await fx.close();
  }
});
