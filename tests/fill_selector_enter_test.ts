/**
 * `fill { submit: true }` into a field in no form whose Enter nothing answered warns so by
 * selector as by ref (NU finding 4: by selector it said nothing, and a batch of three such
 * fills into a broken TodoMVC answered "4 of 4 steps ok" with nothing added). A field whose
 * page answers Enter gets no warning either way.
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

const PAGE = `<!doctype html><title>Plain</title>
<h1>Search</h1>
<input id="q" aria-label="Query">
<input id="s" type="search" aria-label="Search"
  onkeydown="if (event.key === 'Enter') document.getElementById('out').textContent = 'Searched: ' + this.value">
<p role="status" id="out"></p>`;

const NOTHING = "Enter changed nothing but the field";

Deno.test("fill submit by selector: a field nothing answers is said, as by ref", async (t) => {
  const site = servePages({ "/plain.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const fill = async (args: Record<string, unknown>) => {
    const r = await mcp.call("fill", { value: "hello", submit: true, ...args });
    assertEquals(r.isError, undefined, textOf(r));
    return (r.structuredContent!.warnings as string[]).join("\n");
  };
  try {
    await mcp.ok("navigate", { url: `${site.base}/plain.html` });

    await t.step("by selector: warned", async () => {
      assertIncludes(await fill({ selector: "#q" }), NOTHING);
    });

    await t.step("by ref: warned the same", async () => {
      const ref = /textbox "Query" \[ref=(e\d+)\]/.exec(textOf(await mcp.call("snapshot")))![1]!;
      assertIncludes(await fill({ ref, value: "again" }), NOTHING);
    });

    await t.step("a field whose page answers Enter: no warning by selector", async () => {
      assertEquals(await fill({ selector: "#s", value: "cats" }), "");
      assertIncludes(textOf(await mcp.call("snapshot")), "Searched: cats");
    });

    await t.step("bad input: a selector that matches nothing fails, nothing typed", async () => {
      const r = await mcp.call("fill", {
        selector: "#missing",
        value: "x",
        submit: true,
        timeoutMs: 500,
      });
      assertEquals(r.isError, true);
      assertEquals((r.structuredContent!.error as Record<string, unknown>).code, "not-found");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
