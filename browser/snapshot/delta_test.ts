import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { appearedNodes, diffSnapshots, focusLine, removedNodes } from "./delta.ts";

const BEFORE = [
  "# Todos",
  '- textbox "New todo" [ref=e1]',
  "* Milk",
  '  - checkbox "Toggle" [ref=e2]',
  '  - button "Delete" [ref=e3]',
  '- button "More" [ref=e4] [collapsed]',
  "Footer with [Help](/help)[ref=e5]",
].join("\n");

Deno.test("diffSnapshots: identical texts are unchanged", () => {
  const d = diffSnapshots(BEFORE, BEFORE);
  assertEquals(d.unchanged, true);
  assertEquals([d.added, d.removed, d.changedCount, d.truncated], [[], [], 0, false]);
  assertEquals(d.text, "");
  assertEquals([d.appeared, d.removedNodes], [[], []]);
});

Deno.test("diffSnapshots: a state change is one changed line, shown in its new form", () => {
  const after = BEFORE.replace("[ref=e4] [collapsed]", "[ref=e4] [expanded]")
    .replace('"Toggle" [ref=e2]', '"Toggle" [ref=e2] [checked]');
  const d = diffSnapshots(BEFORE, after);
  assertEquals(d.changedCount, 2);
  assertEquals(d.added, [
    '  - checkbox "Toggle" [ref=e2] [checked]',
    '- button "More" [ref=e4] [expanded]',
  ]);
  assertEquals(d.removed, []);
  // The unchanged list item is shown as context for its changed child.
  assertEquals(d.text.split("\n").slice(0, 2), [
    "  * Milk",
    '+   - checkbox "Toggle" [ref=e2] [checked]',
  ]);
  assertEquals(d.appeared, []);
});

Deno.test("diffSnapshots: added and removed lines, matched with their ancestry", () => {
  const after = [
    "# Todos",
    '- textbox "New todo" [ref=e1]',
    "* Eggs",
    '  - checkbox "Toggle" [ref=e6]',
    '  - button "Delete" [ref=e7]',
    '- button "More" [ref=e4] [collapsed]',
    '- dialog "Saved" [ref=e8]',
    "  Your list was saved.",
    '  - button "OK" [ref=e9]',
    "Footer with [Help](/help)[ref=e5]",
  ].join("\n");
  const d = diffSnapshots(BEFORE, after);
  assertEquals(d.unchanged, false);
  assertEquals(d.changedCount, 0);
  assertEquals(d.removed, [
    "* Milk",
    '  - checkbox "Toggle" [ref=e2]',
    '  - button "Delete" [ref=e3]',
  ]);
  assertEquals(d.added.length, 6);
  assertIncludes(d.text, "- * Milk");
  assertIncludes(d.text, '+ - dialog "Saved" [ref=e8]');
  assertEquals(d.appeared, [
    { role: "checkbox", name: "Toggle", ref: "e6" },
    { role: "button", name: "Delete", ref: "e7" },
    { role: "dialog", name: "Saved", ref: "e8" },
    { role: "button", name: "OK", ref: "e9" },
  ]);
  assertEquals(d.removedNodes, [
    { role: "checkbox", name: "Toggle", ref: "e2" },
    { role: "button", name: "Delete", ref: "e3" },
  ]);
});

Deno.test("appearedNodes / removedNodes: headings, alerts and inline links count; text does not", () => {
  const before = "Intro\n[Docs](/docs)[ref=e1] and [API](/api)[ref=e2]";
  const after =
    "Intro\n- alert: Failed\n## Errors\nSee [API](/api)[ref=e2] or [Help (FAQ)](/faq)[ref=e3]";
  assertEquals(appearedNodes(before, after), [
    { role: "alert", name: "", text: "Failed" },
    { role: "heading", name: "Errors" },
    { role: "link", name: "Help (FAQ)", ref: "e3" },
  ]);
  assertEquals(removedNodes(before, after), [{ role: "link", name: "Docs", ref: "e1" }]);
  assertEquals(appearedNodes(before, after, 1).length, 1);
});

Deno.test("diffSnapshots: big changes are capped and say so", () => {
  const many = Array.from({ length: 500 }, (_, i) => `- button "B${i}" [ref=e${i + 10}]`).join(
    "\n",
  );
  const d = diffSnapshots(BEFORE, BEFORE + "\n" + many, { maxLines: 50, maxNodes: 5 });
  assertEquals(d.truncated, true);
  assertEquals(d.added.length + d.removed.length, 50);
  assertIncludes(d.text, "450 more changed lines not shown");
  assertEquals(d.appeared.length, 5);
  assertTrue(d.text.split("\n").length <= 52);
});

/** A list page: a heading, a Sort button, one `* NAME` row per name with its Delete ref. */
function listPage(rows: Array<[string, string]>, status = "Ready"): string {
  return [
    "# Reorder",
    '- button "Sort" [ref=e1]',
    ...rows.flatMap(([name, ref]) => [`* ${name}`, `  - button "Delete" [ref=${ref}]`]),
    status,
  ].join("\n");
}

const ROWS: Array<[string, string]> = [
  ["Delta", "e2"],
  ["Charlie", "e3"],
  ["Echo", "e4"],
  ["Alpha", "e5"],
  ["Bravo", "e6"],
];

Deno.test("diffSnapshots: two rows swapped (their nodes moved) are one moved block", () => {
  const after = listPage([ROWS[1]!, ROWS[0]!, ...ROWS.slice(2)]);
  const d = diffSnapshots(listPage(ROWS), after);
  assertEquals(d.unchanged, false);
  assertEquals([d.added, d.removed, d.strandedRefs], [[], [], []]);
  assertEquals(d.moved, ["* Charlie", "* Delta"]);
  assertEquals(d.movedCount, 2);
  assertEquals(d.text, "~ * Charlie\n~ * Delta");
});

