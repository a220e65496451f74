import { assertEquals } from "../../tests/_assert.ts";
import { refsGivenIn, refsShownIn, renewalsIn } from "./shown_refs.ts";

Deno.test("shown refs: snapshot lines, delta notes and ref fields count; page text does not", () => {
  const tree = [
    "# Hello e5",
    "Plain para e3 text",
    '- button "e7" [ref=e1]',
    "- link [ref=p2]",
  ].join("\n");
  assertEquals([...refsShownIn(tree)], ["e1", "p2"]);
  // read_page's tree mode: a ref leads its line.
  const read = [
    "# Reading room",
    'e4 link "Basic page" -> /basic.html',
    "e5 button",
    "e6 is great",
  ];
  assertEquals([...refsShownIn(read.join("\n"))], ["e4", "e5"]);
  const delta = [
    '+ - button "Save" [ref=e10]',
    "~ e11, e12 did not move with their lines (re-used nodes): take a snapshot before using them",
    "~ e13 now sits in a row that changed: take a snapshot before using it",
    "~ e14 is gone: the page re-created it as e15 (same content)",
    "~ Plain text e16 moved",
  ].join("\n");
  assertEquals([...refsShownIn({ snapshotDelta: { text: delta } })].sort(), [
    "e10",
    "e11",
    "e12",
    "e13",
    "e14",
    "e15",
  ]);
  const found = {
    candidates: [{ ref: "e20", name: "e21" }],
    strandedRefs: ["e22"],
    focusRef: "e23",
    value: "e24",
    href: "e25",
  };
  assertEquals([...refsShownIn(found)].sort(), ["e20", "e22", "e23"]);
});

Deno.test("shown refs: the refs a call was given are never shown by its own result", () => {
  const given = refsGivenIn({ ref: "e57", calls: [{ args: { ref: "[ref=e58]" } }] });
  assertEquals([...given].sort(), ["e57", "e58"]);
  const error = { ok: false, error: { message: 'Ref "e57" was never shown' }, ref: "e57" };
  assertEquals([...refsShownIn(error, given)], []);
  assertEquals([...refsGivenIn(undefined)], []);
});

Deno.test("shown refs: a long string the text holds whole is not scanned again", () => {
  const tree = `- button "Go" [ref=e1]\n${"filler line\n".repeat(30)}`;
  const structured = { tree, other: `${"x".repeat(300)} [ref=e2]` };
  assertEquals([...refsShownIn(structured, new Set(), { scanned: `head\n${tree}` })], ["e2"]);
  assertEquals([...refsShownIn(structured)].sort(), ["e1", "e2"]);
});

Deno.test("shown refs: a renewed note's old and new refs pair up; other notes and text do not", () => {
  const text = [
    '- button "Buy" [ref=e3]',
    "~ e6, e7, e8 are gone: the page re-created them as e10, e11, e12 (same content)",
    "~ e4 is gone: the page re-created it as e9 (same content)",
    "~ e1, e2 and 3 more are gone: the page re-created them as e20, e21 and 3 more (same content)",
    "~ e5 now sits in a row that changed: take a snapshot before using it",
    "page text: e30 is gone: the page re-created it as e31",
  ].join("\n");
  assertEquals(renewalsIn(text), [
    ["e6", "e10"],
    ["e7", "e11"],
    ["e8", "e12"],
    ["e4", "e9"],
    ["e1", "e20"],
    ["e2", "e21"],
  ]);
  assertEquals(renewalsIn("no notes here"), []);
});
