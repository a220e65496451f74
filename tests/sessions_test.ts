/**
 * Sessions: incognito isolation, persistent profiles surviving close and
 * reopen, a profile opened twice, attached (BYOB) mode behind its capability.
 */
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";

Deno.test("sessions: incognito contexts never share cookies or storage", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    await mcp.ok("open_session", { session: "a", url: fx.url("basic.html") });
    await mcp.ok("open_session", { session: "b", url: fx.url("basic.html") });
    await mcp.ok("eval_js", {
      session: "a",
      expression: "document.cookie = 'who=alice; path=/'; localStorage.setItem('k', 'v'); 1",
    });
    const a = await mcp.ok("eval_js", {
      session: "a",
      expression: "document.cookie + '|' + localStorage.getItem('k')",
    });
    const b = await mcp.ok("eval_js", {
      session: "b",
      expression: "document.cookie + '|' + localStorage.getItem('k')",
    });
    assertEquals(a.value, "who=alice|v");
    assertEquals(b.value, "|null");
    const again = await mcp.call("open_session", { session: "a" });
    assertEquals(again.isError, true);
    assertIncludes(textOf(again), "already open");
    const closed = await mcp.ok("close_session", { session: "a" });
    assertEquals(closed.wasRunning, true);
    const twice = await mcp.ok("close_session", { session: "a" });
    assertEquals(twice.wasRunning, false);
    // A misspelt name closes nothing, and the answer says which sessions are open.
    assertEquals(twice.warnings, ['no session "a" was open; open sessions: "b"']);
    const unknown = await mcp.call("snapshot", { session: "a" });
    assertEquals(unknown.isError, true);
    assertIncludes(textOf(unknown), 'Unknown session "a"');
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("sessions: a persistent profile keeps state across close and reopen", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  try {
    const opened = await mcp.ok("open_session", {
      session: "keep",
      mode: "persistent",
      url: fx.url("basic.html"),
    });
    assertIncludes(String(opened.profileDir), "profiles");
    await mcp.ok("eval_js", {
      session: "keep",
      expression: "localStorage.setItem('kept', 'yes'); 1",
    });
    const twice = await mcp.call("open_session", { session: "keep", mode: "persistent" });
    assertEquals(twice.isError, true);
    await mcp.ok("close_session", { session: "keep" });
    await mcp.ok("open_session", {
      session: "keep",
      mode: "persistent",
      url: fx.url("basic.html"),
    });
    const r = await mcp.ok("eval_js", {
      session: "keep",
      expression: "localStorage.getItem('kept')",
    });
    assertEquals(r.value, "yes");
    // Another server on the same workspace cannot take the profile while it is open.
    const other = await startStdio({ workspace: mcp.workspace });
    try {
      const clash = await other.call("open_session", { session: "keep", mode: "persistent" });
      assertEquals(clash.isError, true);
      assertIncludes(textOf(clash), "in use");
    } finally {
      await other.close();
    }
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("sessions: attached mode needs byob-attach and never closes the browser", async () => {
  const fx = await startFixtureServer();
  const theirs = await Browser.launch({ executablePath: findChromium().path, debugPort: true });
  const mcpRefused = await startStdio();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,byob-attach" },
  });
  try {
    const ws = theirs.wsEndpoint!;
    const httpEndpoint = `http://127.0.0.1:${new URL(ws).port}`;
    const refused = await mcpRefused.call("open_session", {
      session: "byob",
      mode: "attached",
      endpoint: ws,
    });
    assertEquals(refused.isError, true);
    assertEquals(refused.structuredContent!.requiredCapability, "byob-attach");
    const r = await mcp.ok("open_session", {
      session: "byob",
      mode: "attached",
      endpoint: ws,
      url: fx.url("basic.html"),
    });
    assertEquals(r.mode, "attached");
    const snap = await mcp.ok("snapshot", { session: "byob" });
    assertIncludes(String(snap.tree), "# Basic page");
    await mcp.ok("close_session", { session: "byob" });
    // The http://host:port form finds the WebSocket itself.
    await mcp.ok("open_session", { session: "byob2", mode: "attached", endpoint: httpEndpoint });
    await mcp.ok("close_session", { session: "byob2" });
    // Their browser still runs and answers.
    const v = await theirs.connection.send("Browser.getVersion");
    assertTrue(v.product.length > 0);
    const bad = await mcp.call("open_session", {
      session: "x",
      mode: "attached",
      endpoint: "http://127.0.0.1:1",
    });
    assertEquals(bad.isError, true);
  } finally {
    await mcp.close();
    await mcpRefused.close();
    await theirs.close();
    await fx.close();
  }
});
