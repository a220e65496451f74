/**
 * `fetchLater()` to a `--blocked-origins` URL killed the tab's renderer (red team s15 #9):
 * `Network.setBlockedURLs` meeting a deferred fetch crashes it (measured on raw CDP), and every
 * later call failed with "the tab crashed". browxai starts Chromium without the API: the page's
 * call throws, the page lives on (its next request arrives), and the blocked origin gets
 * nothing.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { startTwoOrigins } from "./_two_origins.ts";
import { eventually } from "./_util.ts";

Deno.test("blocked origins: fetchLater to one crashes no tab and sends nothing", async () => {
  const srv = startTwoOrigins((_a, b) => ({
    "/p": `<title>p</title><button id=go onclick="
  try { fetchLater('${b}/x/later?v=1', { activateAfter: 300 }); this.textContent = 'armed'; }
  catch (e) { this.textContent = e.name; }
  fetch('/alive');">Go</button>`,
  }));
  const mcp = await startStdio({ args: ["--blocked-origins", new URL(srv.b).host] });
  try {
    await mcp.ok("navigate", { url: `${srv.a}/p`, snapshot: "none" });
    await mcp.ok("click", { selector: "#go", snapshot: "none" });
    await eventually(() => srv.seen("A").includes("GET /alive"), 10_000, "the page's next fetch");
    // The tab answers (no crash), and the call threw in the page instead.
    const snap = textOf(await mcp.call("snapshot", {}));
    assertTrue(snap.includes('button "ReferenceError"'), snap);
    assertEquals((await mcp.ok("get_url")).title, "p");
    assertEquals(srv.seen("B"), []);
  } finally {
    await mcp.close();
    await srv.close();
  }
});
