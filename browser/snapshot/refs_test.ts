import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { RefRegistry } from "./refs.ts";
import type { RefTarget } from "./ref_types.ts";
import { parseRef } from "./ref_syntax.ts";

const at = (localId: number, over: Partial<RefTarget> = {}): RefTarget => ({
  targetId: "T1",
  frameId: "F1",
  loaderId: "L1",
  instance: "w1",
  localId,
  ...over,
});

Deno.test("refFor: one ref per element, stable across snapshots, role and name updated", () => {
  const r = new RefRegistry();
  const a = r.refFor(at(1), "button", "Save");
  const b = r.refFor(at(2), "link", "Docs");
  assertEquals([a, b], ["e1", "e2"]);
  assertEquals(r.refFor(at(1), "button", "Saved"), "e1");
  assertEquals(r.get("e1")?.name, "Saved");
  assertEquals(r.get("e2")?.role, "link");
  assertEquals(r.size, 2);
});

Deno.test("refFor: another document, world, frame or tab is another element; numbers never reused", () => {
  const r = new RefRegistry();
  const first = r.refFor(at(1), "button", "A");
  const refs = [
    r.refFor(at(1, { loaderId: "L2" }), "button", "A"),
    r.refFor(at(1, { instance: "w2" }), "button", "A"),
    r.refFor(at(1, { frameId: "F2" }), "button", "A"),
    r.refFor(at(1, { targetId: "T2" }), "button", "A"),
  ];
  assertEquals(new Set([first, ...refs]).size, 5);
  assertEquals(r.dropStale("T1", "F1", "L2", "w1"), 2); // L1/w1 and L2/w2 copies of F1 go
  assertEquals(r.get(first), undefined);
  assertTrue(r.wasIssued(first), "a dropped ref was still issued");
  const next = r.refFor(at(1), "button", "A");
  assertTrue(next !== first, "a dropped ref's number is not reused");
  assertEquals(r.wasIssued("e999"), false);
  assertEquals(r.dropTab("T2"), 1);
  assertEquals(r.prune((e) => e.frameId === "F2"), 1);
});

Deno.test("parseRef accepts e12, ref=e12, [ref=e12] and a picked p3, nothing else", () => {
  assertEquals(parseRef("e12"), "e12");
  assertEquals(parseRef(" ref=e12 "), "e12");
  assertEquals(parseRef("[ref=e12]"), "e12");
  assertEquals(parseRef("p3"), "p3");
  for (const bad of ["", "12", "e", "E12", "#12", "e12x", "q3", "[ref=#12]"]) {
    assertEquals(parseRef(bad), undefined, bad);
  }
});

Deno.test("refFor records the context a ref was last shown in", () => {
  const r = new RefRegistry();
  const row = { kind: "list item", text: "Buy milk" };
  const ref = r.refFor(at(1), "button", "Delete", { context: row });
  assertEquals(r.get(ref)?.context, row);
  const next = { kind: "list item", text: "Walk dog" };
  assertEquals(r.refFor(at(1), "button", "Delete", { context: next }), ref);
  assertEquals(r.get(ref)?.context, next);
  assertEquals(r.get(r.refFor(at(2), "link", "Docs"))?.context, undefined);
});

Deno.test("settle: a held capture takes over in-place changes, holds re-used elements back", () => {
  const r = new RefRegistry();
  const item = (text: string) => ({ context: { kind: "list item", text } });
  const names = ["Delta", "Charlie", "Echo"];
  const dels = names.map((n, i) => r.refFor(at(i + 1), "button", "Delete", item(n)));
  const edit = r.refFor(at(9), "checkbox", "Done", item("Buy milk"));
  const tick = r.refFor(at(10), "button", "Retry", item("Build 42 3s ago (5/140)"));
  const acted = r.refFor(at(11), "button", "Archive", item("Invoice 7"));
  // The page sorted its rows by rewriting their labels (nodes stay), edited another row,
  // ticked a third's clock and counter, and the acted-on button's row now reads otherwise.
  const sorted = [...names].sort();
  const seen = sorted.map((n, i) =>
    r.refFor(at(i + 1), "button", "Delete", { ...item(n), hold: true })
  );
  seen.push(r.refFor(at(9), "checkbox", "Done", { ...item("Buy oat milk"), hold: true }));
  seen.push(
    r.refFor(at(10), "button", "Retry", { ...item("Build 42 9s ago (6/140)"), hold: true }),
  );
  seen.push(r.refFor(at(11), "button", "Archive", { ...item("Invoice 7 archived"), hold: true }));
  assertEquals(seen, [...dels, edit, tick, acted]);
  // Delta→Charlie and Charlie→Delta swapped items; Echo kept its row; the edited row reads as
  // another item (held until shown); counts and times tick in place; the acted-on row is taken.
  assertEquals(r.settle(seen, { acted }), [dels[0], dels[1], edit]);
  assertEquals(r.get(dels[0]!)?.context, { kind: "list item", text: "Delta" });
  assertEquals(r.get(dels[0]!)?.latest?.context, { kind: "list item", text: "Charlie" });
  assertEquals(r.get(dels[2]!)?.context?.text, "Echo");
  assertEquals(r.get(edit)?.context?.text, "Buy milk", "a row now reading otherwise is held");
  assertEquals(r.get(tick)?.context?.text, "Build 42 9s ago (6/140)", "a tick is taken over");
  assertEquals(r.get(acted)?.context?.text, "Invoice 7 archived", "the acted-on row is taken");
  // Shown a page of the outline: the refs on it are where they are now, the others are held.
  r.showAll("T1", `- button "Delete" [ref=${dels[0]}]`);
  assertEquals(r.get(dels[0]!)?.context?.text, "Charlie");
  assertEquals(r.get(dels[1]!)?.context?.text, "Charlie", "not shown: still as shown before");
  // Shown whole, every ref is where it is now.
  r.showAll("T1");
  assertEquals(r.get(edit)?.context?.text, "Buy oat milk");
  assertEquals(r.settle(seen), []);
});

