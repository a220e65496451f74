/**
 * A scroll box's ref survives its own content changing (NU s17 finding 1): scrolling a virtual
 * list by its box's ref makes the list render other rows, and the same ref must scroll it again
 * (it failed "the page re-used the element" because the box was told by its text). The box is
 * judged by itself: a nameless one and a card-like one (a box among boxes of its class) alike.
 */
import { refOf, servePages } from "./_util.ts";
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Logs</title>
<style>.box{height:150px;overflow-y:auto;position:relative;border:1px solid}
.box .row{position:absolute;left:0;right:0;height:30px}</style>
<h1>Logs</h1>
<div class="box" id="a"><div class="spacer"></div></div>
<div class="box" id="b"><div class="spacer"></div></div>
<script>
const N = 1000, H = 30;
for (const box of document.querySelectorAll('.box')) {
  box.querySelector('.spacer').style.height = N * H + 'px';
  const vr = () => {
    const s = Math.floor(box.scrollTop / H), e = Math.min(N, s + 7);
    box.querySelectorAll('.row').forEach((r) => r.remove());
    for (let i = s; i < e; i++) {
      const r = document.createElement('div');
      r.className = 'row'; r.style.top = i * H + 'px';
      r.textContent = box.id + ' line ' + (i + 1);
      box.append(r);
    }
  };
  box.addEventListener('scroll', vr); vr();
}
</script>`;

Deno.test("a scroll box's ref scrolls it again after its rows changed", async () => {
  const site = servePages({ "/logs.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  try {
    await mcp.ok("navigate", { url: `${site.base}/logs.html`, snapshot: "none" });
    const tree = textOf(await mcp.call("snapshot", {}));
    const lines = tree.split("\n").filter((l) => l.includes("[scroll:"));
    assertEquals(lines.length, 2, tree);
    for (const line of lines) {
      const ref = refOf(line, /\[ref=/);
      let y = 0;
      for (const [i, mode] of (["delta", "delta", "none", "full"] as const).entries()) {
        const r = await mcp.call("scroll", { ref, by: { y: 300 }, snapshot: mode });
        assertEquals(r.isError, undefined, `scroll ${i + 1} of ${ref}: ${textOf(r)}`);
        const s = (r.structuredContent as R).element as R;
        y += 300;
        assertEquals((s.scroll as R).y, y, JSON.stringify(s));
        assertEquals(s.reusedFor, undefined, JSON.stringify(s));
      }
      // A snapshot between scrolls shows the box with the same ref.
      const again = textOf(await mcp.call("snapshot", {}));
      assertTrue(again.includes(`[ref=${ref}] [scroll:`), again);
      const r = await mcp.call("scroll", { ref, to: "top", snapshot: "none" });
      assertEquals(r.isError, undefined, textOf(r));
    }
  } finally {
    await mcp.close();
    await site.close();
  }
});
