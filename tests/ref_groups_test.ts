/**
 * Refs of items in a group (a kanban column's cards, a sortable list, a list of plain div rows)
 * across changes to the group, on kanban.html over MCP: a card dragged to another column, a
 * list reordered, items deleted. The container losing or gaining items is no re-use of the
 * items left: their refs stay usable, the moved card's too, and no result says an element was
 * re-used. The real re-uses still fail: a card's node showing another item, a grid row whose
 * "Open" cell reads the same for every person now showing another person, a card of div actions
 * ("Edit", "Delete" in each) now showing another order.
 */
import { assertEquals, assertIncludes, assertNotIncludes, assertTrue } from "./_assert.ts";
import { type McpHarness, textOf } from "./_mcp.ts";
import { actionOf, errorOf } from "./_results.ts";
import { refOf } from "./_util.ts";
import { sharedSiteCases } from "./_shared_cases.ts";

const cases = sharedSiteCases("refs in groups: drag, reorder, delete", {
  env: {
    BROWX_TOOLSETS: "core,sessions,debug,power",
    BROWX_CAPABILITIES: "read,navigation,action,eval",
  },
});

/** The page's log (#log): what the page's handlers saw, in order; without hovers: `clicks`. */
async function log(mcp: McpHarness, clicks = false): Promise<string> {
  const text = await pageLog(mcp);
  return clicks ? text.replace(/hover:\S+ /g, "") : text;
}

async function pageLog(mcp: McpHarness): Promise<string> {
  return String(
    (await mcp.ok("eval_js", { expression: `document.getElementById("log").textContent` })).value,
  );
}

/** Calls `name` and returns its result, failing the test on an error; no re-use said. */
async function okNotReused(mcp: McpHarness, name: string, args: Record<string, unknown>) {
  const r = await mcp.call(name, args);
  const text = textOf(r);
  assertTrue(r.isError !== true, text);
  const res = actionOf(r);
  assertEquals(res.ok, true, text);
  assertEquals(res.element?.reusedFor, undefined, text);
  assertTrue(!/re-used|sits? in rows? that changed|did not move/.test(text), text);
  return res;
}

cases.test("a card dragged to another column: both cards' refs still work", async () => {
  await cases.withPage("kanban.html", async (mcp, tree) => {
    const spec = refOf(tree, /generic.*Write spec/), bug = refOf(tree, /generic.*Fix bug 77/);
    const drag = await okNotReused(mcp, "drag", {
      from: { ref: bug },
      to: { selector: "#done" },
    });
    assertIncludes(JSON.stringify(drag.snapshotDelta), "Fix bug 77");
    assertEquals(
      (await mcp.ok("eval_js", { expression: `document.querySelector("#done .card")?.id` }))
        .value,
      "c2",
    );
    // The untouched card (its column lost a card) and the moved one (in another column now).
    await okNotReused(mcp, "hover", { ref: spec });
    await okNotReused(mcp, "click", { ref: bug });
    await okNotReused(mcp, "click", { ref: spec });
    assertIncludes(await log(mcp), "hover:c1 hover:c2 click:c2 hover:c1 click:c1");
    // Dragged back: the Done column empty again, To do with both cards.
    await okNotReused(mcp, "drag", { from: { ref: bug }, to: { selector: "#todo" } });
    await okNotReused(mcp, "hover", { ref: spec });

    // A card's node re-used for another item: refused, nothing clicked.
    await mcp.ok("eval_js", { expression: "recycleCard()" });
    const before = await log(mcp);
    const r = await mcp.call("click", { ref: spec });
    assertEquals(errorOf(r).code, "ref-gone", textOf(r));
    assertIncludes(textOf(r), "Deploy");
    assertEquals(await log(mcp), before);
  });
});

cases.test("a sortable list reordered: every item's ref still works", async () => {
  await cases.withPage("kanban.html", async (mcp, tree) => {
    const [apples, bananas, cherries] = ["Apples", "Bananas", "Cherries"].map((t) =>
      refOf(tree, new RegExp(`generic.*${t}`))
    );
    await okNotReused(mcp, "drag", { from: { ref: apples }, to: { ref: cherries } });
    const order = `[...document.getElementById("sort").children].map((e) => e.textContent).join()`;
    assertEquals((await mcp.ok("eval_js", { expression: order })).value, "Bananas,Cherries,Apples");
    for (const ref of [bananas, apples, cherries]) await okNotReused(mcp, "click", { ref });
    assertIncludes(await log(mcp, true), "click:s2 click:s1 click:s3");
  });
});

cases.test("items deleted from a list of div rows: the others' refs still work", async () => {
  await cases.withPage("kanban.html", async (mcp, tree) => {
    const deletes = [...tree.matchAll(/button "Delete" \[ref=(e\d+)\]/g)].map((m) => m[1]!);
    assertEquals(deletes.length, 3, tree);
    const [milk, bread, eggs] = deletes as [string, string, string];
    await okNotReused(mcp, "click", { ref: milk });
    // Bread's row is the last of its kind once Eggs goes: still Bread's row.
    await okNotReused(mcp, "click", { ref: eggs });
    await okNotReused(mcp, "click", { ref: bread });
    assertIncludes(await log(mcp), "deleted:Milk deleted:Eggs deleted:Bread");
  });
});

/**
 * Two look-alike controls (`generic [ref]: TEXT`, one per row) that read the same in every row:
 * the second's click logs `okLog`; once `recycle()` re-uses the first's row for `other`, the
 * first's click is refused (ref-gone naming `other`) and logs nothing.
 */
async function refusedOnceReused(
  mcp: McpHarness,
  tree: string,
  c: { text: string; okLog: string; recycle: string; other: string; otherLog: string },
) {
  const refs = [...tree.matchAll(new RegExp(`generic \\[ref=(e\\d+)\\]: ${c.text}$`, "gm"))]
    .map((m) => m[1]!);
  assertEquals(refs.length, 2, tree);
  await okNotReused(mcp, "click", { ref: refs[1]! });
  assertIncludes(await log(mcp), c.okLog);
  await mcp.ok("eval_js", { expression: c.recycle });
  const r = await mcp.call("click", { ref: refs[0]! });
  assertEquals(errorOf(r).code, "ref-gone", textOf(r));
  assertIncludes(textOf(r), c.other);
  assertNotIncludes(await log(mcp), c.otherLog);
}

cases.test("a grid row re-used for another person: its 'Open' cell's ref is refused", async () => {
  await cases.withPage("kanban.html", async (mcp, tree) => {
    await refusedOnceReused(mcp, tree, {
      text: "Open",
      okLog: "open:Bob",
      recycle: "recycleGrid()",
      other: "Carol",
      otherLog: "open:Carol",
    });
  });
});

cases.test("a card re-used for another order: its 'Delete' action's ref is refused", async () => {
  await cases.withPage("kanban.html", async (mcp, tree) => {
    await refusedOnceReused(mcp, tree, {
      text: "Delete",
      okLog: "Delete:Order 1002",
      recycle: "recycleOrder()",
      other: "Order 1003",
      otherLog: "Delete:Order 1003",
    });
  });
});