Deno.test("settle: the acted-on element's own rename is taken (a Follow toggle)", () => {
  const r = new RefRegistry();
  const alice = r.refFor(at(1), "button", "Follow", { context: { kind: "row", text: "Alice" } });
  r.refFor(at(2), "button", "Follow", { context: { kind: "row", text: "Bob" } });
  const seen = [
    r.refFor(at(1), "button", "Following", { context: { kind: "row", text: "Alice" }, hold: true }),
  ];
  // Another ref still reads "Follow": without `acted`, the rename looks like a re-used name.
  assertEquals(r.settle(seen, { acted: alice }), []);
  assertEquals(r.get(alice)?.name, "Following");
  const back = [
    r.refFor(at(1), "button", "Follow", { context: { kind: "row", text: "Alice" }, hold: true }),
  ];
  assertEquals(r.settle(back, { acted: alice }), []);
  assertEquals(r.get(alice)?.name, "Follow");
});

Deno.test("settle: a row dropped under re-used nodes holds the rows that slid up", () => {
  const r = new RefRegistry();
  const item = (text: string, hold = false) => ({ context: { kind: "list item", text }, hold });
  const a = r.refFor(at(1), "button", "Delete", item("Buy milk"));
  const b = r.refFor(at(2), "button", "Delete", item("Walk dog"));
  r.refFor(at(3), "button", "Delete", item("Pay rent"));
  // Row 3's node went; rows 1 and 2 now show the next items.
  const seen = [
    r.refFor(at(1), "button", "Delete", item("Walk dog", true)),
    r.refFor(at(2), "button", "Delete", item("Pay rent", true)),
  ];
  assertEquals(r.settle(seen), [a, b]);
  // A capture without hold (a snapshot shown whole) takes the context at once.
  r.refFor(at(1), "button", "Delete", item("Walk dog"));
  assertEquals(r.get(a)?.context?.text, "Walk dog");
});

Deno.test("settle: names re-used by another element are held back, renames in place are taken", () => {
  const r = new RefRegistry();
  const a = r.refFor(at(1), "button", "Delete Charlie");
  const b = r.refFor(at(2), "button", "Delete Bravo");
  const play = r.refFor(at(3), "button", "Play");
  const field = r.refFor(at(4), "textbox", "Search");
  r.refFor(at(5), "textbox", "Name");
  const seen = [
    r.refFor(at(1), "button", "Delete Bravo", { hold: true }),
    r.refFor(at(2), "button", "Delete Charlie", { hold: true }),
    r.refFor(at(3), "button", "Pause", { hold: true }),
    r.refFor(at(4), "textbox", "Name", { hold: true }),
  ];
  assertEquals(r.settle(seen), [a, b]);
  assertEquals([r.get(a)?.name, r.get(b)?.name], ["Delete Charlie", "Delete Bravo"]);
  assertEquals(r.get(play)?.name, "Pause");
  assertEquals(r.get(field)?.name, "Name", "a text field's name follows its input");
  r.showAll("T1");
  assertEquals(r.get(a)?.name, "Delete Bravo");
});

Deno.test("refs: a pick is a pN beside the element's eN; both resolve, and go with their document", () => {
  const r = new RefRegistry();
  const t = { targetId: "T", frameId: "F", loaderId: "L", instance: "i", localId: 7 };
  const e = r.refFor(t, "button", "Save");
  const p = r.pick(t, "button", "Save", { kind: "", text: "" });
  assertEquals([e, p, r.pick(t, "button", "Save")], ["e1", "p1", "p2"]);
  assertEquals(r.lookup(t), "e1");
  assertEquals(r.refFor(t, "button", "Save"), "e1");
  assertEquals(r.get("p1")?.localId, 7);
  assertEquals([parseRef("p1"), parseRef("[ref=p12]"), parseRef("q1")], ["p1", "p12", undefined]);
  assertEquals([r.wasIssued("p2"), r.wasIssued("p3"), r.wasIssued("e1")], [true, false, true]);
  // Dropping a pick keeps the element's eN mapping.
  r.prune((x) => x.ref === "p1");
  assertEquals([r.get("p1"), r.lookup(t)], [undefined, "e1"]);
  r.dropStale("T", "F", "L2", "i");
  assertEquals([r.get("e1"), r.get("p2"), r.wasIssued("p2")], [undefined, undefined, true]);
});

