import {
  assertEquals,
  assertIncludes,
  assertNotIncludes,
  assertTrue,
} from "../../tests/_assert.ts";
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

Deno.test("diffSnapshots: rows of a re-rendered list are told apart by what they hold", () => {
  // All → Completed → All in a TodoMVC: two rows come back around the one that stayed.
  const row = (ref: string, text: string, extra = "") =>
    `- listitem\n  - checkbox [ref=${ref}]\n  ${text}${extra}`;
  const before = row("e13", "Walk dog", '\n  - button "×" [ref=e15]');
  const after = [row("e14", "Buy milk"), row("e13", "Walk dog"), row("e16", "Write report")].join(
    "\n",
  );
  const d = diffSnapshots(before, after);
  assertEquals(d.text.split("\n"), [
    "  - listitem",
    "    Walk dog",
    '-   - button "×" [ref=e15]',
    "+ - listitem",
    "+   - checkbox [ref=e14]",
    "+   Buy milk",
    "+ - listitem",
    "+   - checkbox [ref=e16]",
    "+   Write report",
  ]);
  // A change inside a kept row names the row by its first line.
  const hovered = diffSnapshots(
    after,
    after.replace("Walk dog", 'Walk dog\n  - button "×" [ref=e15]'),
  );
  assertEquals(hovered.text.split("\n"), [
    "  - listitem",
    "    Walk dog",
    '+   - button "×" [ref=e15]',
  ]);
});

Deno.test("diffSnapshots: a list rendered anew in another order reads once", () => {
  const list = (order: string[], refs: number[]) =>
    order.map((n, i) => `* ${n}\n  - button "Do ${n}" [ref=e${refs[i]}]`).join("\n");
  const d = diffSnapshots(
    list(["Alpha", "Bravo", "Charlie"], [3, 4, 5]),
    list(["Charlie", "Bravo", "Alpha"], [6, 7, 8]),
  );
  assertEquals(d.text.split("\n"), [
    "~ * Charlie",
    '+   - button "Do Charlie" [ref=e6]',
    "~ * Bravo",
    '+   - button "Do Bravo" [ref=e7]',
    "~ * Alpha",
    '+   - button "Do Alpha" [ref=e8]',
    "~ e3, e4, e5 are gone: the page re-created them as e8, e7, e6 (same content)",
  ]);
  // The data still lists what went and came.
  assertEquals([d.removed.length, d.added.length], [3, 3]);
});

Deno.test("diffSnapshots: a lone container is itself whatever its first line does", () => {
  const page = (first: string) =>
    ["- main", `  ${first}`, ...Array.from({ length: 30 }, (_, i) => `  Para ${i}`)].join("\n");
  const d = diffSnapshots(page("Unsaved changes"), page("All changes saved"));
  // One context for the old line and its new form.
  assertEquals(d.text.split("\n"), [
    "  - main",
    "-   Unsaved changes",
    "+   All changes saved",
  ]);
});

Deno.test("diffSnapshots: a moved row with no name says which row it is", () => {
  const row = (name: string, ref: number) =>
    `  - row\n    - cell\n      - checkbox [ref=e${ref}]\n    - cell: ${name}`;
  const table = (rows: string[]) => ["- table", ...rows].join("\n");
  const d = diffSnapshots(
    table([row("Alice", 1), row("Bob", 2), row("Carol", 3)]),
    table([row("Carol", 3), row("Bob", 2), row("Alice", 1)]),
  );
  assertIncludes(d.text, "~   - row\n      - cell: Carol");
  assertNotIncludes(d.text, "~     - checkbox");
});

Deno.test("diffSnapshots: rows of one name re-created are paired by what they hold, not by guess", () => {
  const list = (prices: string[], refs: number[]) =>
    prices.map((p, i) => `* Item\n  ${p}\n  - button "Delete" [ref=e${refs[i]}]`).join("\n");
  const d = diffSnapshots(list(["$1", "$2", "$3"], [1, 2, 3]), list(["$1", "$3"], [4, 5]));
  // The $2 row went; $1's and $3's buttons were re-created (it once showed "- * Item" for the
  // first row and $2's line under the second).
  assertEquals(d.text.split("\n"), [
    "- * Item",
    "-   $2",
    '-   - button "Delete" [ref=e2]',
    "~ e1, e3 are gone: the page re-created them as e4, e5 (same content)",
  ]);
});

