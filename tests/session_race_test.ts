/**
 * Opens and closes of one session name sent at once: each is answered (no
 * waiting out a timeout), one open wins, the others hear `session-exists`,
 * and a session never ends up with the tabs of several opens. A call on a session that a
 * close_session ends under it says unknown-session (with the way to open it again).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const code = (r: ToolResult) => (r.structuredContent?.error as { code?: string } | undefined)?.code;

// One server (default configuration) and fixture site for the first two cases; each case ends
// with its sessions closed.
const cases = sharedSiteCases("session race, one server", {});

cases.test("session race: ten opens of one name at once make one session with one tab", async ({ fx, mcp }) => {
  const results = await Promise.all(
    Array.from(
      { length: 10 },
      () => mcp.call("open_session", { session: "x", url: fx.url("basic.html") }),
    ),
  );
  const opened = results.filter((r) => !r.isError);
  assertEquals(opened.length, 1, results.map(textOf).join("\n"));
  for (const r of results.filter((r) => r.isError)) {
    assertEquals(code(r), "session-exists", textOf(r));
  }
  const tabs = await mcp.ok("tabs", { session: "x", action: "list" });
  assertEquals((tabs.tabs as unknown[]).length, 1, JSON.stringify(tabs));
});

cases.test("session race: opens and closes of one name at once each get a clear answer", async ({ fx, mcp }) => {
  for (let round = 0; round < 3; round++) {
    const calls = ["open", "close", "open", "close", "open", "open", "close", "open"].map((op) =>
      op === "open"
        ? mcp.call("open_session", { session: "y", url: fx.url("basic.html") })
        : mcp.call("close_session", { session: "y" })
    );
    const results = await Promise.all(calls);
    for (const r of results) {
      assertTrue(!r.isError || code(r) === "session-exists", textOf(r));
    }
    const listed = await mcp.ok("list_sessions");
    const y = (listed.sessions as Array<{ session?: string; name?: string; tabs?: number }>)
      .find((s) => (s.session ?? s.name) === "y");
    if (y) {
      const tabs = await mcp.ok("tabs", { session: "y", action: "list" });
      assertEquals((tabs.tabs as unknown[]).length, 1, JSON.stringify(tabs));
    }
    // Whatever the order was, the name works afterwards.
    await mcp.ok("close_session", { session: "y" });
    await mcp.ok("open_session", { session: "y", url: fx.url("basic.html") });
    await mcp.ok("close_session", { session: "y" });
  }
});

Deno.test("session race: a call racing close_session of its session says unknown-session", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,sessions,storage" } });
  try {
    // dump_storage_state is the red team's case (its scratch tab waited 10 s for a target of
    // the disposed context: "timeout"); the others act on the tab the close takes away.
    const tools: Array<[string, Record<string, unknown>]> = [
      ["dump_storage_state", {}],
      ["inject_storage_state", { state: { cookies: [], origins: [] } }],
      ["snapshot", {}],
      ["navigate", { url: fx.url("basic.html?again") }],
    ];
    let raced = 0;
    for (const [tool, args] of tools) {
      for (let round = 0; round < 3; round++) {
        await mcp.ok("open_session", { session: "r", url: fx.url("basic.html") });
        const [r, closed] = await Promise.all([
          mcp.call(tool, { ...args, session: "r" }),
          mcp.call("close_session", { session: "r" }),
        ]);
        assertEquals(closed.isError, undefined, textOf(closed));
        // Done before the close, or told the session was closed: never a timeout or internal.
        if (!r.isError) continue;
        raced++;
        assertEquals(code(r), "unknown-session", `${tool}: ${textOf(r)}`);
        assertIncludes(textOf(r), `was closed (close_session) while "${tool}" ran`);
        assertIncludes(textOf(r), 'open_session({ session: "r" })');
      }
    }
    assertTrue(raced > 0, "no call met the close");
    // The name works afterwards.
    await mcp.ok("open_session", { session: "r", url: fx.url("basic.html") });
    await mcp.ok("dump_storage_state", { session: "r" });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
