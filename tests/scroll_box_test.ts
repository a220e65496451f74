/**
 * Inner scroll boxes that hide content (NU s15 finding 2): a virtual list of 10,000 rows keeps
 * 9 in the DOM. The snapshot marks the box (`[scroll: <1% shown, more below]`) with its name
 * and a ref, never the page's own scroller; `find` and `text_search` that find nothing name the
 * box to scroll; `scroll` by/to on a row (which cannot scroll) moves the list and says so, and
 * a scroll that moves nothing says it instead of a bare ok.
 */
import { refOf, servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Trips</title>
<style>#vlist{height:200px;overflow-y:auto;position:relative}
#vlist .row{position:absolute;left:0;right:0;height:30px}
#notes{height:60px;overflow:auto} #short{height:200px;overflow:auto}
.tall{height:1500px}</style>
<h1>Trips</h1>
<h2>All destinations</h2>
<div id="vlist" role="list" aria-label="Destinations"><div id="spacer"></div></div>
<div id="notes"><p>Note one</p><p>Note two</p><p>Note three</p><p>Note four</p></div>
<div id="short"><p>Fits in its box</p></div>
<textarea aria-label="Comment" rows="2">${"a long line of text\n".repeat(20)}</textarea>
<div class="tall">The page itself is taller than the window.</div>
<script>
const N = 10000, H = 30, vlist = document.getElementById('vlist');
document.getElementById('spacer').style.height = N * H + 'px';
const names = (i) => ['Paris', 'Rome', 'Oslo', 'Lima', 'Kyoto', 'Cairo', 'Quito', 'Perth'][i % 8] + ' #' + (i + 1);
function vr() {
  const s = Math.floor(vlist.scrollTop / H), e = Math.min(N, s + Math.ceil(200 / H) + 2);
  vlist.querySelectorAll('.row').forEach((r) => r.remove());
  for (let i = s; i < e; i++) {
    const r = document.createElement('div');
    r.className = 'row'; r.setAttribute('role', 'listitem');
    r.style.top = i * H + 'px'; r.textContent = names(i);
    vlist.append(r);
  }
}
vlist.addEventListener('scroll', vr); vr();
</script>`;

async function scrolled(mcp: McpHarness, args: R) {
  const r = await mcp.call("scroll", args);
  assertEquals(r.isError, undefined, textOf(r));
  const s = r.structuredContent as R;
  return {
    text: textOf(r),
    scroll: (s.element as R).scroll as R,
    warnings: s.warnings as string[],
  };
}

Deno.test("scroll boxes: marked, named by searches, scrolled through their rows", async (t) => {
  const site = servePages({ "/trips.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  try {
    let list = "";
    await t.step("the snapshot marks the boxes that hide content, with name and ref", async () => {
      await mcp.ok("navigate", { url: `${site.base}/trips.html`, snapshot: "none" });
      const tree = textOf(await mcp.call("snapshot", {}));
      assertIncludes(tree, '- list "Destinations" [ref=');
      assertIncludes(tree, "[scroll: <1% shown, more below]");
      list = refOf(tree, '- list "Destinations"');
      const notes = tree.split("\n").find((l) => l.includes("(#notes)")) ?? "";
      assertTrue(/- generic \[ref=e\d+\] \[scroll: \d+% shown, more below\]/.test(notes), tree);
      // Not the page's own scroller, not a box whose content fits, not a field's own text.
      assertEquals(tree.match(/\[scroll:/g)?.length, 2, tree);
      assertIncludes(tree, "Fits in its box");
    });

    await t.step("find and text_search that find nothing name the box to scroll", async () => {
      const f = await mcp.ok("find", { query: "Perth #5000" });
      assertEquals((f.candidates as R[]).length, 0);
      const hint = (f.warnings as string[]).find((w) => w.includes("search again")) ?? "";
      assertIncludes(hint, `list "Destinations" [${list}]`);
      assertIncludes(hint, "then search again");
      // A box whose text is all there (the notes) was searched already: not named.
      assertTrue(!hint.includes("generic"), hint);
      const s = await mcp.ok("text_search", { query: "Perth #5000" });
      assertEquals(s.total, 0);
      assertIncludes((s.warnings as string[]).join("\n"), `[${list}]`);
    });

    await t.step("scroll by on a row moves its list and says which", async () => {
      const a = await scrolled(mcp, { selector: "text=Paris #1", by: { y: 149970 } });
      assertIncludes(a.scroll.container as string, "Destinations");
      assertEquals(a.scroll.y, 149970, JSON.stringify(a.scroll));
      assertEquals(a.scroll.scrollHeight, 300000);
      assertIncludes(a.text, "more above+below");
      const f = await mcp.ok("find", { query: "Perth #5000" });
      assertIncludes(((f.candidates as R[])[0] ?? {}).why as string, "Perth #5000");
    });

    await t.step("a scroll that moves nothing says so", async () => {
      await scrolled(mcp, { ref: list, to: "bottom", snapshot: "none" });
      const b = await scrolled(mcp, { ref: list, by: { y: 100 } });
      assertEquals(b.scroll.moved, false, JSON.stringify(b.scroll));
      assertIncludes(
        b.warnings.join("\n"),
        "nothing scrolled: the element is already at the bottom",
      );
      const c = await scrolled(mcp, { by: { y: -100 } });
      assertIncludes(c.warnings.join("\n"), "nothing scrolled: the page is already at the top");
      // A by of zeros re-reads the geometry: no move asked, none reported missing.
      const d = await scrolled(mcp, { ref: list, by: { y: 0 }, snapshot: "none" });
      assertEquals(d.warnings ?? [], []);
    });

    await t.step("the hint's ref works with no snapshot before it", async () => {
      await mcp.ok("navigate", { url: `${site.base}/trips.html`, snapshot: "none" });
      const s = await mcp.ok("text_search", { query: "Perth #5000" });
      const hinted = /list "Destinations" \[(e\d+)\]/.exec((s.warnings as string[]).join("\n"));
      assertTrue(hinted !== null, JSON.stringify(s.warnings));
      const a = await scrolled(mcp, { ref: hinted![1]!, by: { y: 149970 }, snapshot: "none" });
      assertEquals(a.scroll.y, 149970, JSON.stringify(a.scroll));
    });

    await t.step("bad input: a by scroll of an unknown ref is refused", async () => {
      const r = await mcp.call("scroll", { ref: "e9999", by: { y: 10 } });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "e9999");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
