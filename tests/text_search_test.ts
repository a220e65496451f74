/**
 * `text_search` over MCP on real Chromium: matches in the page's visible text (every frame,
 * open shadow roots, `content-visibility: auto` sections; not hidden text), each with its
 * excerpt, heading and a section ref that `snapshot({ ref })` scopes to; patterns on RE2; bad
 * input refused with a hint; five matches well within 500 o200k tokens; and the 5.8 MB Node.js
 * docs page, where the scoped snapshot is exactly the section of the match.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import type { TextMatch as Match } from "../browser/snapshot/page_text_search.ts";
import { countTokens } from "../bench/tokens.ts";
import { ensureNodeDocs } from "../bench/node_docs.ts";

Deno.test("text_search: matches, sections, frames, patterns, bad input", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  const search = async (args: Record<string, unknown>) => {
    const r = await mcp.ok("text_search", args);
    return r as { matches: Match[]; total: number; truncatedScan?: boolean };
  };
  const tree = async (ref: string) => String((await mcp.ok("snapshot", { ref })).tree);
  try {
    await mcp.ok("navigate", { url: fx.url("text-search.html"), snapshot: "none" });

    await t.step(
      "every shown match in snapshot order: shadow root, frame; not hidden",
      async () => {
        const r = await search({ query: "WIDGETS", limit: 50 });
        const excerpts = r.matches.map((m) => m.excerpt);
        assertEquals(r.total, 7, JSON.stringify(excerpts));
        assertEquals(r.matches.length, 7);
        assertIncludes(excerpts[0]!, "intro mentions widgets once");
        assertIncludes(excerpts[1]!, "Widgets need a license key");
        assertIncludes(excerpts[2]!, "Widgets got faster");
        assertIncludes(excerpts.join("\n"), "nested widgets list");
        assertIncludes(excerpts[5]!, "Shadow widgets text");
        assertIncludes(excerpts[6]!, "Framed widgets text");
        assertEquals(r.matches[6]!.frame, fx.url("text-search-frame.html"));
        assertEquals(r.matches[6]!.heading, "Frame heading");
        // A field's value is not page text; hidden text is not either.
        assertTrue(!excerpts.some((e) => /secret-ish|Hidden widgets|Invisible widgets/.test(e)));
        const five = await mcp.call("text_search", { query: "widgets" });
        const tokens = countTokens(textOf(five));
        assertTrue(tokens < 500, `5 matches cost ${tokens} o200k tokens`);
        assertEquals((five.structuredContent as { matches: Match[] }).matches.length, 5);
      },
    );

    await t.step("a heading's section: sectionRef scopes snapshot to it", async () => {
      const [m] = (await search({ query: "tarball alpha" })).matches;
      assertEquals(m!.heading, "On Linux");
      assertTrue(m!.sectionRef !== undefined, JSON.stringify(m));
      assertEquals(m!.headingRef, undefined, "the section is the heading's");
      const section = await tree(m!.sectionRef!);
      assertIncludes(section, "### On Linux");
      assertIncludes(section, "tarball alpha");
      assertIncludes(section, "Widgets got faster", "what follows the heading is its section");
      assertTrue(!section.includes("On Windows"), section);
      assertTrue(!section.includes("Installing"), section);

      const [h2] = (await search({ query: "license key" })).matches;
      assertEquals(h2!.heading, "Installing");
      const wide = await tree(h2!.sectionRef!);
      assertIncludes(wide, "## Installing");
      assertIncludes(wide, "### On Linux");
      assertIncludes(wide, "setup beta", "a deeper heading's section is inside");
      assertTrue(!wide.includes("Configuring"), wide);
    });

    await t.step("table rows, tables, lists, forms and landmarks are sections too", async () => {
      const [inRow] = (await search({ query: "got faster" })).matches;
      assertEquals(inRow!.heading, "On Linux");
      assertTrue(inRow!.headingRef !== undefined && inRow!.sectionRef !== inRow!.headingRef);
      // A match in a table row: its section is the row, one line, not the whole table; its
      // table's header row comes first (the cells' meaning).
      assertEquals(
        await tree(inRow!.sectionRef!),
        "| Version | Notes\n|---|---|\n| 2.0 | Widgets got faster",
      );
      const [inCaption] = (await search({ query: "Versions" })).matches;
      const table = await tree(inCaption!.sectionRef!);
      assertIncludes(table, '- table "Versions"');
      assertIncludes(table, "| Version | Notes\n  |---|---|\n  | 2.0 | Widgets got faster");
      assertTrue(!table.includes("tarball"), table);

      const [inList] = (await search({ query: "nested widgets" })).matches;
      const list = await tree(inList!.sectionRef!);
      assertIncludes(list, "colour: red", "the outermost list");
      assertTrue(!list.includes("Set the widget colour"), list);

      const [inForm] = (await search({ query: "Tell us" })).matches;
      assertIncludes(await tree(inForm!.sectionRef!), 'button "Send"');

      const [inNav] = (await search({ query: "home" })).matches;
      const nav = await tree(inNav!.sectionRef!);
      assertIncludes(nav, 'navigation "Site"');
      assertTrue(!nav.includes("Handbook"), nav);
    });

    await t.step("content-visibility: auto sections are searched", async () => {
      const [m] = (await search({ query: "marker zeta" })).matches;
      assertEquals(m!.heading, "Deep section");
      assertIncludes(await tree(m!.sectionRef!), "Far away marker zeta");
    });

    await t.step("RE2 patterns, case sensitivity, excerpt size", async () => {
      const r = await search({ query: "colou?r: \\w+", regex: true });
      assertEquals(r.total, 1);
      assertEquals(r.matches[0]!.match, "colour: red");
      assertEquals((await search({ query: "widgets", caseSensitive: true, limit: 50 })).total, 5);
      const short = await search({ query: "license", contextChars: 5 });
      assertTrue(short.matches[0]!.excerpt.length <= 5 + 7 + 5 + 2 + 10, short.matches[0]!.excerpt);
      assertEquals((await search({ query: "no such words anywhere" })).total, 0);
    });

    await t.step("a changed page is read again", async () => {
      assertEquals((await search({ query: "feedback omega" })).total, 0);
      const [inForm] = (await search({ query: "Tell us" })).matches;
      const send = /button "Send" \[ref=(e\d+)\]/.exec(await tree(inForm!.sectionRef!))![1];
      await mcp.ok("click", { ref: send, snapshot: "none" });
      const [m] = (await search({ query: "feedback omega" })).matches;
      assertIncludes(m!.excerpt, "Thanks for the feedback omega.");
    });

    await t.step("in a batch", async () => {
      const r = await mcp.ok("batch", {
        calls: [{ tool: "text_search", args: { query: "tarball alpha" } }],
      });
      const [step] = r.results as Array<{ ok: boolean; result: { matches: Match[] } }>;
      assertEquals(step!.ok, true, JSON.stringify(r));
      assertEquals(step!.result.matches[0]!.heading, "On Linux");
    });

    await t.step("bad input: invalid-argument with a hint", async () => {
      for (
        const [args, says] of [
          [{ query: "" }, "Empty query"],
          [{ query: "   " }, "Empty query"],
          [{ query: "(", regex: true }, "Invalid query"],
          [{ query: "a(?=b)", regex: true }, "lookahead"],
          [{ query: "x", limit: 0 }, "limit"],
          [{ query: "x", contextChars: -1 }, "contextChars"],
        ] as const
      ) {
        const r = await mcp.call("text_search", args);
        assertEquals(r.isError, true, JSON.stringify(args));
        const text = textOf(r);
        const error = r.structuredContent!.error as { code: string; hint: string };
        assertEquals(error.code, "invalid-argument", text);
        assertTrue(error.hint.length > 0, text);
        assertIncludes(text, says);
        assertIncludes(text, "Next:");
      }
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("text_search on the 5.8 MB Node.js docs: the scoped snapshot is the match's section", async () => {
  await ensureNodeDocs();
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.url("/node/all.html"), snapshot: "none" });
    const r = await mcp.call("text_search", { query: "Watch for changes on" });
    assertTrue(!r.isError, textOf(r));
    assertTrue(countTokens(textOf(r)) < 500, textOf(r));
    const found = r.structuredContent as { matches: Match[]; total: number };
    const m = found.matches.find((x) => x.heading?.startsWith("fs.watch("));
    assertTrue(m !== undefined, JSON.stringify(found));
    assertEquals(m!.heading, "fs.watch(filename[, options][, listener])");
    const section = String((await mcp.ok("snapshot", { ref: m!.sectionRef! })).tree);
    assertIncludes(section, "#### fs.watch(filename[, options][, listener])");
    assertIncludes(section, "Watch for changes on");
    assertIncludes(section, "##### Caveats", "its subsections are part of it");
    assertTrue(!section.includes("#### fs.watchFile("), "the next section is not");
    assertTrue(!section.includes("#### fs.watch(filename[, options][, listener])\n#"), section);
    assertTrue(section.length < 30_000, `section is ${section.length} chars`);

    const five = await mcp.call("text_search", { query: "recursive" });
    const fiveFound = five.structuredContent as { matches: Match[]; total: number };
    assertEquals(fiveFound.matches.length, 5);
    assertTrue(fiveFound.total > 5, JSON.stringify(fiveFound.total));
    const fiveTokens = countTokens(textOf(five));
    assertTrue(fiveTokens < 500, `5 matches on all.html cost ${fiveTokens} o200k tokens`);

    // A costly pattern is cut at the work budget, and says so.
    const costly = await mcp.ok("text_search", {
      query: "(?:alpha|beta|gamma)\\w{0,30}z",
      regex: true,
    });
    assertEquals(costly.truncatedScan, true, JSON.stringify(costly));

    const pattern = await mcp.ok("text_search", { query: "fs\\.watch\\w*\\(", regex: true });
    assertTrue((pattern.total as number) > 5, JSON.stringify(pattern));
  } finally {
    await mcp.close();
    await fx.close();
  }
});

// NU s16's long.html, one section: two buttons side by side, and inline markup inside a word.
const BUTTONS = `<!doctype html><title>Policy</title><section><h2>Chapter 38: Training policy 4</h2>
<p>To reimburse a lost laptop charger, file form <b>EXP</b>-77 within 30 days.</p><button>Request reimbursement</button><button>Acknowledge chapter 38</button><a href="#x" style="display:inline-block">Print</a></section>`;

Deno.test("text_search: side-by-side buttons' texts stay apart in an excerpt; inline markup joins", async () => {
  const site = servePages({ "/long.html": BUTTONS });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  try {
    await mcp.ok("navigate", { url: `${site.base}/long.html`, snapshot: "none" });
    const r = await mcp.ok("text_search", { query: "Request reimbursement" });
    const [m] = (r as { matches: Match[] }).matches;
    // Was "Request reimbursementAcknowledge chapter 38Print".
    assertIncludes(m!.excerpt, "Request reimbursement Acknowledge chapter 38 Print");
    assertIncludes(m!.excerpt, "form EXP-77");
    // The text selectors read the same model: each button is still matched on its own.
    const click = await mcp.call("click", { selector: "text=Acknowledge chapter 38" });
    assertEquals(click.isError, undefined, textOf(click));
    assertEquals((await mcp.ok("text_search", { query: "reimbursementAck" })).total, 0);
    // Bad input: an empty query is refused.
    assertEquals((await mcp.call("text_search", { query: "" })).isError, true);
  } finally {
    await mcp.close();
    await site.close();
  }
});
