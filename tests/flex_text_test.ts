/**
 * Flex and grid items are separate text, as innerText has them: a `<span>` in a flex row is
 * blockified, so "Price", "$12" and "In stock" do not glue into "Price$12In stock" in the
 * snapshot, `read_page` or `text_search`, and a flex button's name is spaced the way
 * Chromium's accessibility tree names it. Inline text stays joined ("<b>Bold</b>er" reads
 * "Bolder"), and so do inline-blocks in the page's text (innerText joins them too). Over MCP
 * stdio against real Chromium.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>flex</title></head><body>
<div style="display:flex;gap:8px"><span>Price</span><span>$12</span><span>In stock</span></div>
<div style="display:grid;grid-template-columns:1fr 1fr"><span>Status</span><span>Shipped</span></div>
<ul><li style="display:flex;gap:4px"><time>06:29</time><b>navigate</b><span>error</span><span>123 ms</span></li></ul>
<button style="display:flex;flex-direction:column"><span>default</span><span>incognito</span><span>about:blank</span></button>
<p><span style="display:inline-block">Alpha</span><span style="display:inline-block">Beta</span></p>
<p><b>Bold</b>er text and <span style="display:block">a block span</span> after</p>
</body></html>`;

Deno.test("flex and grid items are separate text in snapshot, read_page and text_search", async (t) => {
  const pages = servePages({ "/flex.html": PAGE });
  const mcp = await startStdio({
    env: { BROWX_TOOLSETS: "core,power,debug", BROWX_CAPABILITIES: "read,navigation,action,eval" },
  });
  try {
    await mcp.ok("navigate", { url: `${pages.base}/flex.html`, snapshot: "none" });

    await t.step("snapshot: items apart, inline text joined, names as Chromium's", async () => {
      const tree = String((await mcp.ok("snapshot")).tree);
      assertTrue(!/Price\$12|\$12In|navigateerror|StatusShipped/.test(tree), tree);
      assertIncludes(tree, "Price");
      assertIncludes(tree, "$12");
      assertIncludes(tree, "123 ms");
      assertIncludes(tree, 'button "default incognito about:blank"');
      assertIncludes(tree, "AlphaBeta", "inline-blocks join, as in innerText");
      assertIncludes(tree, "Bolder text and");
      assertTrue(!tree.includes("anda block"), tree);
    });

    await t.step("read_page: the lines innerText has", async () => {
      const text = String((await mcp.ok("read_page", {})).content);
      const inner = String(
        (await mcp.ok("eval_js", { expression: "document.body.innerText" })).value,
      );
      for (const line of ["Price", "$12", "In stock", "06:29", "navigate", "error", "123 ms"]) {
        assertTrue(inner.split("\n").includes(line), `innerText has ${line}: ${inner}`);
        assertTrue(text.split("\n").some((l) => l.trim() === line), `${line} in\n${text}`);
      }
      assertIncludes(text, "AlphaBeta");
      assertIncludes(text, "Bolder text and");
    });

    await t.step("text_search finds words across items", async () => {
      for (const query of ["12 In stock", "navigate error", "Status Shipped"]) {
        const r = await mcp.ok("text_search", { query });
        assertEquals(r.total, 1, `${query}: ${JSON.stringify(r)}`);
      }
      const glued = await mcp.ok("text_search", { query: "Price$12" });
      assertEquals(glued.total, 0, JSON.stringify(glued));
    });

    await t.step("bad input: an empty query is refused with a hint", async () => {
      const r = await mcp.call("text_search", { query: "" });
      assertTrue(r.isError === true, JSON.stringify(r));
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
