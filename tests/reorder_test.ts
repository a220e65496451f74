/**
 * Order in the ActionResult, through MCP: a list whose script keeps its DOM
 * nodes and rewrites only the labels on "Sort" (`reorder.html`). The delta
 * reports the move, and the "Delete" ref the agent saw beside Charlie fails
 * `ref-gone` (naming Charlie and what is there now) instead of deleting
 * another item. A plain swap of two rows (the nodes move) is reported as
 * moved, and its refs keep working.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { act, errorOf } from "./_results.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";

/** The ref of the "Delete" button on the line under `* NAME`. */
function deleteBeside(tree: string, name: string): string {
  const lines = tree.split("\n");
  const at = lines.findIndex((l) => l.trim() === `* ${name}`);
  assertTrue(at >= 0, `no row "${name}" in:\n${tree}`);
  const m = /- button "Delete" \[ref=(e\d+)\]/.exec(lines[at + 1] ?? "");
  assertTrue(m !== null, `no Delete under "${name}" in:\n${tree}`);
  return m![1]!;
}

Deno.test("reorder: moves in the delta, re-used nodes fail ref-gone", async (t) => {
  const fx = await startFixtureServer();
  const mcp = await startStdio({ env: { BROWX_CAPABILITIES: "read,navigation,action,eval" } });
  const items = async () =>
    (await mcp.ok("eval_js", { expression: "itemTexts().join()" })).value as string;
  const log = async () =>
    (await mcp.ok("eval_js", { expression: `document.getElementById("log").textContent` }))
      .value as string;
  const snapshot = async () => String((await mcp.ok("snapshot")).tree);
  try {
    await t.step("Sort re-uses the rows: the delta says moved, the old ref fails", async () => {
      await mcp.ok("navigate", { url: fx.url("reorder.html"), snapshot: "none" });
      const tree = await snapshot();
      const charlie = deleteBeside(tree, "Charlie");
      const sort = /- button "Sort" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const r = await act(mcp, "click", { ref: sort });
      assertEquals(r.ok, true);
      const delta = r.snapshotDelta!;
      assertEquals([delta.mode, delta.unchanged, delta.moved], ["delta", undefined, 5]);
      // The new order, once, and the refs that stayed behind.
      assertIncludes(delta.tree, "~ * Alpha\n~ * Bravo\n~ * Charlie\n~ * Delta\n~ * Echo");
      const note = delta.tree.split("\n").find((l) => l.includes("did not move with their lines"));
      assertTrue(note?.split(/[ ,]+/).includes(charlie), `${charlie} named in:\n${delta.tree}`);
      assertIncludes(delta.tree, "+ Sorted");
      console.error(`delta of a 5-row sort (${delta.tree.length} chars):\n${delta.tree}`);

      // The ref shown beside Charlie now sits beside Bravo: it fails, nothing is deleted.
      const stale = await mcp.call("click", { ref: charlie });
      assertEquals(stale.isError, true);
      assertEquals(errorOf(stale).code, "ref-gone");
      const message = textOf(stale);
      assertIncludes(message, `("Bravo" instead of "Charlie")`);
      assertIncludes(message, "snapshot");
      assertEquals(await items(), "Alpha,Bravo,Charlie,Delta,Echo");
      assertEquals(await log(), "Sorted");

      // A new snapshot shows where every ref is: the ref beside Charlie deletes Charlie.
      const fresh = await snapshot();
      const now = deleteBeside(fresh, "Charlie");
      assertTrue(now !== charlie, "Charlie's row is another node now");
      assertEquals(deleteBeside(fresh, "Bravo"), charlie, "the old ref is the node beside Bravo");
      await act(mcp, "click", { ref: now });
      assertEquals(await log(), "Deleted Charlie");
      assertEquals(await items(), "Alpha,Bravo,Delta,Echo");
    });

    await t.step(
      "sorted between calls: the next action does not make the old ref valid",
      async () => {
        await mcp.ok("navigate", { url: fx.url("reorder.html"), snapshot: "none" });
        const tree = await snapshot();
        const charlie = deleteBeside(tree, "Charlie");
        // The page changes while no call runs (a push, a timer); then the agent acts elsewhere.
        await mcp.ok("eval_js", { expression: `document.getElementById("sort").click()` });
        const sort = /- button "Sort" \[ref=(e\d+)\]/.exec(tree)![1]!;
        await act(mcp, "click", { ref: sort }); // sorted already: nothing moves
        // Row 3's ref was shown beside Echo: it fails too, naming both.
        const echo = await mcp.call("click", { ref: deleteBeside(tree, "Echo") });
        assertIncludes(textOf(echo), `("Charlie" instead of "Echo")`);
        const stale = await mcp.call("click", { ref: charlie });
        assertEquals(errorOf(stale).code, "ref-gone");
        assertIncludes(textOf(stale), `"Charlie")`);
        assertEquals((await items()).split(",").includes("Bravo"), true, "Bravo is not deleted");
      },
    );

    await t.step("buttons named after their row: the old name is held too", async () => {
      await mcp.ok("navigate", { url: fx.url("reorder.html?named=1"), snapshot: "none" });
      const tree = await snapshot();
      const charlie = /- button "Delete Charlie" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const sort = /- button "Sort" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const r = await act(mcp, "click", { ref: sort });
      // The renamed buttons are changed lines: the delta shows them in their new form.
      assertIncludes(r.snapshotDelta!.tree, `- button "Delete Bravo" [ref=${charlie}]`);
      const stale = await mcp.call("click", { ref: charlie });
      assertEquals(errorOf(stale).code, "ref-gone");
      assertIncludes(
        textOf(stale),
        `changed from button "Delete Charlie" to button "Delete Bravo"`,
      );
      assertEquals(await items(), "Alpha,Bravo,Charlie,Delta,Echo");
    });

    await t.step("a plain swap (the nodes move): reported as moved, refs still work", async () => {
      await mcp.ok("navigate", { url: fx.url("reorder.html"), snapshot: "none" });
      const tree = await snapshot();
      const delta = deleteBeside(tree, "Delta");
      const swap = /- button "Swap" \[ref=(e\d+)\]/.exec(tree)![1]!;
      const r = await act(mcp, "click", { ref: swap });
      const d = r.snapshotDelta!;
      assertEquals([d.unchanged, d.moved], [undefined, 2]);
      assertIncludes(d.tree, "~ * Charlie\n~ * Delta");
      assertNotIncludes(d.tree, "did not move");
      // The button moved with its row: the ref still deletes Delta.
      await act(mcp, "click", { ref: delta });
      assertEquals(await log(), "Deleted Delta");
      assertEquals(await items(), "Charlie,Echo,Alpha,Bravo");
    });
  } finally {
    await mcp.close();
    await fx.close();
  }
});

