/**
 * What an adversarial page or agent cannot do to the server: huge strings,
 * spinning scripts, concurrent calls on one session, hover tricks, a dead
 * renderer, idle HTTP clients, DNS-rebinding hosts.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startHttp, startStdio, textOf } from "./_mcp.ts";
import { cmdline, descendants, eventually } from "./_util.ts";

type R = Record<string, unknown>;

Deno.test("robustness: hostile pages and racing calls", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const text = async (selector: string) =>
    (await mcp.ok("eval_js", {
      expression: `document.querySelector(${
        JSON.stringify(selector)
      }).value ?? document.querySelector(${JSON.stringify(selector)}).textContent`,
    })).value;
  try {
    await mcp.ok("navigate", { url: fx.url("hostile.html"), snapshot: "none" });

    await t.step("a 6 MB title comes back capped, and the server lives", async () => {
      await mcp.ok("click", { selector: "#huge", snapshot: "none" });
      // Titles come from the browser's target info as it announces them (not asked of the tab).
      const r = await eventually(
        async () => {
          const r = await mcp.call("list_sessions");
          return textOf(r).includes("more chars]") && r;
        },
        10_000,
        "the huge title in list_sessions",
      );
      assertTrue(textOf(r).length < 20_000, `result is ${textOf(r).length} chars`);
    });

    await t.step("concurrent fills on one session each land in their own field", async () => {
      await Promise.all(
        ["t1", "t2", "t3"].map((id, i) =>
          mcp.ok("fill", { selector: `#${id}`, value: `v${i + 1}`, snapshot: "none" })
        ),
      );
      assertEquals([await text("#t1"), await text("#t2"), await text("#t3")], ["v1", "v2", "v3"]);
    });

    await t.step("an element that moves away from the pointer is not mis-clicked", async () => {
      const r = await mcp.call("click", { selector: "#alpha", snapshot: "none" });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "Did not click");
      assertEquals(await text("#clicked"), "none");
    });

    await t.step("network writes show query keys, never values", async () => {
      const r = await mcp.ok("click", { selector: "#post", snapshot: "none" });
      const all = JSON.stringify(r);
      assertTrue(!all.includes("QUERY_SECRET"), all);
      assertIncludes(all, "?token");
      const log = await mcp.ok("network_read", { pattern: "api/echo" });
      assertTrue(!JSON.stringify(log).includes("QUERY_SECRET"));
    });

    await t.step("handle_dialog arms the answer for the next action only", async () => {
      await mcp.ok("handle_dialog", { accept: true });
      const r = await mcp.ok("click", { selector: "#confirm", snapshot: "none" });
      assertEquals((r.dialogs as R[])[0]!.handledAs, "accepted");
      assertEquals(await text("#answer"), "answer: true");
      await mcp.ok("click", { selector: "#confirm", snapshot: "none" });
      assertEquals(await text("#answer"), "answer: false");
    });

    await t.step(
      "history moves return promptly (back/forward cache) without replayed console",
      async () => {
        const seq = (await mcp.ok("console_read", {})).last_seq as number;
        await mcp.ok("click", { selector: "#same-tab", snapshot: "none" });
        const started = Date.now();
        const back = await mcp.ok("go_back", { snapshot: "none" });
        assertTrue(Date.now() - started < 4000, `go_back took ${Date.now() - started} ms`);
        assertIncludes(String((back.navigation as R).to), "hostile.html");
        assertEquals(back.timedOut, undefined);
        const after = await mcp.ok("console_read", { since_seq: seq, pattern: "hostile loaded" });
        assertTrue((after.entries as unknown[]).length <= 1, JSON.stringify(after));
      },
    );

    await t.step("filling a secret field never echoes the value", async () => {
      await mcp.ok("navigate", { url: fx.url("secrets.html"), snapshot: "none" });
      for (const id of ["pw", "css-masked", "ac-otp", "css-area"]) {
        const r = await mcp.call("fill", { selector: `#${id}`, value: "FRESH_SECRET_42" });
        assertEquals(r.isError, undefined, textOf(r));
        assertTrue(!textOf(r).includes("FRESH_SECRET_42"), `${id}: ${textOf(r)}`);
        assertTrue(!JSON.stringify(r.structuredContent).includes("FRESH_SECRET_42"), id);
        assertEquals(((r.structuredContent!.element) as R).value, "••••");
      }
      const snap = await mcp.call("snapshot");
      assertTrue(!textOf(snap).includes("FRESH_SECRET_42"));
      await mcp.ok("navigate", { url: fx.url("hostile.html"), snapshot: "none" });
    });

    await t.step("clicking outside the viewport is refused", async () => {
      const r = await mcp.call("click", { coords: { x: 99_999, y: 5 } });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "outside the viewport");
    });

    await t.step(
      "a spinning script: the call times out, close_session recovers",
      async () => {
        await mcp.ok("open_session", { session: "spin", url: fx.url("hostile.html") });
        const r = await mcp.call("click", { session: "spin", selector: "#spin", timeoutMs: 1000 });
        assertEquals(r.isError, true);
        assertEquals((r.structuredContent!.error as { code: string }).code, "timeout", textOf(r));
        await mcp.ok("close_session", { session: "spin" });
        const ok = await mcp.ok("snapshot");
        assertIncludes(String(ok.tree), "Hostile page");
      },
    );

    await t.step("a killed renderer is reported, and navigate recovers the tab", async () => {
      await mcp.ok("open_session", { session: "crash", url: fx.url("basic.html") });
      const before = new Set(descendants(mcp.pid!));
      await mcp.ok("eval_js", { session: "crash", expression: "window.__mark = 1" });
      const renderers = descendants(mcp.pid!).filter((p) => cmdline(p).includes("--type=renderer"));
      assertTrue(renderers.length > 0 && before.size > 0);
      // A wait_for under way when the renderer dies says so, not "timeout" 20 s later.
      const lastUsed = async () =>
        ((await mcp.ok("list_sessions")).sessions as Array<{ session: string; lastUsed: string }>)
          .find((s) => s.session === "crash")!.lastUsed;
      const idle = await lastUsed();
      const waiting = mcp.call("wait_for", {
        session: "crash",
        text: "never on this page",
        timeoutMs: 20_000,
      });
      // The wait_for took the tab (session.page() marks the session used) and polls it.
      await eventually(async () => (await lastUsed()) !== idle, 10_000, "the wait_for to start");
      // Find the renderer of this tab: the one whose death the session notices.
      for (const p of renderers) {
        try {
          Deno.kill(p, "SIGKILL");
        } catch { /* gone */ }
      }
      const waited = await waiting;
      // page-crashed, not the wait's own timeout (a result with ok: false, not an error).
      assertEquals((waited.structuredContent!.error as { code: string }).code, "page-crashed");
      const crashed = await eventually(
        async () => {
          const r = await mcp.call("snapshot", { session: "crash" });
          return r.isError && textOf(r).includes("crashed") ? r : undefined;
        },
        15_000,
        "the crash to be reported",
      );
      assertIncludes(textOf(crashed!), "reload or navigate");
      const back = await mcp.ok("navigate", {
        session: "crash",
        url: fx.url("basic.html"),
        snapshot: "none",
      });
      assertEquals(back.httpStatus, 200);
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("robustness: idle HTTP clients are closed with their sessions", async () => {
  // One client at a time: the idle one's slot frees when the server closes it.
  const server = await startHttp({
    // Idle long enough that a new client's initialize and tools/list (the harness lists the
    // tools to validate results) are not swept apart on a loaded machine.
    env: { BROWX_HTTP_IDLE_MS: "2000", BROWX_HTTP_MAX_CLIENTS: "1" },
  });
  try {
    const a = await server.connect();
    await a.ok("list_sessions");
    // Waits without touching `a` (any request of its own would keep it alive).
    await eventually(() => server.connect(), 15_000, "the idle client to be closed");
    const r = await a.call("list_sessions").catch((e: Error) => e);
    assertTrue(r instanceof Error || (r as { isError?: boolean }).isError === true, String(r));
  } finally {
    await server.close();
  }
});
