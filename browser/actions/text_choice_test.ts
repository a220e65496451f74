import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { chooseTextMatch, describeCandidate, type TextCandidate } from "./text_choice.ts";

const heading: TextCandidate = { role: "heading", name: "Search docs", actionable: false };
const button: TextCandidate = { role: "button", name: "Search", actionable: true };
const link: TextCandidate = { role: "link", name: "Search tips", actionable: true };
const text = (name: string): TextCandidate => ({ role: "text", name, actionable: false });

Deno.test("text choice: one match needs no note", () => {
  assertEquals(chooseTextMatch("text=Search", [heading]), { index: 0 });
});

Deno.test("text choice: an actionable match beats text before it, and the note says why", () => {
  const c = chooseTextMatch("text=Search", [heading, button]);
  assertEquals(c.index, 1);
  assertIncludes(
    c.note!,
    'text=Search matched 2: chose button "Search" over heading "Search docs"',
  );
  assertIncludes(c.note!, "the first actionable match");
  assertIncludes(c.note!, "ref");
});

Deno.test("text choice: an actionable match reading exactly the text beats ones containing it", () => {
  const label: TextCandidate = { role: "label", name: "Search books", actionable: true };
  const exact = { ...button, exact: true };
  const c = chooseTextMatch("text=Search", [label, heading, link, exact]);
  assertEquals(c.index, 3);
  assertIncludes(c.note!, 'chose button "Search" over label "Search books"');
  assertIncludes(c.note!, "reading exactly that");
  // Text that is not actionable is not chosen for being exact.
  assertEquals(chooseTextMatch("text=Search", [link, { ...text("Search"), exact: true }]).index, 0);
  // An aria-label is no shown text: a button labelled "Search" reading "Search" too comes after
  // the first exact one (the page tells exactness from shown text; names do not decide).
  const labelled: TextCandidate = { role: "button", name: "Search products", actionable: true };
  assertEquals(chooseTextMatch("text=Search", [{ ...labelled, exact: true }, exact]).index, 0);
});

Deno.test("text choice: a match drawn invisible (opacity under 0.1) loses to one a person sees", () => {
  const planted: TextCandidate = { ...button, exact: true, faint: true };
  const c = chooseTextMatch("text=Search", [planted, link]);
  assertEquals(c.index, 1);
  assertIncludes(c.note!, "a person can see");
  // Nothing visible and actionable: the first actionable one still.
  assertEquals(chooseTextMatch("text=Search", [heading, planted]).index, 1);
});

Deno.test("text choice: among actionable matches, snapshot order decides", () => {
  const c = chooseTextMatch("text=Sea", [heading, link, button]);
  assertEquals(c.index, 1);
  assertIncludes(c.note!, 'chose link "Search tips" over heading "Search docs"');
  const first = chooseTextMatch("text=Search", [button, heading, link]);
  assertEquals(first.index, 0);
  assertIncludes(first.note!, "the first in page order, and actionable");
  assertIncludes(first.note!, 'also matched: heading "Search docs", link "Search tips"');
});

Deno.test("text choice: no actionable match takes the first and says none is", () => {
  const c = chooseTextMatch("text=Go", [text("Go on"), text("Go home")]);
  assertEquals(c.index, 0);
  assertIncludes(c.note!, 'chose text "Go on" (the first in page order; none is actionable)');
});

Deno.test("text choice: long lists are cut, unnamed matches show their role", () => {
  const many = [1, 2, 3, 4, 5].map((i) => text(`Item ${i}`));
  const c = chooseTextMatch("text=Item", [...many, { role: "button", name: "", actionable: true }]);
  assertEquals(c.index, 5);
  assertIncludes(c.note!, "chose button over");
  assertIncludes(c.note!, 'text "Item 3" and 2 more');
  assertTrue(!c.note!.includes("Item 4"));
  assertEquals(
    describeCandidate({ role: "link", name: 'say "hi"', actionable: true }),
    'link "say \\"hi\\""',
  );
});
