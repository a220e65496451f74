import { assertEquals } from "../../tests/_assert.ts";
import { copiesSelection, pastesClipboard, undoesEdit } from "./copy_guard.ts";

Deno.test("copiesSelection: copy and cut shortcuts, nothing else", () => {
  const table: Array<[string, boolean]> = [
    ["Control+c", true],
    ["Control+C", true],
    ["Meta+c", true],
    ["Control+x", true],
    ["Control+Shift+c", true],
    ["Control+Insert", true],
    ["Shift+Delete", true],
    ["Control+a", false],
    ["Control+v", false],
    ["c", false],
    ["Shift+c", false],
    ["Delete", false],
    ["Insert", false],
    ["Alt+c", false],
    ["Control+", false],
  ];
  for (const [combo, want] of table) assertEquals(copiesSelection(combo), want, combo);
});

Deno.test("pastesClipboard: paste shortcuts, nothing else (bad combos included)", () => {
  const table: Array<[string, boolean]> = [
    ["Control+v", true],
    ["Control+V", true],
    ["Meta+v", true],
    ["Control+Shift+v", true],
    ["Shift+Insert", true],
    ["Control+c", false],
    ["v", false],
    ["Shift+v", false],
    ["Alt+v", false],
    ["Insert", false],
    ["Control+Insert", false],
    ["Control+", false],
    ["", false],
    ["NoSuchKey+v", false],
  ];
  for (const [combo, want] of table) assertEquals(pastesClipboard(combo), want, combo);
});

Deno.test("undoesEdit: undo and redo shortcuts, nothing else (bad combos included)", () => {
  const table: Array<[string, boolean]> = [
    ["Control+z", true],
    ["Control+Z", true],
    ["Meta+z", true],
    ["Control+Shift+z", true],
    ["Meta+Shift+Z", true],
    ["Control+y", true],
    ["Alt+Backspace", true],
    ["Alt+Shift+Backspace", true],
    ["z", false],
    ["Shift+z", false],
    ["Alt+z", false],
    ["Backspace", false],
    ["Control+a", false],
    ["Control+", false],
    ["Hyper+z", false],
  ];
  for (const [combo, want] of table) assertEquals(undoesEdit(combo), want, combo);
});
