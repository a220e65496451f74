/**
 * `scroll` reports the geometry after the page answered the scroll: an infinite feed that
 * appends posts when scrolled to its end gives the new scrollHeight and `atBottom: false`,
 * as the same result's delta shows the posts (NU finding 12: it said `atBottom: true` with
 * the height from before, and a "scroll until atBottom" loop stopped after one page).
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

/** A feed in `box` (the window when null) that appends 10 posts 300 ms after reaching its end. */
const feed = (inBox: boolean) =>
  `<!doctype html><title>Feed</title>
<style>.post{height:120px;border:1px solid #ccc;margin:8px}
#box{height:400px;overflow:auto}</style>
<h1>News feed</h1><div id="box"><div id="feed" role="feed"></div></div>
<script>
let n = 0, busy = false;
const feed = document.getElementById('feed');
const box = ${inBox ? "document.getElementById('box')" : "null"};
if (!box) document.getElementById('box').removeAttribute('id');
function more() {
  if (busy) return; busy = true;
  setTimeout(() => {
    for (let i = 0; i < 10; i++) {
      n++;
      const a = document.createElement('article');
      a.className = 'post';
      a.innerHTML = '<h2>Post ' + n + '</h2>';
      feed.appendChild(a);
    }
    busy = false;
  }, 300);
}
more();
(box ?? window).addEventListener('scroll', () => {
  const end = box ? box.scrollTop + box.clientHeight >= box.scrollHeight - 200
    : innerHeight + scrollY >= document.body.scrollHeight - 200;
  if (end) more();
});
</script>`;

Deno.test("scroll: the geometry after the page answered the scroll", async (t) => {
  const site = servePages({ "/feed.html": feed(false), "/box.html": feed(true) });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const geometry = async (args: R) => {
    const r = await mcp.call("scroll", args);
    assertEquals(r.isError, undefined, textOf(r));
    return { text: textOf(r), scroll: (r.structuredContent!.element as R).scroll as R };
  };
  try {
    await t.step("the window: the feed's new height, not at the bottom", async () => {
      await mcp.ok("navigate", { url: `${site.base}/feed.html`, snapshot: "none" });
      await mcp.ok("wait_for", { text: "Post 10", snapshot: "none" });
      const a = await geometry({ to: "bottom" });
      assertIncludes(a.text, "Post 20");
      assertEquals(a.scroll.atBottom, false, JSON.stringify(a.scroll));
      const b = await geometry({ by: { y: 0 }, snapshot: "none" });
      assertEquals(a.scroll.scrollHeight, b.scroll.scrollHeight);
    });

    await t.step("a container: its new height, not at its bottom", async () => {
      await mcp.ok("navigate", { url: `${site.base}/box.html`, snapshot: "none" });
      await mcp.ok("wait_for", { text: "Post 10", snapshot: "none" });
      const a = await geometry({ selector: "#box", to: "bottom" });
      assertIncludes(a.text, "Post 20");
      assertEquals(a.scroll.atBottom, false, JSON.stringify(a.scroll));
      const b = await geometry({ selector: "#box", by: { y: 0 }, snapshot: "none" });
      assertEquals(a.scroll.scrollHeight, b.scroll.scrollHeight);
      assertTrue((a.scroll.scrollHeight as number) > 2000, JSON.stringify(a.scroll));
    });

    await t.step("bad input: scroll with nothing to scroll is refused", async () => {
      const r = await mcp.call("scroll", {});
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "Nothing to scroll");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
