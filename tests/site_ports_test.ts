/**
 * The red team's port attack on site approvals (session 16), over MCP stdio against real
 * Chromium: with the `human` capability the person approved the agent's dev server
 * `http://127.0.0.1:A`, and `GET http://127.0.0.1:B/admin/delete?all=1` (another server on
 * another port) went unasked, since an IP's site was the IP. Now an IP's or localhost's site is
 * its host and port: B is a new site, asked, and refused on a no, before any request.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

Deno.test("site approvals: approving 127.0.0.1:A approves no other port", async () => {
  const hits: string[] = [];
  const serve = (name: string) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      hits.push(`${name} ${new URL(req.url).pathname}`);
      return new Response(`<title>${name}</title>${name}`, {
        headers: { "content-type": "text/html" },
      });
    });
  const a = serve("app"), b = serve("admin");
  const asked: string[] = [];
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,human" },
    elicit(params) {
      asked.push(params.message);
      // Yes to the first site (the dev app), no to anything after.
      return { action: "accept", content: { approve: asked.length === 1 } };
    },
  });
  try {
    const appUrl = `http://127.0.0.1:${a.addr.port}/`;
    await mcp.ok("navigate", { url: appUrl, snapshot: "none" });
    assertEquals(asked.length, 1);
    assertIncludes(asked[0]!, `127.0.0.1:${a.addr.port}`);
    // Within the approved site: no question.
    await mcp.ok("navigate", { url: `${appUrl}again`, snapshot: "none" });
    assertEquals(asked.length, 1);

    const admin = `http://127.0.0.1:${b.addr.port}/admin/delete?all=1`;
    const r = await mcp.call("navigate", { url: admin, snapshot: "none" });
    assertEquals(r.isError, true, textOf(r));
    assertEquals(asked.length, 2, "the other port is asked");
    assertIncludes(asked[1]!, `127.0.0.1:${b.addr.port}`);
    assertEquals(hits.filter((h) => h.startsWith("admin")), [], "the admin server got nothing");
    assertEquals((await mcp.ok("get_url")).title, "app", "the tab stays");
  } finally {
    await mcp.close();
    await a.shutdown();
    await b.shutdown();
  }
});
