/**
 * `fill` of a value out of its field's `min`/`max` or off its `step` (NU s17 finding 2): the
 * browser keeps it and only a later submit refused it. The fill sets it, and its result warns
 * (the ValidityState flag, what the field takes) with `element.validity`; a value in range says
 * nothing; a range input (which clamps) is refused as before, naming its range.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { servePages } from "./_util.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const PAGE = `<!doctype html><title>Booking</title><main><h1>Booking</h1>
<form action="/sent"><label>Guests <input id=guests type=number min=1 max=8></label>
<label>Arrival <input id=arrive type=date min=2026-01-01 max=2026-12-31></label>
<label>Amount <input id=amount type=number step=5 min=0></label>
<label>Volume <input id=vol type=range min=0 max=10></label>
<label>Secret PIN <input id=pin type=password pattern="\\\\d+"></label>
<button>Book</button></form></main>`;

Deno.test("fill: a value out of the field's range is set, with a warning", async (t) => {
  const site = servePages({ "/book.html": PAGE });
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "core" } });
  const warned = (ws: string[]) => ws.find((w) => w.includes("validation")) ?? "";
  try {
    await mcp.ok("navigate", { url: `${site.base}/book.html`, snapshot: "none" });

    await t.step("above max, below min: set, warned, with the range", async () => {
      const over = await act(mcp, "fill", { selector: "#guests", value: "12" });
      assertEquals(over.element!.value, "12");
      assertEquals(over.element!.validity, { issue: "rangeOverflow", min: "1", max: "8" });
      const w = warned(over.warnings);
      assertIncludes(w, 'the field holds "12", above its max 8');
      assertIncludes(
        w,
        "(rangeOverflow) stops its form from being sent; it takes values from 1 to 8",
      );
      const under = await act(mcp, "fill", { selector: "#arrive", value: "2025-06-01" });
      assertEquals(under.element!.value, "2025-06-01");
      assertIncludes(warned(under.warnings), "below its min 2026-01-01");
      assertIncludes(warned(under.warnings), "from 2026-01-01 to 2026-12-31");
    });

    await t.step("off its step: set, warned, with the nearest values", async () => {
      const r = await act(mcp, "fill", { selector: "#amount", value: "12" });
      assertEquals(r.element!.value, "12");
      const v = r.element!.validity as Record<string, unknown>;
      assertEquals(v.issue, "stepMismatch");
      assertEquals(v.near, ["10", "15"]);
      assertIncludes(warned(r.warnings), "off its step 5 (counted from 0)");
      assertIncludes(warned(r.warnings), "the nearest values on its step: 10 and 15");
    });

    await t.step("a value in range: no warning, no validity", async () => {
      const r = await act(mcp, "fill", { selector: "#guests", value: "4" });
      assertEquals(r.element!.validity, undefined);
      assertEquals(warned(r.warnings), "");
      const a = await act(mcp, "fill", { selector: "#amount", value: "15" });
      assertEquals(a.element!.validity, undefined);
    });

    await t.step("a secret field is never described", async () => {
      const r = await act(mcp, "fill", { selector: "#pin", value: "abc" });
      assertEquals(r.element!.validity, undefined);
      assertTrue(!JSON.stringify(r).includes("abc"), JSON.stringify(r));
    });

    await t.step("a range input clamps: refused as before, naming its range", async () => {
      const r = await mcp.call("fill", { selector: "#vol", value: "50" });
      assertEquals(errorOf(r).code, "invalid-argument", textOf(r));
      assertIncludes(errorOf(r).message, "from 0 to 10");
    });

    await t.step("bad input: fill with no value is refused", async () => {
      const r = await mcp.call("fill", { selector: "#guests" });
      assertEquals(r.isError, true, textOf(r));
      assertIncludes(textOf(r), "value");
    });
  } finally {
    await mcp.close();
    await site.close();
  }
});
