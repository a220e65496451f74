/**
 * `batch` and `execute` answer in the compact text a direct call gives: one block per step
 * holding that step's own text (its delta raw, not a JSON-escaped string), so three fills in a
 * batch cost about what three direct fills cost. structuredContent keeps every step's result.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";

const PAGE = `<!doctype html><title>Todo</title>
<input id="new" aria-label="New todo" onkeydown="if (event.key === 'Enter' && this.value) {
  const li = document.createElement('li'); li.textContent = this.value;
  document.getElementById('list').append(li); this.value = ''; }">
<ul id="list"></ul>`;

Deno.test("batch and execute: each step's text as a direct call answers", async (t) => {
  const pages = servePages({ "/todo.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core,power" } });
  const fill = (value: string) => ({ selector: "#new", value, submit: true });
  try {
    await t.step(
      "three fills: the batch text is the three direct texts and a line each",
      async () => {
        await mcp.ok("navigate", { url: `${pages.base}/todo.html`, snapshot: "none" });
        const direct: string[] = [];
        for (const v of ["Buy milk", "Walk dog", "Read book"]) {
          direct.push(textOf(await mcp.call("fill", fill(v))));
        }
        await mcp.ok("navigate", { url: `${pages.base}/todo.html`, snapshot: "none" });
        const r = await mcp.call("batch", {
          calls: ["Buy milk", "Walk dog", "Read book"].map((v) => ({
            tool: "fill",
            args: fill(v),
          })),
        });
        const text = textOf(r);
        assertEquals(r.isError, undefined, text);
        assertTrue(text.startsWith("3 of 3 steps ok\n[1] fill\n"), text);
        assertIncludes(text, "\n[3] fill\n");
        // The delta is raw lines, not an escaped string inside JSON.
        assertIncludes(text, "+ * Read book");
        assertTrue(!text.includes('"tree":'), text);
        const directChars = direct.reduce((n, d) => n + d.length, 0);
        assertTrue(
          text.length <= directChars + 60,
          `batch ${text.length} chars vs ${directChars} direct`,
        );
        const results = r.structuredContent!.results as Array<{ ok: boolean; result: unknown }>;
        assertEquals(results.map((x) => x.ok), [true, true, true]);
      },
    );

    await t.step("a failed step says which, with its own error text", async () => {
      const r = await mcp.call("batch", {
        calls: [{ tool: "fill", args: fill("x") }, { tool: "click", args: { ref: "e999" } }],
      });
      const text = textOf(r);
      assertEquals(r.isError, true);
      assertTrue(text.startsWith("2 of 2 steps run; step 2 failed\n"), text);
      assertIncludes(text, "[2] click (failed)\n");
      assertIncludes(text, "e999");
    });

    await t.step("execute answers with the verb's own text", async () => {
      const d = await mcp.ok("plan", { query: "New todo", verb: "fill", verbArgs: { value: "Z" } });
      const direct = textOf(await mcp.call("fill", { selector: "#new", value: "Z" }));
      const r = await mcp.call("execute", { descriptor: d });
      const text = textOf(r);
      assertEquals(r.isError, undefined, text);
      assertTrue(text.startsWith(`fill ${String(d.id)}:\n{"ok":true`), text);
      assertTrue(text.length <= direct.length + 40, `execute ${text.length} vs ${direct.length}`);
      assertEquals(r.structuredContent!.ok, true);
    });

    await t.step("bad input: a tool batch cannot run is refused", async () => {
      const r = await mcp.call("batch", { calls: [{ tool: "batch", args: {} }] });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), 'batch cannot run "batch"');
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
