/**
 * Refs on rows a page renumbers in place (`recycle_renumber.html`), a red team's case: four
 * rows "Order 1001" … "Order 1004" whose nodes the page re-uses once for orders 1011 … 1014,
 * numbers never shown before. When that happens during the click (its own pointer movement, on
 * pointerover, on its scroll into view, under a cover) the click fails `ref-gone` naming both
 * orders, and nothing is cancelled. Hovers that keep the row's order (a date swapped in, a
 * button reading "Unfollow" while hovered) are pressed.
 */
import { assertEquals, assertIncludes } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";

const SHOWN = "Order 1001,Order 1002,Order 1003,Order 1004";
const RENUMBERED = "Order 1011,Order 1012,Order 1013,Order 1014";

/** The ref of the first row's button `name` (the row showing "Order 1001"). */
function firstButton(tree: string, name: string): string {
  assertIncludes(tree, "Order 1001");
  const refs = [...tree.matchAll(new RegExp(`- button "${name}" \\[ref=(e\\d+)\\]`, "g"))];
  assertEquals(refs.length, 4, `4 ${name} buttons in:\n${tree}`);
  return refs[0]![1]!;
}

Deno.test("ref renumber: a row renumbered during the click fails ref-gone, nothing cancelled", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const evalJs = async (expression: string) =>
    (await mcp.ok("eval_js", { expression })).value as string;
  const logText = () => evalJs(`document.getElementById("log").textContent`);
  const open = async (mode: string) => {
    await mcp.ok("navigate", {
      url: fx.url(`recycle_renumber.html?mode=${mode}`),
      snapshot: "none",
    });
    const tree = String((await mcp.ok("snapshot")).tree);
    assertEquals(await evalJs("labels().join()"), SHOWN);
    return tree;
  };
  try {
    await t.step("renumbered between calls: ref-gone (the baseline)", async () => {
      const ref = firstButton(await open("date"), "Cancel");
      await evalJs("renumber()");
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), `("Order 1011 2 days ago" instead of "Order 1001 2 days ago")`);
      assertEquals(await logText(), "No action yet");
    });

    for (const mode of ["move", "over", "scroll", "cover"]) {
      await t.step(`renumbered during the click (${mode}): ref-gone, nothing pressed`, async () => {
        const ref = firstButton(await open(mode), "Cancel");
        if (mode === "cover") await evalJs("coverAndRenumber()");
        const r = await mcp.call("click", { ref });
        console.error(`${mode}: ${textOf(r).split("\n")[0]}`);
        assertEquals(errorOf(r).code, "ref-gone", textOf(r));
        // What it was and what it is now.
        assertIncludes(textOf(r), `("Order 1011" instead of "Order 1001")`);
        assertEquals(await logText(), "No action yet");
        // The rows were renumbered: the check was not passed by luck of timing.
        assertEquals(await evalJs("labels().join()"), RENUMBERED);
      });
    }

    await t.step("a long row, its number past what the context shows: ref-gone", async () => {
      await mcp.ok("navigate", {
        url: fx.url("recycle_renumber.html?mode=move&long=1"),
        snapshot: "none",
      });
      const tree = String((await mcp.ok("snapshot")).tree);
      const ref = firstButton(tree, "Cancel");
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), "1011");
      assertIncludes(textOf(r), "1001");
      assertEquals(await logText(), "No action yet");
      assertEquals(await evalJs("labels().join()"), RENUMBERED);
    });

    await t.step("rows of names, all renamed on pointermove: ref-gone", async () => {
      await mcp.ok("navigate", {
        url: fx.url("recycle_renumber.html?mode=move&names=1"),
        snapshot: "none",
      });
      const tree = String((await mcp.ok("snapshot")).tree);
      const ref = [...tree.matchAll(/- button "Cancel" \[ref=(e\d+)\]/g)][0]![1]!;
      assertIncludes(tree, "Alice Adams");
      const r = await mcp.call("click", { ref });
      assertEquals(errorOf(r).code, "ref-gone", textOf(r));
      assertIncludes(textOf(r), `("Erin Evans" instead of "Alice Adams")`);
      assertEquals(await logText(), "No action yet");
      assertEquals(await evalJs("labels()[0]"), "Erin Evans");
    });

    await t.step("a fresh snapshot's ref cancels the order it shows", async () => {
      const ref = firstButton(await open("move"), "Cancel");
      await mcp.call("click", { ref }); // renumbers on the way in, fails
      const tree = String((await mcp.ok("snapshot")).tree);
      assertIncludes(tree, "* Order 1011");
      const refs = [...tree.matchAll(/- button "Cancel" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
      const r = await act(mcp, "click", { ref: refs[0]! });
      assertEquals(r.ok, true);
      assertEquals(await logText(), "Cancelled order 1011");
    });

    await t.step("a hover that swaps the row's date keeps its order: pressed", async () => {
      const ref = firstButton(await open("date"), "Cancel");
      const r = await act(mcp, "click", { ref });
      assertEquals(r.ok, true);
      assertEquals(await logText(), "Cancelled order 1001");
    });

    await t.step(
      "a button reading Unfollow on hover is pressed, and the result says so",
      async () => {
        const ref = firstButton(await open("follow"), "Following");
        const r = await act(mcp, "click", { ref });
        assertEquals(r.ok, true);
        assertEquals(await logText(), "Unfollowed Order 1001");
        assertIncludes((r.warnings ?? []).join("\n"), `read "Unfollow" when pressed`);
      },
    );

    await t.step("bad input: the refused ref stays gone, its delta names it", async () => {
      const ref = firstButton(await open("over"), "Cancel");
      const first = await mcp.call("click", { ref });
      assertEquals(errorOf(first).code, "ref-gone", textOf(first));
      // The failed click's delta shows the rows renumbered: every Cancel ref, the refused one
      // too, is held to what the agent was shown.
      assertIncludes(textOf(first), `${ref}, `);
      const again = await mcp.call("click", { ref });
      assertEquals(errorOf(again).code, "ref-gone", textOf(again));
      assertIncludes(textOf(again), `("Order 1011" instead of "Order 1001")`);
      assertEquals(await logText(), "No action yet");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});