Deno.test("diffSnapshots: rows of the same text are told apart by their place (Banana, Cherry, Banana)", () => {
  const list = (items: Array<[string, number]>, tail: string[] = []) =>
    ["# Fruits", ...items.map(([t, r]) => `* ${t}\n  - button "Delete" [ref=e${r}]`), ...tail]
      .join("\n");
  const before = list([["Apple", 1], ["Banana", 2], ["Cherry", 3], ["Banana", 4]]);
  const d = diffSnapshots(before, list([["Banana", 5], ["Cherry", 6], ["Banana", 7]], ["Done"]));
  assertEquals(d.text.split("\n"), [
    "- * Apple",
    '-   - button "Delete" [ref=e1]',
    "+ Done",
    "~ e2, e3, e4 are gone: the page re-created them as e5, e6, e7 (same content)",
  ]);
  // The first Banana deleted, the list kept (no re-render): the first one went, not the second.
  const kept = diffSnapshots(
    list([["Banana", 1], ["Cherry", 2], ["Banana", 3]]),
    list([["Cherry", 2], ["Banana", 3]]),
  );
  assertEquals(kept.text.split("\n"), ["- * Banana", '-   - button "Delete" [ref=e1]']);
  // Only the second Banana's button re-created: its line is under the second Banana, after Cherry.
  const second = diffSnapshots(
    list([["Banana", 1], ["Cherry", 2], ["Banana", 3]]),
    list([["Banana", 1], ["Cherry", 2], ["Banana", 4]], ["Done"]),
  );
  assertIncludes(second.text, "~ e3 is gone: the page re-created it as e4");
  // The second of two alike went, nothing re-rendered: its refs tell which (it once read
  // "- * Banana / * Banana / - e2", the first Banana gone and e2 under the kept one).
  const two = (refs: number[]) => list(refs.map((r): [string, number] => ["Banana", r]));
  assertEquals(diffSnapshots(two([1, 2]), two([1])).text.split("\n"), [
    "- * Banana",
    '-   - button "Delete" [ref=e2]',
  ]);
  // One of three alike went and all were re-rendered: which one is not known, so no ref is
  // said re-created as another (a guess).
  assertNotIncludes(diffSnapshots(two([1, 2, 3]), two([4, 5])).text, "re-created");
  // A row changed inside: its line alone, under a Banana (the rows are paired in order).
  const toggled = diffSnapshots(
    list([["Banana", 1], ["Cherry", 2], ["Banana", 3]]).replace("[ref=e3]", "[ref=e3]\n  Sold out"),
    list([["Banana", 1], ["Cherry", 2], ["Banana", 3]]),
  );
  assertEquals(toggled.added, []);
  assertEquals(toggled.removed, ["  Sold out"]);
  assertEquals(toggled.text.split("\n"), ["  * Banana", "-   Sold out"]);
});

Deno.test("diffSnapshots: a table sorted anew shows each row with its new buttons", () => {
  const row = (name: string, edit: number) =>
    `  - row\n    - cell: ${name}\n    - cell\n      - button "Edit" [ref=e${edit}]`;
  const table = (rows: string[]) => ["- table", ...rows].join("\n");
  const d = diffSnapshots(
    table([row("Carol", 1), row("Alice", 2)]),
    table([row("Alice", 3), row("Carol", 4)]),
  );
  assertIncludes(
    d.text,
    '~   - row\n      - cell: Alice\n      - cell\n+       - button "Edit" [ref=e3]',
  );
  assertIncludes(d.text, "e1, e2 are gone: the page re-created them as e4, e3");
});

Deno.test("diffSnapshots: a card moved to another column is no re-used node", () => {
  const board = (todo: string[], done: string[]) =>
    [
      '- region "To do"',
      ...todo.map((c) => `  * ${c}`),
      '- region "Done"',
      ...done.map((c) => `  * ${c}`),
    ].join("\n");
  const d = diffSnapshots(
    board(['Fix bug\n    - button "Done" [ref=e1]', "Write docs"], ["Ship"]),
    board(["Write docs"], ["Ship", 'Fix bug\n    - button "Done" [ref=e1]']),
  );
  assertEquals(d.strandedRefs, []);
  assertNotIncludes(d.text, "re-used");
});

