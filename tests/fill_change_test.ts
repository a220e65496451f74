/**
 * `fill` types as a person does and, like a person's typing, fires no `change` until the field
 * loses focus: on a page that recomputes on `change` (a cart's quantity) the result says so and
 * how to commit (press Tab), only when the page listens for the field's change and nothing else
 * changed (a new user's cart totals stayed stale with no hint; session 13, #13).
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf, servePages } from "./_util.ts";

const PAGES: Record<string, string> = {
  "/cart": `<!doctype html><title>Cart</title><h1>Cart</h1>
<table><tr><td>Coffee beans</td>
<td><input type=number min=0 value=1 id=qty aria-label="Quantity of Coffee beans"></td>
<td id=line>$12.50</td></tr></table>
<p>Total: <output id=tot>$12.50</output></p>
<p><label>Gift note <input id=note></label></p>
<p><label>Coupon <input id=coupon></label> <span id=hint></span></p>
<script>
  qty.addEventListener("change", () => {
    const v = (Math.max(0, parseInt(qty.value) || 0) * 12.5).toFixed(2);
    line.textContent = tot.textContent = "$" + v;
  });
  coupon.onchange = () => {};
  coupon.oninput = () => { hint.textContent = coupon.value.length + " chars"; };
</script>`,
};

Deno.test("fill says a change listener waits for blur, only when nothing else moved", async (t) => {
  const server = servePages(PAGES);
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  try {
    const nav = await mcp.call("navigate", { url: `${server.base}/cart` });
    const tree = textOf(nav);
    const qty = refOf(tree, 'spinbutton "Quantity of Coffee beans"');

    await t.step("a quantity recomputed on change: warned, and Tab commits it", async () => {
      const f = await mcp.ok("fill", { ref: qty, value: "3" });
      const warnings = (f.warnings ?? []) as string[];
      assertEquals(warnings.length, 1, JSON.stringify(f));
      assertIncludes(warnings[0]!, "listens for its change event");
      assertIncludes(warnings[0]!, "press Tab");
      const tab = await mcp.call("press", { key: "Tab" });
      assertIncludes(textOf(tab), "$37.50");
    });

    await t.step("by selector too", async () => {
      const f = await mcp.ok("fill", { selector: "#qty", value: "2" });
      assertIncludes(String(f.warnings), "press Tab");
      await mcp.ok("press", { key: "Tab", snapshot: "none" });
    });

    await t.step("no warning without a change listener, or when the page answered", async () => {
      const note = await mcp.ok("fill", { selector: "#note", value: "Happy birthday" });
      assertEquals(note.warnings ?? [], [], "no change listener");
      const coupon = await mcp.ok("fill", { selector: "#coupon", value: "SAVE10" });
      assertEquals(coupon.warnings ?? [], [], "its input handler changed the page");
      assertIncludes(JSON.stringify(coupon.snapshotDelta), "6 chars");
    });

    await t.step("bad input: fill of a missing ref is refused with a next step", async () => {
      const r = await mcp.call("fill", { ref: "e99999", value: "1" });
      assertEquals(r.isError, true);
      assertIncludes(textOf(r), "Next:");
    });
  } finally {
    await mcp.close();
    await server.close();
  }
});
