import {
  assertEquals,
  assertIncludes,
  assertNotIncludes,
  assertTrue,
} from "../../tests/_assert.ts";
import { diffSnapshots } from "./delta.ts";

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
