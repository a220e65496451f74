/**
 * `type` sends keys to the focused element: with nothing focused on a page that listens for no
 * keys it types nothing and says so (an error naming the way: click the field first); a page
 * that takes keys itself on its document (a typing game) gets them; a field focused inside an
 * iframe takes the text without a false warning; a focused button still gets the warning that
 * it takes no text.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { servePages } from "./_util.ts";
import { act, errorOf } from "./_results.ts";

const PAGES = {
  "/plain": `<!doctype html><title>Plain</title><label>Query <input id="q"></label>
    <button id="b" onclick="this.textContent = 'Pressed'">Go</button>
    <script>q.addEventListener("input", () => document.title = q.value);</script>`,
  "/game": `<!doctype html><title>Game</title><p id="log"></p>
    <script>document.addEventListener("keydown", (e) => log.textContent += e.key);</script>`,
  "/frame": `<!doctype html><title>Framed</title><h1>Outer</h1>
    <iframe id="fr" title="Inner" src="/inner"></iframe>`,
  "/inner": `<!doctype html><title>Inner</title><label>Inner field <input id="f"></label>`,
};

Deno.test("type goes to the focused element, or says it has nowhere to go", async (t) => {
  const srv = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step("nothing focused, no key listeners: an error, nothing typed", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/plain`, snapshot: "none" });
      const r = await mcp.call("type", { text: "abc" });
      assertEquals(r.isError, true, textOf(r));
      const e = errorOf(r);
      assertEquals(e.code, "invalid-argument", textOf(r));
      assertIncludes(e.message, "Nothing has the focus");
      assertIncludes(e.hint, "click the field first");
      assertEquals(r.structuredContent!.reason, "not-focused", textOf(r));
      assertEquals(await evalJs("q.value"), "");
      // Once a field has the focus, the same call types.
      await act(mcp, "click", { selector: "#q" });
      const ok = await act(mcp, "type", { text: "abc" });
      assertEquals(ok.warnings, []);
      assertEquals(await evalJs("q.value"), "abc");
    });

    await t.step("a focused button: typed, with the warning that it takes no text", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/plain`, snapshot: "none" });
      await evalJs("b.focus(), 1");
      const r = await act(mcp, "type", { text: "x" });
      assertIncludes(r.warnings.join(" "), "nothing was typed into a field");
      assertIncludes(r.warnings.join(" "), "does not take text");
      // Said in the structure too (s17: ok with a warning read as typed).
      assertEquals((r as unknown as Record<string, unknown>).typed, 0);
    });

    await t.step("a typing game (keys on its document): typed, said where they went", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/game`, snapshot: "none" });
      const r = await act(mcp, "type", { text: "abc" });
      assertEquals(await evalJs("log.textContent"), "abc");
      assertIncludes(r.warnings.join(" "), "the page's own key listeners");
    });

    await t.step("a field focused inside an iframe: typed, no false warning", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/frame`, snapshot: "none" });
      await act(mcp, "click", { selector: "#f" });
      const r = await act(mcp, "type", { text: "hi" });
      assertEquals(r.warnings, [], JSON.stringify(r.warnings));
      assertEquals(await evalJs("fr.contentDocument.getElementById('f').value"), "hi");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
