/**
 * `find` on a list whose Delete buttons show only on their row's hover, with the pointer
 * resting on another row: "delete Milk" ranks Milk's (hidden) Delete first, the row's words
 * winning over the visible Delete of the hovered row; and a control alike in the main page and
 * in an iframe: the main page's first, a warning saying so.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { eventually, servePages } from "./_util.ts";

type Candidate = { ref: string; name: string; score: number; why: string };

const PAGES = {
  "/list": `<!doctype html><title>Shopping</title>
    <style>.row .del { visibility: hidden } .row:hover .del { visibility: visible }
    li { padding: 8px; }</style>
    <h1>Shopping</h1>
    <ul id="list">
      <li class="row">Milk <button class="del">Delete</button></li>
      <li class="row">Bread <button class="del">Delete</button></li>
      <li class="row">Eggs <button class="del">Delete</button></li>
    </ul>
    <script>for (const b of document.querySelectorAll(".del")) {
      b.onclick = () => b.closest("li").remove();
    }</script>`,
  "/framed": `<!doctype html><title>News</title><h1>News</h1>
    <button onclick="document.title = 'main'">Subscribe</button>
    <iframe title="Newsletter" src="/inner"></iframe>`,
  "/inner": `<!doctype html><title>Inner</title>
    <button onclick="parent.document.title = 'frame'">Subscribe</button>`,
};

Deno.test("find: a row's words beat the hovered row; the main page before a frame", async (t) => {
  const srv = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const find = async (query: string) =>
    (await mcp.ok("find", { query })) as { candidates: Candidate[]; warnings?: string[] };
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  try {
    await t.step("pointer on Bread's row: delete Milk is Milk's Delete", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/list`, snapshot: "none" });
      await mcp.ok("hover", { selector: "#list li:nth-child(2)", snapshot: "none" });
      assertEquals(
        await evalJs("document.querySelector('li:hover')?.firstChild.textContent.trim()"),
        "Bread",
      );
      for (const [query, left] of [["delete Milk", "Bread,Eggs"], ["delete Eggs", "Bread"]]) {
        const r = await find(query!);
        const top = r.candidates[0]!;
        assertIncludes(top.why, "shown on hover", JSON.stringify(r.candidates));
        await mcp.ok("click", { ref: top.ref, snapshot: "none" });
        const rows = await evalJs(
          "[...document.querySelectorAll('#list li')].map((l) => l.firstChild.textContent.trim()).join()",
        );
        assertEquals(rows, left, `${query}: ${JSON.stringify(r.candidates)}`);
        await mcp.ok("hover", { selector: "#list li:nth-child(1)", snapshot: "none" });
      }
    });

    await t.step("alike in the main page and a frame: the main page's first, said", async () => {
      await mcp.ok("navigate", { url: `${srv.base}/framed`, snapshot: "none" });
      await eventually(
        async () => ((await find("Subscribe button")).candidates.length >= 2),
        5000,
        "the frame's button",
      );
      const r = await find("Subscribe button");
      const [a, b] = r.candidates;
      assertEquals(a!.score, b!.score, JSON.stringify(r.candidates));
      const said = (r.warnings ?? []).find((w) => w.includes("in the main page goes first"));
      assertTrue(said !== undefined, JSON.stringify(r.warnings));
      assertIncludes(said!, `${a!.ref} and ${b!.ref}`);
      assertIncludes(said!, '"Newsletter"');
      await mcp.ok("click", { ref: a!.ref, snapshot: "none" });
      assertEquals(await evalJs("document.title"), "main");
    });
  } finally {
    await mcp.close();
    await srv.close();
  }
});
