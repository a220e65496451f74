/**
 * A target=_blank link's new tab: its document request is in the click's `network` and in
 * `network_read` (NU s17 finding 6: it was missing, sent while the tab's set-up was still
 * answered, before the session heard the tab). And a click the browser's validation stopped:
 * ok with a warning when no `submits` was declared, `form-invalid` when it was (as README
 * says). MCP stdio, real Chromium.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";
import { act, actionOf } from "./_results.ts";

type R = Record<string, unknown>;

const PAGES = {
  "/a.html": `<!doctype html><title>A</title><h1>Start</h1>
<a href="/b.html?from=a" target="_blank">Open B</a>
<form action="/b.html"><label>Email <input name=email type=email required></label>
<button>Send</button></form>`,
  "/b.html": `<!doctype html><title>B</title><h1>B page</h1>`,
};

Deno.test("a new tab's document request is listed; validation-stopped clicks", async (t) => {
  const site = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "all" } });
  const b = `${site.base}/b.html?from=a`;
  try {
    await t.step("target=_blank: the click's network and network_read list b.html", async () => {
      await mcp.ok("navigate", { url: `${site.base}/a.html`, snapshot: "none" });
      const r = await act(mcp, "click", { selector: "text=Open B", snapshot: "none" });
      assertEquals(r.structure.activeTab, 1, JSON.stringify(r.structure));
      const requests = (r.network as unknown as { requests?: R[] }).requests ?? [];
      const doc = requests.find((q) => q.url === b);
      assertTrue(doc !== undefined, JSON.stringify(r.network));
      assertEquals([doc!.type, doc!.status], ["Document", 200]);
      const entries = await eventually(async () => {
        const log = (await mcp.ok("network_read", {})).entries as R[];
        return log.some((e) => e.url === b && e.status === 200) && log;
      });
      const docs = entries.filter((e) => e.type === "Document").map((e) => e.url);
      assertEquals(docs, [`${site.base}/a.html`, b]);
    });

    await t.step("validation stops the form: ok+warning undeclared, error declared", async () => {
      await mcp.ok("tabs", { action: "switch", index: 0 });
      const plain = await act(mcp, "click", { selector: "text=Send", snapshot: "none" });
      assertEquals(plain.ok, true);
      const warned = (plain.warnings ?? []).find((w) => w.startsWith("the form was not sent"));
      assertIncludes(warned ?? "", "the browser's validation stopped it");
      const declared = await mcp.call("click", {
        selector: "text=Send",
        submits: true,
        snapshot: "none",
      });
      assertEquals(declared.isError, true, textOf(declared));
      const s = actionOf(declared);
      assertEquals([s.ok, s.submitted, s.error?.code], [false, false, "form-invalid"]);
      assertEquals((s.invalid as string[]).map((f) => f.split(":")[0]), ["email"]);
    });

    await t.step("bad input: network_read with an unknown field is refused", async () => {
      const r = await mcp.call("network_read", { tab: 0 });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "tab");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
