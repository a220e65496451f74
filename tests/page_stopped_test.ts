/**
 * What the page's handlers kept from a click or a select is said: a checkbox whose click
 * handler calls `preventDefault()` stays as it was (the result warns the page stopped the
 * check), and `select` by label in a `<select multiple>` replaces its selection (the result
 * lists what is selected now and warns what was dropped).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act } from "./_results.ts";
import { servePages } from "./_util.ts";

const PAGE = `<!doctype html><title>Stopped</title><main>
<label><input type=checkbox id=locked onclick="event.preventDefault()"> Locked</label>
<label><input type=checkbox id=kept checked onclick="event.preventDefault()"> Kept on</label>
<label><input type=checkbox id=free> Free</label>
<label>Fruit <select id=fruit multiple>
<option>Apple</option><option selected>Banana</option><option>Cherry</option></select></label>
<label>Size <select id=size><option>S</option><option>M</option></select></label>
</main>`;

Deno.test("page stopped: a cancelled check and a replaced multiple selection are said", async (t) => {
  const pages = servePages({ "/": PAGE });
  const mcp = await startStdio({});
  const open = () => mcp.ok("navigate", { url: pages.base + "/", snapshot: "none" });
  try {
    await t.step(
      "a checkbox whose click handler prevents the default stays unchecked",
      async () => {
        await open();
        const r = await act(mcp, "click", { selector: "#locked", snapshot: "none" });
        assertEquals(r.ok, true);
        assertEquals(r.element?.checked, false);
        const w = r.warnings.find((w) => w.includes("stopped the check"));
        assertTrue(w !== undefined, JSON.stringify(r.warnings));
        assertIncludes(w!, "stayed unchecked");
      },
    );

    await t.step("by its label: the same", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "text=Locked", snapshot: "none" });
      assertTrue(r.warnings.some((w) => w.includes("stayed unchecked")), JSON.stringify(r));
    });

    await t.step("a checked one the page keeps checked: the uncheck was stopped", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#kept", snapshot: "none" });
      assertEquals(r.element?.checked, true);
      assertTrue(r.warnings.some((w) => w.includes("stayed checked")), JSON.stringify(r));
    });

    await t.step("a checkbox the page lets be: checked, no warning", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#free", snapshot: "none" });
      assertEquals(r.element?.checked, true);
      assertEquals(r.warnings.filter((w) => w.includes("stopped")), []);
    });

    await t.step("a double click toggles twice: not the page's doing", async () => {
      await open();
      const r = await act(mcp, "click", { selector: "#free", clickCount: 2, snapshot: "none" });
      assertEquals(r.warnings.filter((w) => w.includes("stopped")), []);
    });

    await t.step("select in a <select multiple> says it replaced the selection", async () => {
      await open();
      const r = await act(mcp, "select", { selector: "#fruit", label: "Cherry", snapshot: "none" });
      assertEquals(r.ok, true);
      const selected = (r as unknown as { selected: { all?: string[] } }).selected;
      assertEquals(selected.all, ["Cherry"]);
      const w = r.warnings.find((w) => w.includes("replaced the selection"));
      assertTrue(w !== undefined, JSON.stringify(r.warnings));
      assertIncludes(w!, `["Banana"] no longer selected`);
      assertIncludes(w!, "fill_form");
    });

    await t.step("a single select: no list, no warning", async () => {
      await open();
      const r = await act(mcp, "select", { selector: "#size", label: "M", snapshot: "none" });
      const selected = (r as unknown as { selected: { all?: string[]; label: string } }).selected;
      assertEquals(selected.label, "M");
      assertEquals(selected.all, undefined);
      assertEquals(r.warnings.filter((w) => w.includes("replaced")), []);
    });

    await t.step("bad input: select with both label and index is refused", async () => {
      const r = await mcp.call("select", { selector: "#fruit", label: "Apple", index: 0 });
      assertEquals(r.isError, true, textOf(r));
    });
  } finally {
    await mcp.close();
    await pages.close();
  }
});
