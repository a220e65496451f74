/**
 * Inert elements (an `inert` subtree, the page behind an open modal `<dialog>`) take no input:
 * `fill`, `click` and `press` on one fail `not-actionable` saying why (the container, the
 * dialog) and what to do, and nothing is written; the snapshot shows their controls marked
 * `[inert]` with no ref, as Chromium's accessibility tree leaves them out (it ignores them:
 * `inertElement`, `activeModalDialog`).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf } from "./_util.ts";

const PAGE = `<!doctype html><title>Inert</title><main><h1>Profile</h1>
<div inert id=box><label>Inert note <input id=inert></label>
<button id=ib onclick="log.push('ib')">Inert button</button></div>
<label>Comment <input id=comment></label>
<button id=open onclick="d.showModal()">Open modal</button>
<dialog id=d aria-label="Confirm"><p>Sure?</p><label>Reason <input id=reason></label>
<button onclick="d.close()">Close</button></dialog>
</main><script>window.log = []</script>`;

Deno.test("inert fields: actions refuse them, the snapshot marks them", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
  );
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await mcp.ok("navigate", { url: `http://127.0.0.1:${server.addr.port}/`, snapshot: "none" });

    await t.step("fill in an inert container: not-actionable, nothing written", async () => {
      const r = await mcp.call("fill", { selector: "#inert", value: "hello" });
      assertEquals(r.isError, true, textOf(r));
      const e = errorOf(r);
      assertEquals(e.code, "not-actionable", textOf(r));
      assertIncludes(e.message, "inert");
      assertIncludes(e.message, "div#box");
      assertEquals(await evalJs("document.getElementById('inert').value"), "");
    });

    await t.step("click and press on inert elements say inert, not covered", async () => {
      const click = await mcp.call("click", { selector: "#ib" });
      assertEquals(errorOf(click).code, "not-actionable", textOf(click));
      assertIncludes(errorOf(click).message, "inert");
      assertEquals(await evalJs("JSON.stringify(log)"), "[]");
      const press = await mcp.call("press", { selector: "#inert", key: "a" });
      assertEquals(errorOf(press).code, "not-actionable", textOf(press));
      assertIncludes(errorOf(press).message, "inert");
    });

    await t.step("the snapshot marks inert controls and gives them no ref", async () => {
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, 'textbox "Inert note" [inert]');
      assertIncludes(tree, 'button "Inert button" [inert]');
      assertTrue(!/Inert (note|button)" \[ref=/.test(tree), tree);
      refOf(tree, /textbox "Comment"/);
    });

    await t.step("behind an open modal dialog: refused, naming the dialog", async () => {
      const comment = refOf(String((await mcp.ok("snapshot")).tree), /textbox "Comment"/);
      await mcp.ok("click", { selector: "#open" });
      const r = await mcp.call("fill", { ref: comment, value: "unsaved" });
      const e = errorOf(r);
      assertEquals(e.code, "not-actionable", textOf(r));
      assertIncludes(e.message, 'behind the open modal dialog "Confirm"');
      assertIncludes(e.hint, "close the dialog");
      assertEquals(await evalJs("document.getElementById('comment').value"), "");
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, 'textbox "Comment" [inert]');
      // The dialog's own controls keep their refs and take input.
      const reason = refOf(tree, /textbox "Reason"/);
      await mcp.ok("fill", { ref: reason, value: "because" });
      assertEquals(await evalJs("document.getElementById('reason').value"), "because");
    });

    await t.step("bad input: fill with no target is refused before acting", async () => {
      const r = await mcp.call("fill", { value: "x" });
      assertEquals(r.isError, true, textOf(r));
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});
