/**
 * A tab whose dialog Chromium lost (a dialog that opened while another frame's showed: see
 * dialog_policy_test "overlap") crashed Chromium 156's browser process when reloaded,
 * navigated to its own URL (or reloaded by the page itself), closed, or had its context disposed
 * (close_session), killing every
 * session in that browser. browxai leaves such a tab for about:blank first
 * (browser/sessions/stuck_dialogs.ts): here the real page strands a dialog, each of those
 * steps runs, and the browser is the same process throughout, its other session still working.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startInProcess } from "./_in_process.ts";
import { textOf } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { alive, eventually } from "./_util.ts";

Deno.test("a tab with a dialog Chromium lost: reload, same URL, tab close and close_session leave Chromium running", async (t) => {
  const fx = await startFixtureServer();
  const server = await startInProcess({ BROWX_CAPABILITIES: "read,navigation,action,eval" });
  const overlap = fx.url(
    `dialogs-overlap.html?loop=${encodeURIComponent(fx.crossUrl("prompt-loop.html"))}`,
  );
  const ok = async (tool: string, args: Record<string, unknown>) => {
    const r = await server.call(tool, args);
    assertEquals(r.isError, undefined, `${tool}: ${textOf(r)}`);
    return r;
  };
  /** Runs the overlapping page in `session` until Chromium lost one of its dialogs. */
  const strand = async (session: string) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await ok("navigate", { url: overlap, session, snapshot: "none" });
      await ok("click", { selector: "#transfer", session, snapshot: "none" });
      const s = await server.sessions.get(session);
      const tab = s.activePage!.target.targetId;
      // The frame prompts 40 times in a row: its last answer settles the case within seconds.
      const lost = await eventually(() => s.dialogs.lostIn(tab), 4000, "a lost dialog")
        .catch(() => undefined);
      if (lost) return;
    }
    throw new Error("Chromium never lost a dialog in 10 tries");
  };
  try {
    await ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
    const first = await server.sessions.get("default");
    const pid = first.browser.pid!;
    await ok("open_session", { session: "victim" });
    const survived = async (step: string) => {
      assertTrue(alive(pid) && !first.browser.isClosed, `Chromium died on ${step}`);
      const r = await ok("snapshot", {});
      assertTrue(textOf(r).length > 0, step);
    };

    await t.step("reload", async () => {
      await strand("victim");
      await ok("reload", { session: "victim", snapshot: "none" });
      await survived("reload");
    });
    await t.step("navigate to the same URL", async () => {
      await strand("victim");
      await ok("navigate", { url: overlap, session: "victim", snapshot: "none" });
      await survived("navigate");
    });
    await t.step("the page reloading itself", async () => {
      await strand("victim");
      const s = await server.sessions.get("victim");
      const page = s.activePage!;
      // Its own reload (not browxai's): caught at its document request, taken via about:blank.
      await ok("eval_js", {
        expression: "window.old = 1; setTimeout(() => location.reload(), 0), 1",
        session: "victim",
      });
      // A new document of the same URL: reloaded, the lost dialog left behind.
      await eventually(
        async () => {
          const r = await server.call("eval_js", {
            expression: "`${typeof window.old} ${location.href}`",
            session: "victim",
          });
          return !s.dialogs.lostIn(page.target.targetId) &&
            textOf(r).includes(`undefined ${overlap}`);
        },
        10_000,
        "the page to load again",
      );
      await survived("the page's reload");
    });
    await t.step("closing the tab", async () => {
      await strand("victim");
      await ok("tabs", { action: "new", session: "victim" });
      await ok("tabs", { action: "close", index: 0, session: "victim" });
      await survived("tab close");
    });
    await t.step("close_session", async () => {
      await strand("victim");
      await ok("close_session", { session: "victim" });
      await survived("close_session");
    });
  } finally {
    await server.close();
    await fx.close();
  }
});