Deno.test("diffSnapshots: a repeated text moving from one item to another is a change", () => {
  const shop = (red: boolean, blue: boolean) =>
    [
      "### Red shirt",
      ...(red ? ["Out of stock"] : []),
      '- button "Add red" [ref=e1]',
      "### Green shirt",
      "Out of stock",
      '- button "Add green" [ref=e2]',
      "### Blue shirt",
      ...(blue ? ["Out of stock"] : []),
      '- button "Add blue" [ref=e3]',
    ].join("\n");
  const d = diffSnapshots(shop(true, false), shop(false, true));
  assertEquals(d.unchanged, false);
  assertEquals([d.removed, d.added], [["Out of stock"], ["Out of stock"]]);
  // Where: each shown after the line before it.
  assertEquals(d.text.split("\n"), [
    "  ### Red shirt",
    "- Out of stock",
    "  ### Blue shirt",
    "+ Out of stock",
  ]);
});

Deno.test("diffSnapshots: one line taken elsewhere shows after the line it now follows", () => {
  const d = diffSnapshots(
    '### Red shirt\nOut of stock\n- button "Add red" [ref=e1]\n### Blue shirt\n- button "Add blue" [ref=e2]',
    '### Red shirt\n- button "Add red" [ref=e1]\n### Blue shirt\nOut of stock\n- button "Add blue" [ref=e2]',
  );
  assertEquals(d.text.split("\n"), ["  ### Blue shirt", "~ Out of stock"]);
});

Deno.test("diffSnapshots: links rendered anew in a line are named once as re-created", () => {
  const footer = (a: number, b: number) =>
    `- contentinfo\n  [All](#/)[ref=e${a}] [Active](#/active)[ref=e${b}]\n  1 item left`;
  const d = diffSnapshots(footer(1, 2), footer(7, 8));
  assertEquals(d.text.split("\n").filter((l) => l.startsWith("- ")), []);
  assertIncludes(d.text, "~ e1, e2 are gone: the page re-created them as e7, e8 (same content)");
});

Deno.test("diffSnapshots: a row whose name is edited in place is still the row", () => {
  const row = (name: string, edit: number) =>
    `  - row\n    - cell: ${name}\n    - cell\n      - button "Edit" [ref=e${edit}]`;
  const table = (rows: string[]) => ["- table", ...rows].join("\n");
  const d = diffSnapshots(
    table([row("Alice", 1), row("Bob", 2)]),
    table([row("Alicia", 1), row("Bob", 2)]),
  );
  assertEquals([d.removed, d.added], [["    - cell: Alice"], ["    - cell: Alicia"]]);
});

Deno.test("diffSnapshots: bare rows rendered anew with the same content read as one note", () => {
  // TodoMVC on a filter: every row re-created, refs new, nothing else changed.
  const list = (names: string[], first: number) =>
    ["- list", ...names.map((n, i) => `  - listitem\n    - checkbox [ref=e${first + i}]\n    ${n}`)]
      .join("\n");
  const names = Array.from({ length: 30 }, (_, i) => `Todo ${i + 1}`);
  const d = diffSnapshots(list(names, 1), list(names, 101));
  assertEquals(d.unchanged, false);
  assertEquals(d.truncated, false);
  assertEquals(d.text.split("\n").length, 1, d.text);
  assertIncludes(d.text, "e1, e2, e3");
  assertIncludes(d.text, "are gone: the page re-created them as e101, e102, e103");
  // Re-created in another order, the rows out of order are shown moved, once, in their new order.
  const back = diffSnapshots(list(["A", "B", "C"], 1), list(["C", "B", "A"], 101));
  assertIncludes(back.text, "~     - checkbox [ref=e102]\n~     B\n~   - listitem\n");
  assertIncludes(back.text, "~     - checkbox [ref=e103]\n~     A");
  assertTrue(!/^[-+] /m.test(back.text), back.text);
  assertEquals(back.movedCount, 2);
  assertIncludes(back.text, "e3 is gone: the page re-created it as e101");
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
