/**
 * `read_page` and `get_url` over MCP on real Chromium: the page as text (the text model: no
 * hidden text, no field values) with its links (absolute, de-duplicated, ≤ 100), as a tree of
 * actionable lines whose refs work with click, limited to a region by selector (`not-found`
 * when nothing matches), paged by characters; get_url's URL, title and tab count; bad input.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, type ToolResult } from "./_mcp.ts";

type R = Record<string, unknown>;
const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n");

Deno.test("read_page: text, links, tree with working refs, regions, paging, bad input", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  const read = async (args: R) => await mcp.ok("read_page", args);
  try {
    await mcp.ok("navigate", { url: fx.url("read-page.html"), snapshot: "none" });

    await t.step("text: shown text as lines; no hidden text, no values", async () => {
      const r = await read({});
      const text = String(r.content);
      assertEquals(r.mode, "text");
      assertIncludes(text, "Reading room\nArticles\nFirst paragraph, spread over lines.\n");
      assertIncludes(text, "Second paragraph Basic page and the same page.");
      assertIncludes(text, "Item 149");
      assertTrue(!/Hidden|Ada Lovelace value/.test(text), text);
      assertEquals(r.truncated, false);
      assertEquals(r.total_chars, text.length);
      assertEquals(r.url, fx.url("read-page.html"));
    });

    await t.step("links: visible, absolute, de-duplicated, at most 100", async () => {
      const r = await read({ links: true });
      const links = r.links as Array<{ text: string; href: string }>;
      assertEquals(links.length, 100);
      assertEquals(r.more_links, true);
      assertEquals(links[0], { text: "Basic page", href: fx.url("basic.html") });
      assertEquals(links[1], { text: "Forms icon", href: fx.url("forms.html") });
      assertEquals(links[2], { text: "Item 0", href: fx.url("item/0") });
      assertEquals(new Set(links.map((l) => l.href)).size, 100);
      assertTrue(!links.some((l) => /hidden|javascript/.test(l.href)), JSON.stringify(links));
    });

    await t.step("paging: pages add up to the whole text", async () => {
      const whole = String((await read({})).content);
      let offset = 0, joined = "", pages = 0;
      for (;;) {
        const r = await read({ offset, max_chars: 300 });
        joined += String(r.content);
        pages++;
        if (!r.truncated) break;
        offset = r.next_offset as number;
      }
      assertEquals(joined, whole);
      assertTrue(pages > 2, `${pages} pages`);
    });

    await t.step("tree: actionable lines and headings; its refs work with click", async () => {
      const r = await read({ mode: "tree" });
      const tree = String(r.content);
      assertIncludes(tree, "# Reading room\n## Articles\n");
      assertTrue(/^e\d+ link "Basic page" -> \/basic\.html$/m.test(tree), tree);
      assertTrue(/^e\d+ checkbox "Remember me" \[checked\]$/m.test(tree), tree);
      assertTrue(/^e\d+ textbox "Name"$/m.test(tree), "values are never shown");
      assertTrue(!tree.includes("Ada Lovelace"), tree);
      assertTrue(!tree.includes("Second paragraph"), "plain text is not in the tree");
      const go = /^(e\d+) button "Go"$/m.exec(tree)![1]!;
      await mcp.ok("click", { ref: go, snapshot: "none" });
      assertIncludes(String((await read({ selector: "#status" })).content), "Went somewhere");
    });

    await t.step("selector: one region, in both modes; no match answers not-found", async () => {
      const text = String((await read({ selector: "#tools" })).content);
      assertEquals(text.split("\n")[0], "Tools");
      assertTrue(!text.includes("Articles") && !text.includes("Item 1"), text);
      const tree = String((await read({ mode: "tree", selector: "#tools" })).content);
      assertIncludes(tree, 'button "Go"');
      assertTrue(!tree.includes("Basic page"), tree);
      const missing = await mcp.call("read_page", { selector: "#nothing-here" });
      assertEquals(missing.isError, true);
      assertEquals((missing.structuredContent!.error as R).code, "not-found", textOf(missing));
    });

    await t.step("bad input: invalid-argument with a hint", async () => {
      for (
        const [args, says] of [
          [{ max_chars: 0 }, '"max_chars" is 0'],
          [{ offset: -1 }, '"offset" is -1'],
          [{ mode: "tree", links: true }, '"links" goes with mode "text"'],
          [{ mode: "html" }, '"mode"'],
          [{ selector: "[[" }, "Invalid selector"],
        ] as const
      ) {
        const r = await mcp.call("read_page", args);
        assertEquals(r.isError, true, JSON.stringify(args));
        const error = r.structuredContent!.error as { code: string; hint: string };
        assertEquals(error.code, "invalid-argument", textOf(r));
        assertTrue(error.hint.length > 0);
        assertIncludes(textOf(r), says);
      }
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("get_url: URL, title and tab count; bad input", async () => {
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("read-page.html"), snapshot: "none" });
    assertEquals(await mcp.ok("get_url"), {
      url: fx.url("read-page.html"),
      title: "Read page",
      tab_count: 1,
    });
    await mcp.ok("tabs", { action: "new" });
    const two = await mcp.ok("get_url");
    assertEquals([two.url, two.tab_count], ["about:blank", 2]);
    const bad = await mcp.call("get_url", { session: "nope" });
    assertEquals(bad.isError, true);
    assertIncludes(textOf(bad), 'Unknown session "nope"');
    const extra = await mcp.call("get_url", { url: "x" });
    assertEquals((extra.structuredContent!.error as R).code, "invalid-argument", textOf(extra));
  } finally {
    await mcp.close();
    await fx.close();
  }
});
