/**
 * Where a drag drops on its destination (new user finding s15 #3): past its center in the
 * direction of travel, so on a sortable list that puts the dragged item before or after the
 * one under the drop by the half it lands in, the item takes the destination's place moving up
 * as moving down (dropped at the exact center, "D onto C" moved nothing and "A onto B" went
 * after B). A drop the page took that changed nothing it shows is warned of (a list that
 * always puts a dropped item after the one under it: moving up by one does nothing). The
 * delta shows the status line and the moved items under one `- main` (it printed it twice).
 */
import { servePages } from "./_util.ts";
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { actionOf, errorOf } from "./_results.ts";

const list = (drop: string) =>
  `<!doctype html><title>Sort</title><style>li{height:40px;border:1px solid #aaa}</style>
<main><h2>Packing list</h2>
<ul id="dnd"><li draggable="true">A</li><li draggable="true">B</li><li draggable="true">C</li>
<li draggable="true">D</li></ul><p id="order">Order: A, B, C, D</p></main>
<script>
let dragged;
dnd.addEventListener("dragstart", (e) => { dragged = e.target; });
dnd.addEventListener("dragover", (e) => e.preventDefault());
dnd.addEventListener("drop", (e) => {
  e.preventDefault();
  const t = e.target.closest("li");
  if (!t || t === dragged) return;
  const r = t.getBoundingClientRect();
  ${drop}
  order.textContent = "Order: " + [...dnd.children].map((l) => l.textContent).join(", ");
});
</script>`;

// By the half of the item under the drop (app.html's rule), and always after it.
const HALVES = list(
  "dnd.insertBefore(dragged, e.clientY > r.top + r.height / 2 ? t.nextSibling : t);",
);
const AFTER = list("dnd.insertBefore(dragged, t.nextSibling);");

type Drag = { from: { y: number }; to: { y: number }; via: string };

Deno.test("drag: drops past the destination's center in the direction of travel", async (t) => {
  const site = servePages({ "/halves.html": HALVES, "/after.html": AFTER });
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const order = async () => (await mcp.ok("eval_js", { expression: "order.textContent" })).value;
  let text = "";
  const drag = async (from: number, to: number) => {
    const r = await mcp.call("drag", {
      from: { selector: `#dnd li:nth-child(${from})` },
      to: { selector: `#dnd li:nth-child(${to})` },
    });
    text = textOf(r);
    return actionOf(r);
  };
  try {
    await t.step("moving up onto C: D takes C's place", async () => {
      await mcp.ok("navigate", { url: `${site.base}/halves.html`, snapshot: "none" });
      const r = await drag(4, 3);
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals(await order(), "Order: A, B, D, C");
      const d = (r as unknown as { drag: Drag }).drag;
      assertEquals(d.via, "html5");
      assertTrue(d.to.y < d.from.y, "dropped above D");
      assertEquals(r.warnings ?? [], []);
    });

    await t.step("moving down onto B: A takes B's place", async () => {
      const r = await drag(1, 2);
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals(await order(), "Order: B, A, D, C");
      assertEquals(r.warnings ?? [], []);
      // The status line and the moved items are under one `- main` and its heading, once.
      assertEquals(text.match(/- main/g)?.length, 1, text);
      assertIncludes(text, "## Packing list");
    });

    await t.step("a drop the page took that changed nothing is warned of", async () => {
      await mcp.ok("navigate", { url: `${site.base}/after.html`, snapshot: "none" });
      const r = await drag(4, 3);
      assertEquals(r.ok, true, JSON.stringify(r));
      assertEquals(await order(), "Order: A, B, C, D");
      assertEquals(r.snapshotDelta?.unchanged, true, JSON.stringify(r.snapshotDelta));
      assertIncludes(String(r.warnings), "Nothing changed on the page after the drop");
      // Onto the item beyond, as the warning says: it moves.
      const again = await drag(4, 2);
      assertEquals(again.ok, true, JSON.stringify(again));
      assertEquals(await order(), "Order: A, B, D, C");
      assertEquals(again.warnings ?? [], []);
    });

    await t.step(
      "bad input: a destination with both a selector and coords is refused",
      async () => {
        const r = await mcp.call("drag", {
          from: { selector: "#dnd li:nth-child(1)" },
          to: { selector: "#dnd li:nth-child(2)", x: 5, y: 5 },
        });
        assertEquals(errorOf(r).code, "invalid-argument");
        assertEquals(await order(), "Order: A, B, D, C");
      },
    );
  } finally {
    await mcp.close();
    await site.close();
  }
});
