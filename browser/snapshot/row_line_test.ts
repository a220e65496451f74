import { assertEquals } from "../../tests/_assert.ts";
import { diffSnapshots, focusLine } from "./delta.ts";
import { controlText, firstRowRef, isRowLine, rowControls } from "./row_line.ts";
import { treeLines } from "../page_read.ts";

const ALICE =
  '| checkbox "Select Alice" [ref=e1] [checked] | **Alice** | combobox "Role" [ref=e2]: admin ' +
  '(options: "admin", "editor") | button "Edit" [ref=e3] [Profile][ref=e4] | a \\| b';

Deno.test("row lines: the controls inline in a row, not its links nor its text", () => {
  assertEquals(isRowLine(ALICE), true);
  assertEquals(isRowLine("- row [ref=e9] [level=1] [expanded]: | src | folder"), true);
  assertEquals(isRowLine("- text: | not a row"), false);
  assertEquals(isRowLine('- button "Edit" [ref=e3]'), false);
  const controls = rowControls(ALICE);
  assertEquals(
    controls.map((c) => [c.role, c.name, c.ref, c.states]),
    [["checkbox", "Select Alice", "e1", " [checked]"], ["combobox", "Role", "e2", ""], [
      "button",
      "Edit",
      "e3",
      "",
    ]],
  );
  assertEquals(
    controlText(ALICE, controls[1]!),
    'combobox "Role" [ref=e2]: admin (options: "admin", "editor")',
  );
  assertEquals(controlText(ALICE, controls[2]!), 'button "Edit" [ref=e3]');
  assertEquals(firstRowRef(ALICE), "e1");
  assertEquals(firstRowRef("| a | b"), undefined);
  // A target row: its own ref first; the row itself is a node line, not among its controls.
  const row = "- row [ref=e9] [selected]: | Ann | checkbox [ref=e10] (.star)";
  assertEquals(firstRowRef(row), "e9");
  assertEquals(rowControls(row).map((c) => [c.ref, c.hint]), [["e10", " (.star)"]]);
});

Deno.test("row lines: a changed cell is one changed line; focus and the tree name the control", () => {
  const before = `- table "People"\n  | Name | Done\n  |---|---|\n  | Alice | checkbox [ref=e1]\n` +
    `  | Bob | checkbox [ref=e2]`;
  const after = before.replace("checkbox [ref=e2]", "checkbox [ref=e2] [checked]");
  const d = diffSnapshots(before, after);
  assertEquals([d.added, d.removed, d.changedCount], [
    ["  | Bob | checkbox [ref=e2] [checked]"],
    [],
    1,
  ]);
  assertEquals(
    d.text,
    '~ - table "People"\n+   | Bob | checkbox [ref=e2] [checked]'.replace("~ ", "  "),
  );
  // A new row's controls are appeared nodes.
  const more = diffSnapshots(before, `${before}\n  | Carol | checkbox "Carol" [ref=e5]`);
  assertEquals(more.appeared, [{ role: "checkbox", name: "Carol", ref: "e5" }]);
  const sorted = diffSnapshots(
    before,
    before.replace(/( {2}\| Alice.*)\n( {2}\| Bob.*)$/, "$2\n$1"),
  );
  assertEquals(
    sorted.text,
    '  - table "People"\n~   | Bob | checkbox [ref=e2]\n~   | Alice | checkbox [ref=e1]',
  );
  assertEquals(
    focusLine(ALICE, "e2"),
    'combobox "Role" [ref=e2]: admin (options: "admin", "editor")',
  );
  assertEquals(focusLine(ALICE, "e4"), 'link "Profile" [ref=e4]');
  assertEquals(
    treeLines(`- table\n  ${ALICE}`),
    'e1 checkbox "Select Alice" [checked]\ne2 combobox "Role"\ne3 button "Edit"\ne4 link "Profile"',
  );
});
