import { assertEquals } from "../../tests/_assert.ts";
import { FindMemory, queryWords } from "./memory.ts";

const SAVE = { role: "button", name: "Save", testId: "editor-save", idAttr: "", context: "" };
const OTHER = { role: "button", name: "Save", testId: "", idAttr: "", context: "toolbar\u0000A" };

Deno.test("find memory: a verdict is recalled for the same or a close query", () => {
  const m = new FindMemory();
  m.record("the Save button in the editor", SAVE, true);
  assertEquals(m.recall("Save button in the editor").length, 1);
  assertEquals(m.recall("editor save button")[0]?.features, SAVE);
  assertEquals(m.recall("Save button in the editor toolbar")[0]?.correct, true);
  assertEquals(m.recall("Delete row"), []);
});

Deno.test("find memory: a new right answer replaces the old one; wrong ones are kept", () => {
  const m = new FindMemory();
  m.record("save", SAVE, true);
  m.record("save", OTHER, true);
  assertEquals(m.recall("save").map((r) => r.features), [OTHER]);
  m.record("save", SAVE, false);
  assertEquals(m.recall("save").map((r) => [r.features.testId, r.correct]), [["", true], [
    "editor-save",
    false,
  ]]);
  assertEquals(m.size, 2);
});

Deno.test("find memory: query words ignore case, order, plurals and filler", () => {
  assertEquals(queryWords("The Delete buttons in Orders"), queryWords("orders delete button"));
});

Deno.test("find memory: same role and name without ids are told apart by where they sit", () => {
  const m = new FindMemory();
  m.record("save", OTHER, true);
  m.record("save", { ...OTHER, context: "toolbar\u0000B" }, false);
  assertEquals(m.recall("save").map((r) => [r.features.context, r.correct]), [
    ["toolbar\u0000A", true],
    ["toolbar\u0000B", false],
  ]);
});