Deno.test("namesAlike: other names of the role in the document sharing a word, at most 50", () => {
  const r = new RefRegistry();
  const carol = r.refFor(at(1), "button", "Delete Carol Cruz");
  r.refFor(at(2), "button", "Delete Dave Dunn");
  r.refFor(at(3), "button", "delete  Erin");
  r.refFor(at(4), "button", "Delete Carol Cruz"); // its own name
  r.refFor(at(5), "link", "Delete Fay"); // another role
  r.refFor(at(6), "button", "Save"); // no shared word
  r.refFor(at(7, { loaderId: "L2" }), "button", "Delete Gus"); // another document
  assertEquals(r.namesAlike(r.get(carol)!), ["Delete Dave Dunn", "delete  Erin"]);
  for (let i = 0; i < 60; i++) r.refFor(at(100 + i), "button", `Delete item ${i}`);
  assertEquals(r.namesAlike(r.get(carol)!).length, 50);
});

Deno.test("settle: a held ref is returned once per change, again after it was shown", () => {
  const r = new RefRegistry();
  const item = (text: string, hold = true) => ({ context: { kind: "list item", text }, hold });
  const done = r.refFor(at(1), "checkbox", "Done", item("Buy milk", false));
  const capture = (text: string) => [r.refFor(at(1), "checkbox", "Done", item(text))];
  // Vue TodoMVC's edit: the row reads otherwise after each key and after Enter.
  assertEquals(r.settle(capture("Buy milk now")), [done]);
  assertEquals(r.settle(capture("Buy milk now")), [], "said once: still held, not said again");
  assertEquals(r.settle(capture("Buy milk now please")), []);
  assertEquals(r.get(done)?.context?.text, "Buy milk", "held all along");
  // Back as shown, then changed again: a new change, said again.
  assertEquals(r.settle(capture("Buy milk")), []);
  assertEquals(r.settle(capture("Walk dog")), [done]);
  // Shown where it is now, then changed again: said again.
  r.showAll("T1");
  assertEquals(r.settle(capture("Buy bread")), [done]);
});

Deno.test("renewedAs: follows announced re-creations to the newest ref still registered", () => {
  const r = new RefRegistry();
  const [a, b, c] = [1, 2, 3].map((id) => r.refFor(at(id), "link", "Active"));
  assertEquals(r.renewedAs(a!), undefined);
  r.noteRenewed([[a!, b!]]);
  assertEquals(r.renewedAs(a!), b);
  r.noteRenewed([[b!, c!], ["e1", "e1"]]);
  assertEquals(r.renewedAs(a!), c);
  // A new ref dropped since (its document replaced): the last one that lives.
  r.prune((e) => e.ref === c);
  assertEquals(r.renewedAs(a!), b);
  // A cycle ends.
  r.noteRenewed([[b!, a!]]);
  assertEquals(r.renewedAs(a!), b);
});

Deno.test("settle: the row the agent renamed keeps its refs; a row re-used for another is held", () => {
  const r = new RefRegistry();
  const item = (text: string, hold = false) => ({ context: { kind: "list item", text }, hold });
  const field = r.refFor(at(1), "textbox", "", item(""));
  const box = r.refFor(at(2), "checkbox", "", item("Walk dog"));
  const other = r.refFor(at(3), "checkbox", "", item("Buy milk"));
  // The fill renamed "Walk dog" to "Walk the dog"; the list re-used "Buy milk"'s row for "Zoo".
  const seen = [
    r.refFor(at(2), "checkbox", "", item("Walk the dog", true)),
    r.refFor(at(3), "checkbox", "", item("Zoo", true)),
  ];
  const edited = { before: "Walk dog", after: "Walk the dog" };
  assertEquals(r.settle(seen, { acted: field, edited }), [other]);
  assertEquals(r.get(box)?.context?.text, "Walk the dog");
  assertEquals(r.get(other)?.context?.text, "Buy milk");
  // A row that holds the new text but not in place of the old one is another item.
  const r2 = new RefRegistry();
  const f2 = r2.refFor(at(1), "textbox", "", item(""));
  const alice = r2.refFor(at(2), "button", "Delete", item("Alice Adams"));
  const seen2 = [r2.refFor(at(2), "button", "Delete", item("Bob Smith", true))];
  assertEquals(r2.settle(seen2, { acted: f2, edited: { before: "Ali", after: "Bob" } }), [alice]);
});
