import { assertEquals } from "../../tests/_assert.ts";
import { diffSnapshots } from "./delta.ts";

/** A TodoMVC-like list: bare rows, each a checkbox (its ref) and a label. */
function page(rows: Array<[string, string]>): string {
  const row = ([ref, text]: [string, string]) =>
    `  - listitem\n    - checkbox [ref=${ref}]\n    ${text}`;
  return ["- list", ...rows.map(row), "2 items left"].join("\n");
}

Deno.test("reused rows: deleting the first row of a list kept by position reads as that row going", () => {
  // AngularJS without `track by`: the first two row nodes stay, their labels are rewritten,
  // the last node is dropped.
  const before = page([["e13", "Alpha"], ["e14", "Bravo"], ["e15", "Charlie"]]);
  const after = page([["e13", "Bravo"], ["e14", "Charlie"]]);
  const d = diffSnapshots(before, after);
  assertEquals(d.text.split("\n"), [
    "  - list",
    "-   - listitem",
    "-     Alpha",
    "~ e13, e14 did not move with their lines; e15 is gone (re-used nodes): take a snapshot before using them",
  ]);
  assertEquals([d.unchanged, d.strandedRefs], [false, ["e13", "e14"]]);
  // A keyed list (the row's node went with it) reads the same row going, its ref with it.
  const keyed = diffSnapshots(before, page([["e14", "Bravo"], ["e15", "Charlie"]]));
  assertEquals(keyed.text.split("\n"), [
    "  - list",
    "-   - listitem",
    "-     - checkbox [ref=e13]",
    "-     Alpha",
  ]);
});

Deno.test("reused rows: a list sorted in place is moves and stranded refs; one edited row is one line", () => {
  const before = page([["e13", "Charlie"], ["e14", "Alpha"], ["e15", "Bravo"]]);
  const sorted = diffSnapshots(
    before,
    page([["e13", "Alpha"], ["e14", "Bravo"], ["e15", "Charlie"]]),
  );
  assertEquals(sorted.movedCount, 1);
  assertEquals(sorted.strandedRefs, ["e13", "e14", "e15"]);
  // One row's label edited in place is not a re-used list: the row keeps its ref.
  const edited = diffSnapshots(
    before,
    page([["e13", "Charlie"], ["e14", "Alpha!"], ["e15", "Bravo"]]),
  );
  assertEquals([edited.strandedRefs, edited.added, edited.removed], [[], ["    Alpha!"], [
    "    Alpha",
  ]]);
});
