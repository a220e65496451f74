/**
 * A `target=_blank` link to an attachment: Chromium opens a tab whose first navigation turns
 * into a download and leaves the tab empty (or closes it). Without `download: true` the click
 * says a download was blocked; with it the file is saved; either way the next calls of the
 * session are not held up by the tab the download left behind.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

Deno.test("a target=_blank link to an attachment", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/report.csv") {
      return new Response("name,amount\nalice,10\n", {
        headers: {
          "content-type": "text/csv",
          "content-disposition": 'attachment; filename="report.csv"',
        },
      });
    }
    return new Response(
      `<!doctype html><title>Exports</title><h1>Exports</h1>` +
        `<p><a href="/report.csv" target="_blank">CSV in new tab</a></p>` +
        `<p><button onclick="this.textContent='Clicked'">Press</button></p>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: `${base}/files.html`, snapshot: "none" });
    // Without download: true the file is not saved, and the click says so.
    const blocked = await mcp.call("click", { selector: "text=CSV in new tab" });
    assertEquals(blocked.isError, true, textOf(blocked));
    const b = blocked.structuredContent!;
    assertEquals((b.error as R).code, "download-blocked", textOf(blocked));
    assertEquals(
      (b.downloadsBlocked as R[] | undefined)?.map((d) => d.filename),
      ["report.csv"],
      textOf(blocked),
    );
    assertTrue(!/had not settled/.test(textOf(blocked)), textOf(blocked));
    // With it, the file is saved.
    const r = await mcp.call("click", { selector: "text=CSV in new tab", download: true });
    assertEquals(r.isError, undefined, textOf(r));
    const s = r.structuredContent!;
    assertEquals((s.downloads as R[]).map((d) => d.filename), ["report.csv"], textOf(r));
    assertTrue(!/had not settled/.test(textOf(r)), textOf(r));
    // The tab the download left behind holds up nothing: the next action settles.
    const after = await mcp.call("click", { selector: "text=Press" });
    assertEquals(after.isError, undefined, textOf(after));
    assertTrue(!/had not settled/.test(textOf(after)), textOf(after));
    assertIncludes(textOf(after), 'button "Clicked"');
    const tabs = await mcp.ok("tabs", { action: "list" });
    assertEquals((tabs.tabs as R[]).length, 1, JSON.stringify(tabs));
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
