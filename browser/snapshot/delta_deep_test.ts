import { assertEquals } from "../../tests/_assert.ts";
import { diffSnapshots } from "./delta.ts";
import { actedOutline, nestedOutline, threadOutline } from "./_outlines.ts";

/** The lines of `after` that `actedOutline` changed or added, and the lines of `before` it changed. */
function changes(before: string, after: string) {
  const a = before.split("\n"), b = after.split("\n");
  const had = new Set(a);
  return {
    added: b.filter((l) => !had.has(l)),
    removed: a.filter((l) => l.endsWith(" (edited)") || !b.includes(l)).filter((l) =>
      !l.includes("[ref=")
    ),
  };
}

for (
  const [name, before] of [
    ["a 20,000-line menu 20 lists deep", nestedOutline(20_000, 20)],
    ["a 20,000-line thread 200 replies deep", threadOutline(20_000, 200)],
  ] as const
) {
  Deno.test(`diffSnapshots: ${name} reads as the action's three changes`, () => {
    const after = actedOutline(before);
    const want = changes(before, after);
    assertEquals([want.added.length, want.removed.length], [3, 1]);
    const d = diffSnapshots(before, after);
    assertEquals(d.added, want.added);
    assertEquals(d.removed, want.removed);
    assertEquals([d.changedCount, d.movedCount, d.truncated], [1, 0, false]);
    assertEquals(d.appeared, [{ role: "link", name: "New", ref: "e999999" }]);
    // Each change is shown under its parent line, nothing else; the edited line's new form
    // right after its old one (one parent), the other added lines after.
    const marked = d.text.split("\n").filter((l) => !l.startsWith("  "));
    const edited = (l: string) => l.endsWith(" (edited)");
    assertEquals(marked, [
      ...want.removed.map((l) => `- ${l}`),
      ...want.added.filter(edited).map((l) => `+ ${l}`),
      ...want.added.filter((l) => !edited(l)).map((l) => `+ ${l}`),
    ]);
  });
}

Deno.test("diffSnapshots: a list re-used by position 20 lists deep in a 20,000-line menu is found", () => {
  const before = nestedOutline(20_000, 20);
  const lines = before.split("\n");
  // The first pair of leaf rows past half way: its first row's node is re-used for the second.
  let at = lines.findIndex((l, i) => i > lines.length / 2 && l.trimStart().startsWith("Leaf "));
  while (lines[at + 1] !== lines[at - 2] || !lines[at + 2]?.trimStart().startsWith("- link")) at++;
  const [rowLink, leaf, , nextLink, nextLeaf] = lines.slice(at - 1, at + 4);
  const firstRef = /\[ref=(e\d+)\]/.exec(rowLink!)![1]!,
    nextRef = /\[ref=(e\d+)\]/.exec(nextLink!)![1];
  const after = [
    ...lines.slice(0, at - 1),
    nextLink!.replace(nextRef!, firstRef),
    nextLeaf!,
    ...lines.slice(at + 4),
  ].join("\n");
  const d = diffSnapshots(before, after);
  assertEquals(d.removed, [lines[at - 2], leaf]);
  // The re-used node's link reads the next row's name now: a changed line.
  assertEquals(d.added, [after.split("\n")[at - 1]]);
  assertEquals(d.strandedRefs, [firstRef]);
  assertEquals(
    d.text.split("\n").at(-1),
    `~ ${firstRef} did not move with their lines; ${nextRef} is gone (re-used nodes): take a snapshot before using them`,
  );
});
