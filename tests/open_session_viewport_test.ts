/**
 * `open_session({ viewport })` end to end, over MCP stdio against real Chromium: the viewport
 * is session emulation state, so the first tab and a popup the page opens (`window.open`, which
 * asks for a 400x300 window) both report it from inside the page, and a later `set_viewport`
 * replaces it in every tab.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio } from "./_mcp.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { eventually } from "./_util.ts";

interface Size {
  width: number;
  height: number;
  search: string;
}

async function size(mcp: McpHarness, session: string): Promise<Size> {
  const expression = "({ width: innerWidth, height: innerHeight, search: location.search })";
  return (await mcp.ok("eval_js", { session, expression })).value as Size;
}

Deno.test("open_session viewport: first tab and popups get it, set_viewport replaces it", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,sessions,debug,emulation",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  const session = "vp";
  try {
    await t.step("the first tab has the viewport", async () => {
      const r = await mcp.ok("open_session", {
        session,
        url: fx.url("popup.html"),
        viewport: { width: 640, height: 480 },
      });
      assertEquals(r.ok, true);
      assertEquals(r.warning, undefined);
      const p = await size(mcp, session);
      assertEquals([p.width, p.height], [640, 480]);
    });

    await t.step("a popup opened by the page (window.open) has the same viewport", async () => {
      await mcp.ok("click", { session, selector: "#popup-button" });
      const p = await eventually(
        async () => {
          const p = await size(mcp, session);
          return p.search === "?popup=1" && p;
        },
        5000,
        "the session to follow the popup",
      );
      assertEquals([p.width, p.height], [640, 480], "popup viewport");
    });

    await t.step("set_viewport afterwards replaces it in the popup and its opener", async () => {
      const r = await mcp.ok("set_viewport", { session, width: 500, height: 400 });
      const state = r.state as { viewport: unknown };
      assertEquals(state.viewport, { width: 500, height: 400 });
      const popup = await size(mcp, session);
      assertEquals([popup.search, popup.width, popup.height], ["?popup=1", 500, 400]);
      await mcp.ok("tabs", { session, action: "switch", index: 0 });
      const opener = await size(mcp, session);
      assertEquals([opener.search, opener.width, opener.height], ["", 500, 400]);
    });

    await t.step("a session opened without a viewport keeps the browser's own", async () => {
      await mcp.ok("open_session", { session: "plain", url: fx.url("basic.html") });
      const p = await size(mcp, "plain");
      assertTrue(p.width !== 500 && p.width !== 640, `width ${p.width}`);
      await mcp.ok("close_session", { session: "plain" });
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
