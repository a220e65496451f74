/**
 * find and comboboxes (NU s14 finding 4): a custom combobox is named by the text it shows (the
 * snapshot's `- combobox [ref=e2] [collapsed]: Pick a size`), a select by its chosen option; and
 * "dropdown" means a combobox, a listbox or a button that opens a popup, not any button.
 */
import { assertEquals, assertTrue } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { servePages } from "./_util.ts";

type R = Record<string, unknown>;

const PAGE = `<!doctype html><title>Pickers</title>
<button>Start job</button> <button>Arm alert</button>
<label>Country <select id=country><option>Norway</option><option>Sweden</option></select></label>
<div role=combobox aria-expanded=false aria-controls=lb tabindex=0 id=size>Pick a size</div>
<ul role=listbox id=lb hidden><li role=option>Small</li><li role=option>Large</li></ul>
<button id=sort aria-haspopup=menu aria-expanded=false>Sort</button>
<label>Note <input id=note></label>`;

Deno.test("find: a combobox by the text it shows; dropdown is not any button", async (t) => {
  const pages = servePages({ "/": PAGE });
  const mcp = await startStdio();
  const hintOf = (r: R, i = 0) => String((r.candidates as R[])[i]?.selectorHint);
  try {
    await mcp.ok("navigate", { url: `${pages.base}/`, snapshot: "none" });

    await t.step("the shown text names it, as the snapshot shows it", async () => {
      for (const query of ["Pick a size", "size combobox", "Pick a size dropdown"]) {
        const r = await mcp.ok("find", { query });
        assertEquals(hintOf(r), "#size", query);
      }
      const norway = await mcp.ok("find", { query: "Norway dropdown" });
      assertEquals(hintOf(norway), "#country");
    });

    await t.step("dropdown: the comboboxes and the menu button, no plain button", async () => {
      const r = await mcp.ok("find", { query: "dropdown", limit: 10 });
      const names = (r.candidates as R[]).map((c) => `${c.role} ${c.name}`);
      assertTrue(!names.some((n) => /Start job|Arm alert/.test(n)), names.join(", "));
      const hints = (r.candidates as R[]).map((c) => c.selectorHint);
      for (const h of ["#country", "#size", "#sort"]) {
        assertTrue(hints.includes(h), `${h}: ${hints}`);
      }
      const sort = await mcp.ok("find", { query: "Sort dropdown" });
      assertEquals(hintOf(sort), "#sort");
      // A plain button is still found by its name.
      const start = await mcp.ok("find", { query: "Start job dropdown" });
      assertEquals((start.candidates as R[])[0]?.name, "Start job");
    });

    await t.step("a typed value is never matched (it may be a secret)", async () => {
      await mcp.ok("fill", { selector: "#note", value: "zanzibar", snapshot: "none" });
      const r = await mcp.ok("find", { query: "zanzibar" });
      assertEquals(r.candidates, []);
    });

    await t.step("bad input: a role filter nothing has answers no candidates", async () => {
      const r = await mcp.ok("find", { query: "Pick a size", role: "slider" });
      assertEquals(r.candidates, []);
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
