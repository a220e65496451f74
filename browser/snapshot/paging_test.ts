import { assertEquals, assertIncludes, assertTrue } from "../../tests/_assert.ts";
import { estimateTokens, pageText } from "./paging.ts";

const TREE = [
  '- heading "Title" [level=1]',
  "- navigation",
  "  [Home](/)[ref=e1]",
  "  [Docs](/docs)[ref=e2]",
  "- main",
  "  - listitem: first",
  '    - button "Delete first" [ref=e3]',
  "  - listitem: second",
  '    - button "Delete second" [ref=e4]',
  "  Closing paragraph with some words in it.",
].join("\n");

Deno.test("estimateTokens is chars/4 rounded up", () => {
  assertEquals(estimateTokens(""), 0);
  assertEquals(estimateTokens("abcd"), 1);
  assertEquals(estimateTokens("abcde"), 2);
});

Deno.test("pageText: a text that fits comes back as is", () => {
  const p = pageText(TREE, { maxTokens: 10_000 });
  assertEquals(p.text, TREE);
  assertEquals(p.truncated, false);
  assertEquals(p.nextOffset, undefined);
  assertEquals(p.totalLines, 10);
  assertEquals(p.totalTokens, estimateTokens(TREE));
  assertEquals(pageText(TREE).text, TREE);
});

Deno.test("pageText: pages cut between lines, say so, and continue where they stopped", () => {
  const lines = TREE.split("\n");
  const seen: string[] = [];
  let offset = 0;
  for (let guard = 0; guard < 20; guard++) {
    const p = pageText(TREE, { maxTokens: 60, offset });
    const body = p.text.split("\n").filter((l) => !l.startsWith("… "));
    // Every line shown is a whole line of the tree (refs never split).
    for (const l of body) assertTrue(lines.includes(l), `not a whole line: ${l}`);
    if (offset > 0) assertIncludes(p.text, `… from line ${offset} of 10`);
    seen.push(...lines.slice(offset, p.nextOffset ?? lines.length));
    if (!p.truncated) break;
    assertIncludes(p.text, `continue with offset=${p.nextOffset}`);
    assertTrue(p.nextOffset! > offset);
    offset = p.nextOffset!;
  }
  assertEquals(seen, lines);
});

Deno.test("pageText: a later page repeats the first line's ancestors for context", () => {
  const p = pageText(TREE, { offset: 6, maxTokens: 10_000 });
  assertEquals(p.text.split("\n").slice(0, 4), [
    "… from line 6 of 10",
    "- main",
    "  - listitem: first",
    '    - button "Delete first" [ref=e3]',
  ]);
  assertEquals(p.truncated, false);
});

Deno.test("pageText: at least one line per page; offsets past the end are said", () => {
  const long = "x".repeat(1000) + "\nshort";
  const p = pageText(long, { maxTokens: 40 });
  assertEquals(p.text.split("\n")[0], "x".repeat(1000));
  assertEquals(p.truncated, true);
  assertEquals(p.nextOffset, 1);
  const past = pageText(TREE, { offset: 99, maxTokens: 100 });
  assertIncludes(past.text, "past the end");
  assertEquals(past.truncated, false);
  assertEquals(pageText("", { maxTokens: 10 }).text, "");
});

Deno.test("pageText: a page that starts among a table's rows repeats the table's head", () => {
  const rows = Array.from(
    { length: 40 },
    (_, i) => `  | Item ${i} | button "Buy ${i}" [ref=e${i + 1}]`,
  );
  const text = ["# Shop", "- table", "  | Item | Action", "  |---|---|", ...rows].join("\n");
  const second = pageText(text, { offset: 20, maxTokens: 100 });
  assertEquals(
    second.text.split("\n").slice(0, 5),
    ["… from line 20 of 44", "- table", "  | Item | Action", "  |---|---|", rows[16]!],
  );
  // The head on the page already: not twice.
  assertEquals(pageText(text, { offset: 4, maxTokens: 100 }).text.split("\n")[2], rows[0]!);
});
