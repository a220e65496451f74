/**
 * ask_human, highlight and open_session({ headful }) over MCP against real Chromium: an
 * unattended session answers `unattended` at once; a headful session (a shown Chromium of its
 * own on a headless server, on an Xvfb display) is attended: highlight outlines, ask_human
 * answers `awaiting_user`; closing a session discards the site approvals it earned; no display
 * is a clear refusal.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { NO_DISPLAY_REASON, startXvfb } from "./_xvfb.ts";
import { decode } from "fast-png";
import type { ToolResult } from "./_mcp.ts";

type R = Record<string, unknown>;

/** How many pixels of a screenshot result are the outline's orange (255, 128, 0). */
function orangePixels(r: ToolResult): number {
  const img = r.content.find((c) => c.type === "image")!;
  const png = decode(Uint8Array.from(atob(img.data!), (c) => c.charCodeAt(0)));
  let n = 0;
  for (let i = 0; i < png.data.length; i += png.channels) {
    const [red, green, blue] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (red > 220 && green > 90 && green < 170 && blue < 60) n++;
  }
  return n;
}

Deno.test("human tools: an unattended session answers at once, and a headless server without a display refuses a headful session", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,sessions,human", DISPLAY: "", WAYLAND_DISPLAY: "" },
  });
  try {
    const tree = String((await mcp.ok("navigate", { url: fx.url("form.html") })).snapshot ?? "");
    const snap = String((await mcp.ok("snapshot")).tree);
    const ref = refOf(snap || tree, "Sign up");
    for (
      const [tool, args] of [
        ["ask_human", { instruction: "Log in for me", ref }],
        ["highlight", { ref, note: "this button" }],
      ] as const
    ) {
      const r = await mcp.call(tool, args);
      assertEquals(r.isError, true, textOf(r));
      assertEquals((r.structuredContent?.error as R).code, "unattended");
      assertEquals(r.structuredContent?.status, "unattended");
      assertIncludes(textOf(r), "--console");
      assertIncludes(textOf(r), "headful: true");
    }
    const r = await mcp.call("open_session", { session: "shown", headful: true });
    assertEquals(r.isError, true, textOf(r));
    assertEquals((r.structuredContent?.error as R).code, "browser-unavailable");
    assertIncludes(textOf(r), "no display");
    // Nothing was left half-open.
    const list = await mcp.ok("list_sessions");
    assertEquals(
      (list.sessions as R[]).map((s) => s.session ?? s.id).includes("shown"),
      false,
      JSON.stringify(list),
    );
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test({
  name:
    "human tools: a headful session is shown (its own Chromium), attended, and closing it discards its site approvals",
  ignore: NO_DISPLAY_REASON !== undefined,
  async fn() {
    const x = await startXvfb();
    const fx = await startFixtureServer();
    let asked = 0;
    const mcp = await startStdio({
      env: {
        DISPLAY: x.display,
        BROWX_TOOLSETS: "core,sessions,debug,human",
        BROWX_CAPABILITIES: "read,navigation,action,human,eval",
        // The user agent tells the headless browser from the shown one.
        BROWX_AUTOMATION_TELLS: "1",
      },
      // Each new site is a question; the person says yes.
      elicit(params) {
        if (params.message.includes("site_visit")) asked++;
        return { action: "accept", content: { approve: true } };
      },
    });
    try {
      const opened = await mcp.ok("open_session", {
        session: "shown",
        headful: true,
        url: fx.url("form.html"),
      });
      assertEquals(opened.headful, true);
      // Its own shown browser; the server's other sessions stay headless.
      const ua = await mcp.ok("eval_js", { session: "shown", expression: "navigator.userAgent" });
      assertTrue(!String(ua.value).includes("Headless"), String(ua.value));
      await mcp.ok("navigate", { url: fx.url("basic.html"), snapshot: "none" });
      const plain = await mcp.ok("eval_js", { expression: "navigator.userAgent" });
      assertIncludes(String(plain.value), "HeadlessChrome");

      const ref = refOf(String((await mcp.ok("snapshot", { session: "shown" })).tree), "Sign up");
      const plainPixels = orangePixels(await mcp.call("screenshot", { session: "shown" }));
      const h = await mcp.ok("highlight", { session: "shown", ref, note: "press this" });
      // Drawn by the browser over the page, in the window (and so in its screenshots).
      const after = orangePixels(await mcp.call("screenshot", { session: "shown" }));
      assertTrue(after > plainPixels + 20, `outline pixels: ${plainPixels} before, ${after} after`);
      assertEquals(h.ref, ref);
      const box = h.box as { width: number; height: number };
      assertTrue(box.width > 0 && box.height > 0, JSON.stringify(box));
      const ask = await mcp.ok("ask_human", {
        session: "shown",
        instruction: "Type your password",
        ref,
      });
      assertEquals(ask.status, "awaiting_user");
      assertTrue(/^a\d+$/.test(String(ask.ask)), String(ask.ask));

      // A new site, approved once for the session: not asked again while it lives...
      const before = asked;
      await mcp.ok("navigate", { session: "shown", url: fx.crossUrl("basic.html") });
      await mcp.ok("navigate", { session: "shown", url: fx.url("basic.html") });
      await mcp.ok("navigate", { session: "shown", url: fx.crossUrl("form.html") });
      assertEquals(asked, before + 1);
      // ...and asked again once it was closed and opened anew (its first URL, then the other).
      await mcp.ok("close_session", { session: "shown" });
      await mcp.ok("open_session", { session: "shown", url: fx.url("basic.html") });
      await mcp.ok("navigate", { session: "shown", url: fx.crossUrl("basic.html") });
      assertEquals(asked, before + 3);
    } finally {
      await mcp.close();
      await fx.close();
      await x.close();
    }
  },
});
