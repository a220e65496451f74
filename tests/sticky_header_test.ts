/**
 * A button under a sticky header (or a fixed banner) is scrolled clear of it, as a person
 * scrolls a bit more: a click acts on it, and scroll({ ref }) brings it clear too (NU finding 8:
 * the click failed saying "close or dismiss the covering element", impossible for a header,
 * and scroll({ ref }) did not move the page). When no scroll clears it, the error says it is a
 * fixed/sticky box and what to do instead.
 */
import { refOf, servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";

type R = Record<string, unknown>;

const ROWS = Array.from(
  { length: 40 },
  (_, i) =>
    `<div class="row">Item ${
      i + 1
    } <button onclick="document.getElementById('msg').textContent = 'Added item ${
      i + 1
    }'">Add item ${i + 1}</button></div>`,
).join("\n");

const STICKY = `<!doctype html><title>Sticky</title>
<style>body{margin:0} header{position:sticky;top:0;background:#eee;height:120px;z-index:10}
.row{height:60px;border-bottom:1px solid #ddd}
#banner{position:fixed;bottom:0;left:0;right:0;height:90px;background:#ff0;z-index:10}</style>
<header><h1 style="margin:0">Shop</h1><nav><a href="#a">Home</a></nav></header>
${ROWS}
<div id="banner"><p role="status" id="msg">none</p></div>`;

// Three fixed bands, each under half the view, that together cover all of it: no scroll clears.
const WALLED = `<!doctype html><title>Walled</title>
<style>body{margin:0} .band{position:fixed;left:0;right:0;height:34vh;background:#ccd;z-index:5}
.row{height:60px}</style>
<div class="band" style="top:0">Top band</div><div class="band" style="top:33vh">Middle band</div>
<div class="band" style="top:66vh">Bottom band</div>
${ROWS}<p role="status" id="msg">none</p>`;

Deno.test("a sticky header or fixed banner over a button: scrolled clear", async (t) => {
  const site = servePages({ "/sticky.html": STICKY, "/walled.html": WALLED });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const scrollY = async () =>
    ((await mcp.ok("scroll", { by: { y: 0 }, snapshot: "none" })).element as R).scroll as R;
  const refOfItem = async (n: number) =>
    refOf(textOf(await mcp.call("snapshot")), `button "Add item ${n}"`);
  try {
    await mcp.ok("navigate", { url: `${site.base}/sticky.html`, snapshot: "none" });

    await t.step("a click on a button under the sticky header acts on it", async () => {
      const ref = await refOfItem(18);
      // Item 18's row starts at 120 + 17 * 61 px: at y 1100 its button sits under the header.
      await mcp.ok("scroll", { by: { y: 1100 }, snapshot: "none" });
      const r = await mcp.call("click", { ref });
      assertEquals(r.isError, undefined, textOf(r));
      assertIncludes(textOf(await mcp.call("snapshot")), "Added item 18");
    });

    await t.step("under the fixed bottom banner: clicked too", async () => {
      await mcp.ok("scroll", { to: "top", snapshot: "none" });
      // The view is ~720 px: item 10's button (row top 120 + 9 * 61) sits under the banner.
      const r = await mcp.call("click", { selector: "text=Add item 10" });
      assertEquals(r.isError, undefined, textOf(r));
      assertIncludes(textOf(await mcp.call("snapshot")), "Added item 10");
    });

    await t.step("scroll({ ref }) brings it clear of the header", async () => {
      const ref = await refOfItem(18);
      await mcp.ok("scroll", { to: "top", snapshot: "none" });
      await mcp.ok("scroll", { by: { y: 1100 }, snapshot: "none" });
      const r = await mcp.ok("scroll", { ref, snapshot: "none" });
      const y = ((r.element as R).scroll as R).y as number;
      assertTrue(y < 1100, `the page did not move: y ${y}`);
      assertEquals((await scrollY()).y, y);
    });

    await t.step("no scroll clears it: the error says a fixed box, and what to do", async () => {
      await mcp.ok("navigate", { url: `${site.base}/walled.html`, snapshot: "none" });
      const r = await mcp.call("click", { selector: "text=Add item 5", timeoutMs: 4000 });
      assertEquals(r.isError, true, textOf(r));
      const s = r.structuredContent!;
      assertEquals([(s.error as R).code, s.cover], ["covered", "pinned"]);
      assertIncludes(String((s.error as R).message), "a fixed box (a header or banner)");
      assertIncludes(String((s.error as R).hint), "press Enter");
      assertTrue(!/close or dismiss/.test(textOf(r)), textOf(r));
    });

    await t.step("bad input: scroll with a ref never issued is refused", async () => {
      const r = await mcp.call("scroll", { ref: "e9999" });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "e9999");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
