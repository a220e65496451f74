/**
 * Clicking a row of a virtual list (10,000 rows, only those in view in the DOM, all re-rendered
 * on every scroll of the list), new user finding s15 #2: the click's scroll into view centered a
 * fully shown row inside its list too, the list re-rendered, and every click failed "no longer
 * attached". Now a scroll box that shows the row is left alone (the page scrolls to the list);
 * a row its own scroll re-renders anyway (half out of its list) is looked up again: a selector
 * matches the new row, a ref finds the one row of its role, name and place, and the result
 * says so.
 */
import { refOf, servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const ROW_H = 30;

const PAGE = `<!doctype html><title>Virtual rows</title>
<style>#pad{height:900px} #vlist{height:200px;overflow-y:auto;position:relative;border:1px solid}
.row{position:absolute;left:0;right:0;height:${ROW_H}px}</style>
<h1>All destinations</h1><div id="pad">Pick a destination below.</div>
<div id="vlist" role="listbox" aria-label="Destinations"><div id="spacer"></div></div>
<p id="log">No click yet</p>
<script>
const N = 10000, H = ${ROW_H};
spacer.style.height = N * H + "px";
const names = (i) => ["Paris", "Rome", "Oslo", "Lima"][i % 4] + " #" + (i + 1);
window.renders = 0;
function render() {
  renders++;
  const s = Math.floor(vlist.scrollTop / H), e = Math.min(N, s + Math.ceil(200 / H) + 1);
  vlist.querySelectorAll(".row").forEach((r) => r.remove());
  for (let i = s; i < e; i++) {
    const r = document.createElement("div");
    r.className = "row";
    r.setAttribute("role", "option");
    r.style.top = i * H + "px";
    r.textContent = names(i);
    r.onclick = () => log.textContent = "clicked " + r.textContent;
    vlist.append(r);
  }
}
vlist.addEventListener("scroll", render);
render();
</script>`;

Deno.test("virtual list: a click on a row scrolls only what does not show it", async (t) => {
  const site = servePages({ "/vlist.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) => (await mcp.ok("eval_js", { expression })).value;
  // Row 7004 (index 7003) at `offset` px from the list's top, drawn; renders counted from 0.
  const place = async (offset: number) => {
    // The list's scroll event comes with the next frame: counted from after it.
    await evalJs(`(async () => {
      vlist.scrollTop = ${7003 * ROW_H - offset};
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      renders = 0;
      log.textContent = "No click yet";
      return 1;
    })()`);
  };
  try {
    await mcp.ok("navigate", { url: `${site.base}/vlist.html`, snapshot: "none" });

    await t.step(
      "a fully shown row below the fold: the page scrolls, the list does not",
      async () => {
        await place(0);
        const before = await evalJs("vlist.scrollTop");
        const r = await act(mcp, "click", { selector: "text=Lima #7004", snapshot: "none" });
        assertEquals(r.ok, true);
        assertEquals(await evalJs("log.textContent"), "clicked Lima #7004");
        assertEquals(await evalJs("vlist.scrollTop"), before, "the list kept its scroll");
        assertEquals(await evalJs("renders"), 0, "the list did not re-render");
        assertTrue(Number(await evalJs("scrollY")) > 0, "the page scrolled to the list");
        assertEquals(r.warnings ?? [], []);
      },
    );

    await t.step("a row half out of its list: re-rendered by its scroll, found again", async () => {
      await evalJs("scrollTo(0, 0); 1");
      // 10 px of the row show at the list's bottom: its center (the click point) does not.
      await place(190);
      const r = await act(mcp, "click", { selector: "text=Lima #7004", snapshot: "none" });
      assertEquals(r.ok, true);
      assertEquals(await evalJs("log.textContent"), "clicked Lima #7004");
      assertTrue(Number(await evalJs("renders")) > 0, "the list's own scroll re-rendered it");
      assertIncludes(String(r.warnings), "re-rendered it on that scroll");
    });

    await t.step("by ref: the one row of its name, found again and said", async () => {
      await place(190);
      const tree = textOf(await mcp.call("snapshot"));
      const ref = refOf(tree, `option "Lima #7004"`);
      const r = await act(mcp, "click", { ref, snapshot: "none" });
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals(await evalJs("log.textContent"), "clicked Lima #7004");
      assertTrue(Number(await evalJs("renders")) > 0, "the list's own scroll re-rendered it");
      assertEquals(r.warnings?.length, 1, String(r.warnings));
      assertIncludes(r.warnings![0]!, `${ref}'s element was re-rendered by the page`);
    });

    await t.step("a row not rendered: not-found names the list to scroll, with a ref", async () => {
      await place(0);
      const r = await mcp.call("click", { selector: "text=Lima #9000", timeoutMs: 3000 });
      assertEquals(errorOf(r).code, "not-found", textOf(r));
      const box = /listbox "Destinations" \[(e\d+)\]/.exec(textOf(r))?.[1];
      assertTrue(box !== undefined, textOf(r));
      assertIncludes(textOf(r), "may hold more not rendered yet");
      // The ref it names scrolls the list (no snapshot first).
      await mcp.ok("scroll", { ref: box, by: { y: 8999 * ROW_H - 210090 }, snapshot: "none" });
      await act(mcp, "click", { selector: "text=Lima #9000", snapshot: "none" });
      assertEquals(await evalJs("log.textContent"), "clicked Lima #9000");
    });

    await t.step("bad input: a ref never issued is refused, nothing clicked", async () => {
      await place(0);
      const r = await mcp.call("click", { ref: "e999" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertEquals(await evalJs("log.textContent"), "No click yet");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
