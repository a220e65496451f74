/**
 * A navigate that fails (nothing listens at the port) leaves the tab on Chromium's error page
 * (`chrome-error://chromewebdata/`): the result is the `navigation-failed` error and a short
 * note, not an outline of that page with refs to its Reload and Details buttons.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

Deno.test("navigate to a refused port: the error and a note, no outline of Chrome's error page", async () => {
  const pages = servePages({ "/home.html": "<!doctype html><title>Home</title><h1>Home</h1>" });
  // A port nobody listens on: taken, then let go.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dead = `http://127.0.0.1:${(probe.addr as Deno.NetAddr).port}/`;
  probe.close();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${pages.base}/home.html`, snapshot: "none" });
    const r = await mcp.call("navigate", { url: dead });
    const text = textOf(r);
    assertEquals(r.isError, true, text);
    assertEquals((r.structuredContent!.error as { code: string }).code, "navigation-failed");
    assertIncludes(text, "no outline of it is sent");
    assertTrue(!/\[ref=e\d+\]/.test(text) && !text.includes("Reload"), text);
    assertTrue(text.length < 700, `${text.length} chars: ${text}`);
    // A working URL afterwards answers with its outline as usual.
    const back = await mcp.call("navigate", { url: `${pages.base}/home.html` });
    assertIncludes(textOf(back), "# Home");
  } finally {
    await mcp.close();
    await pages.close();
  }
});
