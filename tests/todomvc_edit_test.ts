/**
 * Editing a todo in TodoMVC (double-click, type, Enter) as a new user did. The deltas named
 * "~ eN now sits in a row that changed" again and again — for the field typed into (the keys'
 * own effect) and, after Enter, for the renamed row's checkbox — and a fill of the edit field
 * warned it "was re-used for another item" (vue, mithril, knockoutjs; vanillajs held the renamed
 * row's checkbox: the row-mate of the field filled now reads what was typed). The row renamed by its
 * own edit field is the same item: its refs stay usable, and nothing is said.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

Deno.test("todomvc: editing a Vue todo by typing says no changed row", async () => {
  await ensureTodoMvc();
  const fx = await startFixtureServer();
  const mcp = await startStdio();
  try {
    await mcp.ok("navigate", { url: fx.todomvcUrl("vue"), snapshot: "none" });
    const input = refOf(String((await mcp.ok("snapshot")).tree), /textbox "What needs/);
    await mcp.ok("fill", { ref: input, value: "Buy milk", submit: true });
    await mcp.ok("fill", { ref: input, value: "Walk dog", submit: true });
    const tree = String((await mcp.ok("snapshot")).tree);
    const walk = refOf(tree.slice(tree.indexOf("Buy milk")), /checkbox/);
    const notes: string[][] = [];
    const step = async (tool: string, args: Record<string, unknown>) => {
      const r = await mcp.call(tool, args);
      assertEquals(r.isError, undefined, textOf(r));
      notes.push(
        textOf(r).split("\n").filter((l) => / now sits? in (?:a row|rows) that changed/.test(l)),
      );
      return textOf(r);
    };
    const edit = await step("click", { selector: "text=Buy milk", clickCount: 2 });
    const field = refOf(edit, /textbox .*\[focused\]: Buy milk/);
    await step("type", { text: " now" });
    await step("type", { text: " please" });
    await step("press", { key: "Enter" });
    // Another action whose delta shows something (the count): no note repeated.
    await step("click", { ref: walk });
    // The field typed into and the renamed row's checkbox are the edit's own doing: not said.
    assertEquals(notes.flat(), [], JSON.stringify(notes));
    assertTrue(field !== walk);
    // The renamed row's checkbox acts on its row.
    const tree2 = String((await mcp.ok("snapshot")).tree);
    const renamed = /checkbox \[ref=(e\d+)\][^\n]*\n\s*Buy milk now please/.exec(tree2)?.[1];
    assertTrue(renamed !== undefined, tree2);
    const r = await mcp.call("click", { ref: renamed });
    assertEquals(r.isError, undefined, textOf(r));
    assertIncludes(textOf(r), "checked");
  } finally {
    await mcp.close();
    await fx.close();
  }
});

for (const app of ["vue", "mithril", "knockoutjs", "vanillajs"]) {
  Deno.test(`todomvc: ${app}'s edit (double-click, fill with submit) warns of no re-use`, async () => {
    await ensureTodoMvc();
    const fx = await startFixtureServer();
    const mcp = await startStdio();
    try {
      await mcp.ok("navigate", { url: fx.todomvcUrl(app), snapshot: "none" });
      const input = refOf(String((await mcp.ok("snapshot")).tree), /textbox "What needs/);
      await mcp.ok("fill", { ref: input, value: "Buy milk", submit: true });
      await mcp.ok("fill", { ref: input, value: "Walk dog", submit: true });
      const dbl = textOf(await mcp.call("click", { selector: "text=Walk dog", clickCount: 2 }));
      const field = refOf(dbl, /textbox .*\[focused\]: Walk dog/);
      const r = await mcp.call("fill", { ref: field, value: "Walk the dog", submit: true });
      const text = textOf(r);
      assertEquals(r.isError, undefined, text);
      assertTrue(!/re-used|changed: take a snapshot|row that changed/.test(text), text);
      assertIncludes(text, "Walk the dog");
      // The renamed row's checkbox, as the delta showed it, toggles that row.
      const box = refOf(text, /checkbox/);
      const done = await mcp.call("click", { ref: box });
      assertEquals(done.isError, undefined, textOf(done));
      const tree = String((await mcp.ok("snapshot")).tree);
      assertTrue(/checkbox \[ref=\w+\] \[checked\][^\n]*\n[^\n]*Walk the dog/.test(tree), tree);
    } finally {
      await mcp.close();
      await fx.close();
    }
  });
}
