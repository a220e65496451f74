/**
 * Failures provoked the hostile way, over MCP stdio against real Chromium:
 * tabs and sessions closed under running calls, pages that navigate away
 * mid-call, renderers killed, values that are not JSON, files that are
 * folders. Each comes back with a precise code and a next step; none as
 * `internal` with a hint that does not help.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf, type ToolResult } from "./_mcp.ts";
import { cmdline, descendants, eventually } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";

type R = Record<string, unknown>;
type Err = { code: string; message: string; hint: string };

const errorOf = (r: ToolResult): Err => {
  assertEquals(r.isError, true, textOf(r));
  return (r.structuredContent as R).error as Err;
};

Deno.test("errors: hostile failures get precise codes and hints, never a bare internal", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval,file-io", BROWX_TOOLSETS: "all" },
  });
  const seen: Array<[string, Err]> = [];
  /** Calls, and records the error (if any) for the final sweep. */
  const call = async (label: string, tool: string, args: R = {}) => {
    const r = await mcp.call(tool, args);
    if (r.isError) seen.push([label, (r.structuredContent as R).error as Err]);
    return r;
  };
  /** Resolves once the server has begun `tool` (its audit start line is written). */
  const started = async (tool: string, count: number) =>
    await eventually(
      async () => {
        let n = 0;
        for await (const f of Deno.readDir(`${mcp.workspace}/audit`)) {
          const text = await Deno.readTextFile(`${mcp.workspace}/audit/${f.name}`);
          n += text.split("\n").filter((l) =>
            l.includes('"phase":"start"') &&
            l.includes(`"tool":"${tool}"`)
          ).length;
        }
        return n >= count;
      },
      10_000,
      `${tool} to start`,
    );
  let evals = 0;
  let waits = 0;
  try {
    await t.step("values that are not JSON: not-json, with what to return instead", async () => {
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      for (
        const expression of [
          "window",
          "(() => { const a = {}; a.a = a; return a })()",
          "Symbol('s')",
        ]
      ) {
        evals++;
        const e = errorOf(await call(`eval ${expression}`, "eval_js", { expression }));
        assertEquals(e.code, "not-json", e.message);
        assertIncludes(e.hint, "plain data");
      }
    });

    await t.step("a tab closed under a running call: page-closed, pointing at tabs", async () => {
      await mcp.ok("open_session", { session: "a", url: fx.url("basic.html") });
      await mcp.ok("tabs", { session: "a", action: "new" });
      const waiting = call("wait_for closed tab", "wait_for", {
        session: "a",
        selector: "#never",
        timeoutMs: 20_000,
      });
      await started("wait_for", ++waits);
      await mcp.ok("tabs", { session: "a", action: "close", index: 1 });
      const w = errorOf(await waiting);
      assertEquals(w.code, "page-closed", w.message);
      assertIncludes(w.hint, 'tabs({ action: "list" })');

      await mcp.ok("tabs", { session: "a", action: "new" });
      const evaluating = call("eval closed tab", "eval_js", {
        session: "a",
        expression: "new Promise(() => {})",
        timeoutMs: 20_000,
      });
      await started("eval_js", ++evals);
      await mcp.ok("tabs", { session: "a", action: "close", index: 1 });
      const e = errorOf(await evaluating);
      assertEquals(e.code, "page-closed", e.message);
      assertIncludes(e.hint, 'tabs({ action: "list" })');
    });

    await t.step("a page that navigates away under a call: page-changed", async () => {
      const evaluating = call("eval navigated", "eval_js", {
        session: "a",
        expression:
          "setTimeout(() => { location.href = '/form.html' }, 200); new Promise(() => {})",
        timeoutMs: 20_000,
      });
      const e = errorOf(await evaluating);
      evals++;
      assertEquals(e.code, "page-changed", e.message);
      assertIncludes(e.hint, "new snapshot");
    });

    await t.step("a session closed under running calls: unknown-session", async () => {
      await mcp.ok("open_session", { session: "b", url: fx.url("basic.html") });
      const waiting = call("wait_for closed session", "wait_for", {
        session: "b",
        text: "never on this page",
        timeoutMs: 20_000,
      });
      const evaluating = call("eval closed session", "eval_js", {
        session: "b",
        expression: "new Promise(() => {})",
        timeoutMs: 20_000,
      });
      await started("wait_for", ++waits);
      await started("eval_js", ++evals);
      await mcp.ok("close_session", { session: "b" });
      for (const e of [errorOf(await waiting), errorOf(await evaluating)]) {
        assertEquals(e.code, "unknown-session", e.message);
        assertIncludes(e.message, 'Session "b" was closed');
        assertIncludes(e.hint, 'open_session({ session: "b" })');
      }
    });

    await t.step("a folder where a file belongs: invalid-argument", async () => {
      await Deno.mkdir(`${mcp.workspace}/folder`);
      const e = errorOf(await call("dump to folder", "dump_storage_state", { path: "folder" }));
      assertEquals(e.code, "invalid-argument", e.message);
      assertIncludes(e.hint, "not a folder");
    });

    await t.step("a renderer killed under a click: page-crashed, not a timeout", async () => {
      await mcp.ok("open_session", { session: "c", url: fx.url("basic.html") });
      const clicking = call("click crashed", "click", {
        session: "c",
        selector: "#never",
        timeoutMs: 20_000,
      });
      await started("click", 1);
      // Every renderer (the other sessions' tabs are not used again).
      const renderers = descendants(mcp.pid!).filter((p) => cmdline(p).includes("--type=renderer"));
      assertTrue(renderers.length > 0, "found the renderers");
      for (const p of renderers) {
        try {
          Deno.kill(p, "SIGKILL");
        } catch { /* gone */ }
      }
      const e = errorOf(await clicking);
      assertEquals(e.code, "page-crashed", e.message);
      assertIncludes(e.hint, "reload or navigate");
    });

    await t.step("no failure was internal", () => {
      assertTrue(seen.length >= 10, `${seen.length} failures provoked`);
      const internal = seen.filter(([, e]) => e.code === "internal");
      assertEquals(internal, [], "failures coded internal");
      for (const [label, e] of seen) {
        assertTrue(e.hint.length > 10 && e.message.length > 10, `${label}: ${JSON.stringify(e)}`);
      }
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("errors: a browser that exits at start is named, with where browxai looks for one", async () => {
  // /bin/true starts and exits 0 at once: no endpoint involved, the executable is the fault.
  const mcp = await startStdio({ args: ["--browser", "/bin/true"] });
  try {
    const e = errorOf(await mcp.call("navigate", { url: "about:blank", snapshot: "none" }));
    assertEquals(e.code, "browser-unavailable", e.message);
    assertIncludes(e.message, 'Cannot start Chromium "/bin/true": it exited with code 0');
    for (const way of ["--browser", "BROWX_BROWSER", "CHROME_PATH", "install chromium"]) {
      assertIncludes(e.hint, way);
    }
    assertTrue(!e.hint.includes("endpoint"), e.hint);
  } finally {
    await mcp.close();
  }
});