Deno.test("diffSnapshots: a sorted list (re-used nodes) shows the new order and the stranded refs", () => {
  const names = ROWS.map(([n]) => n).sort();
  // The framework kept its rows: refs stay in place, the labels are rewritten.
  const after = listPage(names.map((n, i) => [n, ROWS[i]![1]]), "Sorted");
  const d = diffSnapshots(listPage(ROWS), after);
  assertEquals(d.unchanged, false);
  assertEquals(d.moved, ["* Alpha", "* Bravo", "* Charlie", "* Delta", "* Echo"]);
  assertEquals(d.strandedRefs, ["e2", "e3", "e4", "e5", "e6"]);
  assertEquals(d.text.split("\n"), [
    "- Ready",
    "+ Sorted",
    "~ * Alpha",
    "~ * Bravo",
    "~ * Charlie",
    "~ * Delta",
    "~ * Echo",
    "~ e2, e3, e4, e5, e6 did not move with their lines (re-used nodes): take a snapshot before using them",
  ]);
  // What the agent pays for this delta (chars / 4): logged, not asserted.
  console.error(
    `delta of a 5-row sort: ${d.text.length} chars, ~${Math.ceil(d.text.length / 4)} tokens`,
  );
  // Sorted with the nodes (a keyed framework): the same block, no stranded refs.
  const keyed = listPage([...ROWS].sort(([x], [y]) => x.localeCompare(y)), "Sorted");
  const k = diffSnapshots(listPage(ROWS), keyed);
  assertEquals([k.moved.length, k.strandedRefs], [5, []]);
});

Deno.test("diffSnapshots: two texts exchanged between lines are moved, not unchanged", () => {
  const before = '# Pair\n- region "Left"\n  First text\n  Second text\nFooter';
  const after = '# Pair\n- region "Left"\n  Second text\n  First text\nFooter';
  const d = diffSnapshots(before, after);
  assertEquals(d.unchanged, false);
  assertEquals(d.moved, ["  Second text", "  First text"]);
  // The parent line is shown once, as context.
  assertEquals(d.text.split("\n"), ['  - region "Left"', "~   Second text", "~   First text"]);
  // Two refs exchanging their names are changed lines, shown in their new form.
  const b2 = '- button "A" [ref=e1]\n- button "B" [ref=e2]';
  const x = diffSnapshots(b2, '- button "B" [ref=e1]\n- button "A" [ref=e2]');
  assertEquals([x.unchanged, x.changedCount, x.moved], [false, 2, []]);
});

Deno.test("diffSnapshots: one row taken to the end of a long list is one line after its new neighbour", () => {
  const rows = Array.from({ length: 30 }, (_, i) => `* Row ${i}`);
  const after = [...rows.slice(1), rows[0]!];
  const d = diffSnapshots(rows.join("\n"), after.join("\n"));
  assertEquals(d.movedCount, 1);
  assertEquals(d.text, "  * Row 29\n~ * Row 0");
});

Deno.test("diffSnapshots: repeated lines never move; appended and removed lines are no moves", () => {
  const before = "- listitem\n  Buy milk\n- listitem\n  Walk dog\nDone\nDone";
  // A row removed and one added at the top: the rest keep their order.
  const after = "- listitem\n  Pay rent\n- listitem\n  Walk dog\nDone\nDone";
  const d = diffSnapshots(before, after);
  assertEquals([d.movedCount, d.strandedRefs], [0, []]);
  // A row is told by what it holds: the replaced row goes and comes whole.
  assertEquals([d.added, d.removed], [["- listitem", "  Pay rent"], ["- listitem", "  Buy milk"]]);
  const shuffledDupes = diffSnapshots("A\nDone\nB\nDone", "Done\nA\nDone\nB");
  assertEquals(shuffledDupes.movedCount, 0);
});

Deno.test("diffSnapshots: moves are capped with the rest", () => {
  const names = Array.from({ length: 40 }, (_, i) => `Name ${String(i).padStart(2, "0")}`);
  const before = names.map((n) => `* ${n}`).join("\n");
  const after = [...names].reverse().map((n) => `* ${n}`).join("\n");
  const d = diffSnapshots(before, after, { maxLines: 10 });
  assertEquals([d.movedCount, d.moved.length, d.truncated], [40, 10, true]);
  assertIncludes(d.text, "30 more changed lines not shown");
});

Deno.test("focusLine: the focused element's line in short, a link inline, a ref not shown", () => {
  const text = [
    "# Sign up",
    '- textbox "Name" [ref=e1] [focused]: Ann',
    "Read [the terms](/terms)[ref=e2] and [help](/help)[ref=e3] first.",
    '- button "Create account" [ref=e4]',
    `- textbox "Bio" [ref=e5]: ${"x".repeat(300)}`,
  ].join("\n");
  assertEquals(focusLine(text, "e1"), 'textbox "Name" [ref=e1]: Ann');
  assertEquals(focusLine(text, "e3"), 'link "help" [ref=e3]');
  assertEquals(focusLine(text, "e4"), 'button "Create account" [ref=e4]');
  assertEquals(focusLine(text, "e5").length, 160);
  assertEquals(focusLine(text, "e9"), "[ref=e9]");
  // Masked before the cut: a value cut in the middle would not be masked later.
  const masked = focusLine(text, "e5", { mask: (l) => l.replace(/x{300}/, "••••") });
  assertEquals(masked, 'textbox "Bio" [ref=e5]: ••••');
});
