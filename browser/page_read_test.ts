import { assertEquals } from "../tests/_assert.ts";
import { pageChars, pageLines, treeLines } from "./page_read.ts";

Deno.test("treeLines: refs, inline links and headings; text and values left out", () => {
  const outline = [
    "# Shop",
    '- navigation "Main"',
    "  [Pricing](/pricing)[ref=e12] and [Docs][ref=e13]",
    "Some plain text without refs.",
    '- button "Save" [ref=e15]',
    '- checkbox "Remember me" [ref=e16] [checked]',
    '- textbox "Email" [ref=e17] [required]: ada@example.com',
    '- link "Help" [ref=e18] [current] /help',
    "- button [ref=e19] (#close)",
    '- iframe "Pay" [ref=e20] http://localhost:9',
    "  ## Card",
    '- combobox "Color" [ref=e21]: Green',
    '  - options: "Red", "Green"',
  ].join("\n");
  assertEquals(treeLines(outline).split("\n"), [
    "# Shop",
    'e12 link "Pricing" -> /pricing',
    'e13 link "Docs"',
    'e15 button "Save"',
    'e16 checkbox "Remember me" [checked]',
    'e17 textbox "Email" [required]',
    'e18 link "Help" [current] -> /help',
    "e19 button (#close)",
    'e20 iframe "Pay" http://localhost:9',
    "## Card",
    'e21 combobox "Color"',
  ]);
});

Deno.test("pageLines: whole lines, continued from next_offset; pageChars: chars", () => {
  const text = "aaaa\nbbbb\ncccc";
  const first = pageLines(text, 0, 9);
  assertEquals(first, { content: "aaaa", total_chars: 14, truncated: true, next_offset: 5 });
  const second = pageLines(text, first.next_offset!, 10);
  assertEquals(second, { content: "bbbb\ncccc", total_chars: 14, truncated: false });
  // An offset inside a line starts at the next line; a line longer than the page comes whole.
  assertEquals(pageLines(text, 2, 3).content, "bbbb");
  assertEquals(pageChars("abcdef", 2, 3), {
    content: "cde",
    total_chars: 6,
    truncated: true,
    next_offset: 5,
  });
  assertEquals(pageChars("ab\u{1F600}", 0, 3).content, "ab", "never half a surrogate pair");
});
