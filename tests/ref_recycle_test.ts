/**
 * Refs on rows a page re-uses for other items (`recycle_hard.html`), the cases a red team found
 * passing the ref check: rows that differ only past their first 80 characters, only in an
 * image's alt text, an icon's aria-label or a read-only field's value (re-used before the call);
 * and rows re-used during the click, after the ref was checked: by the click's own scroll into
 * view, on pointerover, under a cover the click waited out. Each fails `ref-gone`, and nothing
 * is deleted. A button renamed by its hover ("Undo" → "Delete account") is pressed, and the
 * result says so; so does a press whose click never came (a tab opened on mousedown).
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const ITEMS = "INV-1001,INV-1002,INV-1003,INV-1004,INV-1005,INV-1006";

/** The ref of the third row's "Delete" (the row showing INV-1003 on a fresh page). */
function thirdDelete(tree: string, rows = 6): string {
  const refs = [...tree.matchAll(/- button "Delete" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
  assertEquals(refs.length, rows, `${rows} Delete buttons in:\n${tree}`);
  return refs[2]!;
}

Deno.test("ref recycle: rows re-used for other items fail ref-gone, nothing is deleted", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) =>
    (await mcp.ok("eval_js", { expression })).value as string;
  const open = async (mode: string) => {
    await mcp.ok("navigate", { url: fx.url(`recycle_hard.html?mode=${mode}`), snapshot: "none" });
    return String((await mcp.ok("snapshot")).tree);
  };
  try {
    for (const mode of ["long", "alt", "aria", "value", "div", "card", "label"]) {
      await t.step(`re-used before the call, rows told apart by ${mode}`, async () => {
        const ref = thirdDelete(await open(mode));
        await evalJs("shift()");
        const r = await mcp.call("click", { ref });
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), "re-used the element for another item");
        assertEquals(await evalJs("itemTexts().join()"), ITEMS.slice(9));
        assertEquals(await evalJs(`document.getElementById("log").textContent`), "No action yet");
      });
    }

    await t.step("a shared 80+ character prefix: the message names both items", async () => {
      const ref = thirdDelete(await open("long"));
      await evalJs("shift()");
      const message = textOf(await mcp.call("click", { ref }));
      // The item's number past the shown part stays in sight (context_lib.ts).
      assertIncludes(message, "Invoice for ACME Corporation");
      assertIncludes(message, `quarterly … INV-1004" instead of "`);
      assertIncludes(message, `quarterly … INV-1003")`);
    });

    for (const mode of ["scroll", "over", "cover"]) {
      await t.step(`re-used during the click (${mode}): ref-gone, nothing pressed`, async () => {
        const ref = thirdDelete(await open(mode));
        if (mode === "cover") await evalJs("coverAndShift()");
        const r = await mcp.call("click", { ref });
        console.error(`${mode}: ${textOf(r).split("\n")[0]}`);
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        assertIncludes(textOf(r), "INV-1003");
        assertIncludes(textOf(r), "INV-1004");
        assertEquals(await evalJs(`document.getElementById("log").textContent`), "No action yet");
        // The rows did shift: the check was not passed by luck of timing.
        assertEquals(await evalJs("itemTexts()[0]"), "INV-1002");
      });
    }

    await t.step("a row changed by the hover (not re-used) is pressed", async () => {
      // The fourth row: the pointer still rests where the last step clicked the third.
      const tree = await open("reveal");
      thirdDelete(tree);
      const ref = [...tree.matchAll(/- button "Delete" \[ref=(e\d+)\]/g)][3]![1]!;
      const r = await act(mcp, "click", { ref });
      assertEquals(r.ok, true);
      assertEquals(await evalJs(`document.getElementById("log").textContent`), "Deleted INV-1004");
    });

    await t.step("fill on a row its own scroll re-uses: ref-gone, nothing typed", async () => {
      const tree = await open("scroll");
      const notes = [...tree.matchAll(/- textbox "Note" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
      const r = await mcp.call("fill", { ref: notes[2]!, value: "paid" });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), `("INV-1004 Delete" instead of "INV-1003 Delete")`);
      assertIncludes(textOf(r), "nothing was done to it");
      assertEquals(
        await evalJs(`[...document.querySelectorAll("input")].map((i) => i.value).join("")`),
        "",
      );
    });

    await t.step("a fresh snapshot's ref deletes the row it shows", async () => {
      const ref = thirdDelete(await open("over"));
      await mcp.call("click", { ref }); // shifts on the way in, fails
      const fresh = thirdDelete(String((await mcp.ok("snapshot")).tree), 5);
      const r = await act(mcp, "click", { ref: fresh });
      assertEquals(r.ok, true);
      assertEquals(await evalJs(`document.getElementById("log").textContent`), "Deleted INV-1004");
    });

    await t.step("a button renamed by hover is pressed, and the result says so", async () => {
      await mcp.ok("navigate", {
        url: fx.url("recycle_hard.html?mode=hovername"),
        snapshot: "none",
      });
      const tree = String((await mcp.ok("snapshot")).tree);
      const undo = /- button "Undo" \[ref=(e\d+)\]/.exec(tree);
      assertTrue(undo !== null, tree);
      const r = await act(mcp, "click", { ref: undo![1]! });
      assertEquals(r.ok, true);
      assertEquals(
        await evalJs(`document.getElementById("log").textContent`),
        "Clicked Delete account",
      );
      const warned = (r.warnings ?? []).join("\n");
      console.error(`hovername: ${warned}`);
      assertIncludes(warned, `shown as button "Undo"`);
      assertIncludes(warned, `"Delete account"`);
    });

    await t.step("a tab opened on mousedown: the result says the click never came", async () => {
      await mcp.ok("navigate", { url: fx.url("recycle_hard.html?mode=popup"), snapshot: "none" });
      const tree = String((await mcp.ok("snapshot")).tree);
      const openRef = /- button "Open" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const r = await act(mcp, "click", { ref: openRef });
      assertEquals(r.structure?.newTabs?.length, 1);
      assertIncludes((r.warnings ?? []).join("\n"), "but no click followed");
      // It did not: the page's click handler never ran.
      await mcp.ok("tabs", { action: "switch", index: 0 });
      assertEquals(await evalJs(`document.getElementById("log").textContent`), "No action yet");
    });

    await t.step("bad input: a ref of another mode's page is gone after navigating", async () => {
      const ref = thirdDelete(await open("alt"));
      await open("value");
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone");
      assertIncludes(textOf(r), "snapshot");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