Deno.test("reorder: deleting the first todo of AngularJS TodoMVC (rows re-used by position) reads as that row going", async () => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio({});
  try {
    await mcp.ok("navigate", { url: fx.todomvcUrl("angularjs") });
    await mcp.ok("wait_for", { selector: "#new-todo" });
    for (const t of ["Alpha", "Bravo", "Charlie"]) {
      await mcp.ok("fill", { selector: "#new-todo", value: t, submit: true });
    }
    const tree = String((await mcp.ok("snapshot", {})).tree);
    const lines = tree.split("\n");
    const alphaToggle = /\[ref=(e\d+)\]/.exec(
      lines[lines.findIndex((l) => l.trim() === "Alpha") - 1]!,
    )![1]!;
    await mcp.ok("hover", { selector: "#todo-list li:first-child" });
    const r = await mcp.call("click", { selector: "#todo-list li:first-child .destroy" });
    const delta = textOf(r);
    // The row that went, by what it held; not every row's label rewritten.
    assertIncludes(delta, "- - listitem\n-   Alpha");
    assertNotIncludes(delta, "+   Bravo");
    assertIncludes(delta, "(re-used nodes): take a snapshot before using them");
    assertIncludes(delta, `${alphaToggle},`);
    // The toggle the agent saw beside Alpha now sits in Bravo's row: it fails, naming both.
    const stale = await mcp.call("click", { ref: alphaToggle });
    assertEquals(errorOf(stale).code, "ref-gone");
    assertIncludes(textOf(stale), "Alpha");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
