/**
 * A click that opened a tab which became the session's active tab says so in its result
 * (`structure.activeTab`), not only in `newTabs` (NU s16, its `tabs.html`): later calls act
 * there. A click that opens nothing says nothing. MCP stdio, real Chromium.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import { actionOf } from "./_results.ts";

const TABS =
  `<!doctype html><title>Tabs</title><h1>Links</h1><p><a href="/tab2.html" target="_blank">Open help in new tab</a></p><p><button onclick="window.open('/tab2.html?via=js')">Popup via JS</button></p><p><button onclick="this.textContent='Pressed'">Stay</button></p>`;
const TAB2 = `<!doctype html><title>Help page</title><h1>Help</h1>`;

Deno.test("click: a new tab made active is said as structure.activeTab", async (t) => {
  const site = servePages({ "/tabs.html": TABS, "/tab2.html": TAB2 });
  const mcp = await startStdio();
  type S = { activeTab?: number; newTabs: Array<{ index: number }> };
  try {
    await mcp.ok("navigate", { url: `${site.base}/tabs.html`, snapshot: "none" });
    await t.step("a target=_blank link", async () => {
      const r = await mcp.call("click", {
        selector: "text=Open help in new tab",
        snapshot: "none",
      });
      const s = actionOf(r).structure as unknown as S;
      assertEquals(s.newTabs.map((n) => n.index), [1], textOf(r));
      assertEquals(s.activeTab, 1, textOf(r));
      assertIncludes(textOf(r), '"activeTab":1');
    });

    await t.step(
      "back on tab 0: a window.open popup, then a click that opens nothing",
      async () => {
        await mcp.ok("tabs", { action: "switch", index: 0 });
        const r = await mcp.call("click", { selector: "text=Popup via JS", snapshot: "none" });
        const s = actionOf(r).structure as unknown as S;
        assertEquals([s.newTabs.map((n) => n.index), s.activeTab], [[2], 2], textOf(r));
        await mcp.ok("tabs", { action: "switch", index: 0 });
        const stay = await mcp.call("click", { selector: "text=Stay", snapshot: "none" });
        assertEquals(stay.isError, undefined, textOf(stay));
        assertEquals((actionOf(stay).structure as unknown as S).activeTab, undefined);
      },
    );

    await t.step("bad input: a tab index that does not exist is refused", async () => {
      const r = await mcp.call("tabs", { action: "switch", index: 9 });
      assertEquals(r.isError, true, textOf(r));
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
