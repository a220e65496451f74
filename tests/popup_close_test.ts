/**
 * A popup that closes itself (`window.close()` from its Close button) is reported as a closed
 * tab: `navigation.kind` is `tab_closed` (the tab now active is its opener), and
 * `structure.closedTabs` names it. Not a navigation of the popup to its opener's URL.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";
import { eventually, refOf, servePages } from "./_util.ts";

const PAGES = {
  "/opener.html": `<!doctype html><title>Opener</title>
<button onclick="window.open('/help.html', 'help', 'width=400,height=300')">Open help</button>`,
  "/help.html": `<!doctype html><title>Help</title><h1>Help</h1>
<button onclick="window.close()">Close</button>`,
};

type R = Record<string, unknown>;

/** Opens the help popup from the opener and returns its Close button's ref and the opening click. */
async function openHelp(mcp: McpHarness, base: string): Promise<{ close: string; opened: R }> {
  await mcp.ok("navigate", { url: `${base}/opener.html`, snapshot: "none" });
  const opened = await mcp.ok("click", { selector: "text=Open help" });
  // The popup is followed: its Close button is in the tab now active.
  const snap = await eventually(
    async () => {
      const s = await mcp.ok("snapshot");
      return String(s.tree).includes('button "Close"') && String(s.tree);
    },
    10_000,
    "the popup's Close button",
  );
  return { close: refOf(snap, /button "Close"/), opened };
}

Deno.test("a popup closing itself: navigation.kind tab_closed and structure.closedTabs", async () => {
  const pages = servePages(PAGES);
  const mcp = await startStdio();
  try {
    const { close, opened } = await openHelp(mcp, pages.base);
    assertEquals(((opened.structure as R).newTabs as R[]).length, 1);
    const r = await mcp.call("click", { ref: close, snapshot: "none" });
    const s = r.structuredContent!;
    assertEquals(r.isError, undefined, textOf(r));
    const nav = s.navigation as R;
    assertEquals(nav.kind, "tab_closed", textOf(r));
    assertTrue(String(nav.from).endsWith("/help.html"), textOf(r));
    assertTrue(String(nav.to).endsWith("/opener.html"), textOf(r));
    const closed = (s.structure as R).closedTabs as R[];
    assertEquals(closed.map((t) => String(t.url).replace(pages.base, "")), ["/help.html"]);
    assertIncludes(textOf(r), '"closedTabs":[{"url":');
    // The next call acts on the opener, and nothing is told twice.
    const next = await mcp.ok("snapshot");
    assertIncludes(String(next.tree), 'button "Open help"');
  } finally {
    await mcp.close();
    await pages.close();
  }
});

Deno.test("bad input: a click on the closed popup's ref fails ref-gone", async () => {
  const pages = servePages(PAGES);
  const mcp = await startStdio();
  try {
    const { close } = await openHelp(mcp, pages.base);
    await mcp.ok("click", { ref: close, snapshot: "none" });
    const again = await mcp.call("click", { ref: close });
    assertEquals(again.isError, true, textOf(again));
    assertEquals((again.structuredContent!.error as R).code, "ref-gone");
  } finally {
    await mcp.close();
    await pages.close();
  }
});

Deno.test("a popup closed by a key (Enter on its Close button): tab_closed, not an error", async () => {
  const pages = servePages(PAGES);
  const mcp = await startStdio();
  try {
    const { close } = await openHelp(mcp, pages.base);
    const r = await mcp.call("press", { key: "Enter", ref: close, snapshot: "none" });
    assertEquals(r.isError, undefined, textOf(r));
    assertEquals((r.structuredContent!.navigation as R).kind, "tab_closed", textOf(r));
    const next = await mcp.ok("snapshot");
    assertIncludes(String(next.tree), 'button "Open help"');
  } finally {
    await mcp.close();
    await pages.close();
  }
});
