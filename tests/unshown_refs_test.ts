/**
 * A ref no result ever showed the agent cannot be acted on: the agent could only have guessed
 * it (red team). Refs are issued by every capture, the before and after snapshots of an
 * action's delta too; a delta that says "unchanged" or a page cut off shows some of them to no
 * one. Refs shown once (a snapshot, a delta line, find, plan) stay usable, in batch and
 * execute too; a refusal naming a guessed ref does not make it shown.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { errorOf } from "./_results.ts";
import { refOf, servePages } from "./_util.ts";

type R = Record<string, unknown>;

const PAGES: Record<string, string> = {
  // A button added by a script (eval_js) after the agent saw the page without it.
  "/late": `<!doctype html><title>Late</title><h1>Late</h1>
<button onclick="this.dataset.n = 1">Noop</button>
<script>function addLate() {
  const b = document.createElement("button");
  b.textContent = "Delete everything";
  b.onclick = () => document.title = "DELETED";
  document.body.append(b);
  return "added";
}</script>`,
  // A long page: a paged snapshot shows its first buttons only.
  "/long": `<!doctype html><title>Long</title>${
    Array.from({ length: 300 }, (_, i) => `<p>Paragraph number ${i} of filler text</p>`).join("")
  }<button onclick="document.title = 'LAST'">Last button</button>`,
};

Deno.test("refs never shown to the agent are refused; shown ones keep working", async (t) => {
  const server = servePages(PAGES);
  const { base } = server;
  const mcp = await startStdio({
    env: {
      BROWX_TOOLSETS: "core,power,debug,sessions",
      BROWX_CAPABILITIES: "read,navigation,action,eval",
    },
  });
  const title = async () => String((await mcp.ok("get_url")).title);
  try {
    await t.step("a ref issued inside an 'unchanged' delta is refused, nothing runs", async () => {
      const nav = await mcp.call("navigate", { url: `${base}/late` });
      const noop = refOf(textOf(nav), "Noop");
      // eval_js shows no snapshot: the agent has not seen the button.
      assertEquals((await mcp.ok("eval_js", { expression: "addLate()" })).value, "added");
      // The action's before-capture issues the late button's ref; the delta shows nothing.
      const click = await mcp.ok("click", { ref: noop });
      assertEquals((click.snapshotDelta as R).unchanged, true);
      const guessed = `e${Number(noop.slice(1)) + 1}`;
      for (let i = 0; i < 2; i++) {
        // Refused each time: the refusal names the ref but does not show it.
        const r = await mcp.call("click", { ref: guessed });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(errorOf(r).message, `"${guessed}" was never shown to you`);
        assertIncludes(errorOf(r).hint ?? "", "take a snapshot");
        assertEquals((r.structuredContent as R).reason, "unshown");
      }
      const named = await mcp.call("name_ref", { name: "danger", ref: guessed });
      assertEquals(errorOf(named).code, "ref-gone", textOf(named));
      assertIncludes(errorOf(named).message, "was never shown to you");
      assertEquals(await title(), "Late");
      // Once a snapshot shows it, it is the agent's to use (the same ref).
      const tree = String((await mcp.ok("snapshot")).tree);
      assertEquals(refOf(tree, "Delete everything"), guessed);
      await mcp.ok("click", { ref: guessed });
      assertEquals(await title(), "DELETED");
    });

    await t.step("a ref past a paged snapshot's cut is refused until find shows it", async () => {
      // A session of its own: its refs are numbered from e1.
      await mcp.ok("open_session", { session: "paged" });
      await mcp.ok("navigate", { url: `${base}/long`, snapshot: "none", session: "paged" });
      const page = await mcp.ok("snapshot", { maxTokens: 200, session: "paged" });
      assertEquals(page.truncated, true);
      assertEquals(String(page.tree).includes("Last button"), false);
      // The capture issued refs to the whole page, numbered from the first: the button's is the
      // only one (paragraphs take none).
      const r = await mcp.call("click", { ref: "e1", session: "paged" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(errorOf(r).message, "was never shown to you");
      const found = await mcp.ok("find", { query: "Last button", session: "paged" });
      const ref = String((found.candidates as R[])[0]!.ref);
      assertEquals(ref, "e1");
      // A batch acts on a ref find showed.
      const batch = await mcp.ok("batch", {
        calls: [{ tool: "click", args: { ref, session: "paged" } }],
      });
      assertEquals(((batch.results as R[])[0] as R).ok, true, JSON.stringify(batch));
      assertEquals(String((await mcp.ok("get_url", { session: "paged" })).title), "LAST");
    });

    await t.step("plan's ref is shown: execute runs it", async () => {
      await mcp.ok("navigate", { url: `${base}/long`, snapshot: "none" });
      const d = await mcp.ok("plan", { query: "Last button", verb: "click" });
      const r = await mcp.ok("execute", { descriptor: d });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals(await title(), "LAST");
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
