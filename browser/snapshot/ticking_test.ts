import { assertEquals, assertIncludes, assertNotIncludes } from "../../tests/_assert.ts";
import { diffSnapshots } from "./delta.ts";
import { selfChanges } from "./ticking.ts";

const tickKeys = (a: string, b: string) => selfChanges(a, b).ticking;

const page = (clock: string, todos: string[], count = "2 left") =>
  [
    "# Todos",
    `- status: ${clock}`,
    '- button "Refresh 3" [ref=e9]',
    '- textbox "New todo" [ref=e1]',
    ...todos.map((t) => `* ${t}`),
    count,
  ].join("\n");

Deno.test("tickKeys: lines changed only by their numbers, in their place", () => {
  const keys = tickKeys(page("12:01:03", ["Milk"]), page("12:01:04", ["Milk"]));
  assertEquals(keys.size, 1);
  // A changed word is no tick; nor is a line that only appeared.
  assertEquals(tickKeys(page("12:01:03", ["Milk"]), page("12:01:03", ["Bread"])).size, 0);
  assertEquals(tickKeys(page("12:01:03", ["Milk"]), page("12:01:03", ["Milk", "Eggs"])).size, 0);
  assertEquals(tickKeys(page("1", []), page("1", [])).size, 0);
});

Deno.test("diffSnapshots with ticking: the tick is one note, the action's change is listed", () => {
  const ticking = tickKeys(page("12:01:03", ["Milk"]), page("12:01:04", ["Milk"]));
  const before = page("12:01:04", ["Milk"]);
  const after = page("12:01:09", ["Milk", "Eggs"], "3 left");
  const plain = diffSnapshots(before, after);
  assertIncludes(plain.text, "12:01:09");
  const d = diffSnapshots(before, after, { self: { ticking, reorders: false } });
  assertIncludes(d.text, "+ * Eggs");
  assertIncludes(d.text, "+ 3 left");
  assertNotIncludes(d.text, "- - status");
  assertNotIncludes(d.text, "+ - status");
  assertIncludes(
    d.text,
    "~ ticking on its own (not this action's doing): 1 line, e.g. - status: 12:01:09",
  );
  assertEquals(d.ticked?.count, 1);
  // A counter that ticks on its button (a ref line changed in place): the same.
  const refTick = tickKeys(page("1", []), page("1", []).replace("Refresh 3", "Refresh 4"));
  const r = diffSnapshots(page("1", []), page("1", []).replace("Refresh 3", "Refresh 7"), {
    self: { ticking: refTick, reorders: false },
  });
  assertEquals([r.changedCount, r.unchanged, r.ticked?.count], [0, true, 1]);
  // Only the tick changed: unchanged, and the note says why the text is not empty.
  const only = diffSnapshots(before, page("12:01:05", ["Milk"]), {
    self: { ticking, reorders: false },
  });
  assertEquals(only.unchanged, true);
  assertIncludes(only.text, "ticking on its own");
});

Deno.test("selfChanges and a page that reorders itself: moves counted in a note", () => {
  const rows = (order: string[], extra: string[] = []) =>
    ["# Scores", ...order.map((n, i) => `- row "${n}" [ref=e${i + 1}]`), ...extra].join("\n");
  const sorted = rows(["Ann", "Bob", "Cid"]);
  // Refs follow the names: the same rows in another order.
  const resorted = [
    "# Scores",
    '- row "Cid" [ref=e3]',
    '- row "Ann" [ref=e1]',
    '- row "Bob" [ref=e2]',
  ]
    .join("\n");
  assertEquals(selfChanges(sorted, resorted).reorders, true);
  assertEquals(selfChanges(sorted, rows(["Ann", "Bob", "Cid"], ["Dan"])).reorders, false);
  const after = [
    "# Scores",
    '- row "Bob" [ref=e2]',
    '- row "Cid" [ref=e3]',
    '- row "Ann" [ref=e1]',
    "Saved",
  ]
    .join("\n");
  const listed = diffSnapshots(resorted, after);
  assertIncludes(listed.text, "~ ");
  const d = diffSnapshots(resorted, after, { self: { ticking: new Set(), reorders: true } });
  assertIncludes(d.text, "+ Saved");
  assertIncludes(d.text, "moved; this page also reorders itself");
  assertNotIncludes(d.text, '~ - row "');
});
