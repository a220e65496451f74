/**
 * Editing a todo in Vue's TodoMVC (double-click, type, Enter) as a new user did: the deltas
 * named "~ eN now sits in a row that changed" again and again — for the field typed into (the
 * keys' own effect) and, after Enter, for the re-rendered row's checkbox in every later delta.
 * A held ref is said once per change; the field the keys went to is not said at all.
 */
import { assertEquals, assertIncludes, assertTrue } from "./_assert.ts";
import { startFixtureServer } from "./fixtures/server.ts";
import { ensureTodoMvc } from "./fixtures/todomvc.ts";
import { startStdio, textOf } from "./_mcp.ts";
import { refOf } from "./_util.ts";

Deno.test("todomvc: editing a Vue todo says a changed row once, not in every delta", async () => {
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
    const said = notes.flat().flatMap((l) => l.match(/\be\d+\b/g) ?? []);
    // The field typed into is the keys' own doing: never said.
    assertTrue(!said.includes(field), JSON.stringify(notes));
    // The re-rendered row's checkbox once (Enter's delta), each ref at most once.
    assertEquals(notes[3]!.length, 1, JSON.stringify(notes));
    assertEquals(said.length, new Set(said).size, JSON.stringify(notes));
    // Still held: using it says what changed, until a snapshot shows it.
    const held = notes[3]![0]!.match(/\be\d+\b/)![0];
    const r = await mcp.call("click", { ref: held });
    assertEquals(r.isError, true, textOf(r));
    assertIncludes(textOf(r), "Buy milk now please");
  } finally {
    await mcp.close();
    await fx.close();
  }
});
