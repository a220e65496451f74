/**
 * Refs on rows whose item is not in their text (`recycle_values.html`), a red team's cases
 * that passed the ref check once the page re-used the rows for the next items: the item only
 * in a read-only field's value, in an editable grid's field, in an image's alt text, in the
 * row's own aria-label, or past an 80+ character prefix every row shares (a name, a small
 * number; or only a count, "line 3"). Re-used before the call or during the click, each fails
 * `ref-gone` and nothing is deleted. Typing in a row's own field is no re-use: the field and its
 * row's other refs still act, also when the page rewrites what is typed (upper case, as typed or
 * on commit), and after fill_form; so do fields the page fills in after the snapshot (a form).
 * A ref whose node went while its item lives on in another row acts on that row, and says so.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

/**
 * The refs of the rows' `role "name"` controls, in order (6 rows on a fresh page): a line of its
 * own, or a cell of a table row's line (`| textbox "Name" [ref=e1]: … | button "Delete" [ref=e2]`).
 */
function refsOf(tree: string, line: string, rows = 6): string[] {
  const refs = [...tree.matchAll(new RegExp(`(?:- |\\| )${line} \\[ref=(e\\d+)\\]`, "g"))]
    .map((m) => m[1]!);
  assertEquals(refs.length, rows, `${rows} ${line} in:\n${tree}`);
  return refs;
}

