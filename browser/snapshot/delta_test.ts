import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { appearedNodes, diffSnapshots, removedNodes } from "./delta.ts";

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