Deno.test("ref values: rows told apart by no text fail ref-gone once re-used", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({
    env: { BROWX_CAPABILITIES: "read,navigation,action,eval", BROWX_TOOLSETS: "all" },
  });
  const evalJs = async (expression: string) =>
    (await mcp.ok("eval_js", { expression })).value as string;
  const logText = () => evalJs(`document.getElementById("log").textContent`);
  const open = async (query: string) => {
    await mcp.ok("navigate", { url: fx.url(`recycle_values.html?${query}`), snapshot: "none" });
    return String((await mcp.ok("snapshot")).tree);
  };
  const values = () => evalJs(`[...document.querySelectorAll("input")].map((i) => i.value).join()`);
  try {
    for (
      const mode of ["readonly", "grid", "avatar", "rowlabel", "longname", "longsmall", "small"]
    ) {
      await t.step(`re-used before the call, the item in ${mode}: ref-gone`, async () => {
        const ref = refsOf(await open(`mode=${mode}`), `button "Delete"`)[2]!;
        const before = await evalJs("itemTexts().join()");
        await evalJs("shift()");
        const r = await mcp.call("click", { ref });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), "re-used the element for another item");
        assertEquals(await logText(), "No action yet");
        assertEquals(await evalJs("itemTexts().join()"), before.split(",").slice(1).join());
      });
    }

    for (const mode of ["grid", "rowlabel", "avatar", "readonly", "longsmall", "small"]) {
      await t.step(`re-used during the click, the item in ${mode}: ref-gone`, async () => {
        const ref = refsOf(await open(`mode=${mode}&over=1`), `button "Delete"`)[2]!;
        const r = await mcp.call("click", { ref });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertEquals(await logText(), "No action yet");
        // The rows did shift: the check was not passed by luck of timing.
        assertEquals((await evalJs("itemTexts().length")) as unknown, 5);
      });
    }

    await t.step("the messages say which item the row showed and shows", async () => {
      const ref = refsOf(await open("mode=grid"), `button "Delete"`)[2]!;
      await evalJs("shift()");
      assertIncludes(
        textOf(await mcp.call("click", { ref })),
        `("INV-1004" instead of "INV-1003")`,
      );
      const order = refsOf(await open("mode=rowlabel"), `button "Delete"`)[2]!;
      await evalJs("shift()");
      const message = textOf(await mcp.call("click", { ref: order }));
      assertIncludes(message, `("Order 1004" instead of "Order 1003")`);
    });

    await t.step("a grid's field re-used before a fill: ref-gone, nothing typed", async () => {
      const name = refsOf(await open("mode=grid"), `textbox "Name"`)[2]!;
      await evalJs("shift()");
      const r = await mcp.call("fill", { ref: name, value: "Gadget" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertEquals(await values(), "INV-1002,INV-1003,INV-1004,INV-1005,INV-1006");
    });

    await t.step("typing in a row's field: the field and its row still act", async () => {
      const tree = await open("mode=grid");
      const name = refsOf(tree, `textbox "Name"`)[2]!;
      await act(mcp, "fill", { ref: name, value: "Gadget" });
      await act(mcp, "fill", { ref: name, value: "Gizmo" });
      await act(mcp, "press", { key: "End" });
      await act(mcp, "type", { text: "s" });
      await act(mcp, "click", { ref: refsOf(tree, `button "Delete"`)[2]! });
      assertEquals(await logText(), "Deleted Gizmos");
    });

    await t.step("a field the page rewrites as it is typed: its row still acts", async () => {
      const tree = await open("mode=upper");
      await act(mcp, "fill", { ref: refsOf(tree, `textbox "Name"`)[1]!, value: "gadget" });
      await act(mcp, "click", { ref: refsOf(tree, `button "Delete"`)[1]! });
      assertEquals(await logText(), "Deleted GADGET");
    });

    await t.step("a field the page rewrites when it commits: its row still acts", async () => {
      const tree = await open("mode=blur");
      await act(mcp, "fill", { ref: refsOf(tree, `textbox "Name"`)[1]!, value: "gadget" });
      // The click's mousedown moves the focus: the field commits (upper case) under the press.
      await act(mcp, "click", { ref: refsOf(tree, `button "Delete"`)[1]! });
      assertEquals(await logText(), "Deleted GADGET");
    });

    for (const mode of ["prefill", "prefilldiv"]) {
      await t.step(`fields the page fills in after the snapshot (${mode}) still act`, async () => {
        const tree = await open(`mode=${mode}`);
        const city = refsOf(tree, `textbox "City"`, 1)[0]!;
        const clear = refsOf(tree, `button "Clear"`, 2)[1]!;
        await evalJs("prefill()");
        await act(mcp, "fill", { ref: city, value: "Paris" });
        await act(mcp, "click", { ref: clear });
        assertEquals(await logText(), "Cleared Zip");
        assertEquals(await values(), "Paris,");
      });
    }

    await t.step("fill_form into a row's field: its row still acts", async () => {
      const tree = await open("mode=grid");
      await act(mcp, "fill_form", {
        fields: [{ ref: refsOf(tree, `textbox "Name"`)[3]!, value: "Widget" }],
      });
      await act(mcp, "click", { ref: refsOf(tree, `button "Delete"`)[3]! });
      assertEquals(await logText(), "Deleted Widget");
    });

    await t.step(
      "a ref whose node the delete removed acts on its item's row, and says so",
      async () => {
        const refs = refsOf(await open("mode=avatar"), `button "Delete"`);
        await act(mcp, "click", { ref: refs[0]! });
        assertEquals(await logText(), "Deleted Alice Adams");
        // Fay Fox's row now sits in the fifth node; the sixth, refs[5]'s, went.
        const r = await act(mcp, "click", { ref: refs[5]! });
        assertIncludes(JSON.stringify(r.warnings), `${refs[5]}'s element was re-rendered`);
        assertEquals(await logText(), "Deleted Fay Fox");
      },
    );

    await t.step("bad input: the ref of a row the delete removed is gone", async () => {
      const refs = refsOf(await open("mode=avatar"), `button "Delete"`);
      await act(mcp, "click", { ref: refs[5]! });
      assertEquals(await logText(), "Deleted Fay Fox");
      const r = await mcp.call("click", { ref: refs[5]! });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "removed");
      assertIncludes(textOf(r), "no element now matches it");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
