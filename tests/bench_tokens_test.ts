/** The bench's token counter: o200k counts (offline: the ranks ship in js-tiktoken), chars/4. */
import { assertEquals, assertTrue } from "./_assert.ts";
import { charsOver4, countTokens, tokenFigures, toolsListTokens } from "../bench/tokens.ts";

Deno.test("bench tokens: o200k counts of known strings", () => {
  assertEquals(countTokens(""), 0);
  assertEquals(countTokens("hello world"), 2);
  // Special-token text in a page is plain text, not an error.
  assertTrue(countTokens("<|endoftext|>") > 1);
  const long = "The quick brown fox jumps over the lazy dog. ".repeat(400);
  const n = countTokens(long);
  assertTrue(n >= 3600 && n <= 4100, `got ${n}`);
  assertEquals(countTokens(long), n); // memoized, same answer
});

Deno.test("bench tokens: chars/4 and figures", () => {
  assertEquals(charsOver4(""), 0);
  assertEquals(charsOver4("abcde"), 2);
  assertEquals(tokenFigures("hello world"), { o200k: 2, chars: 11, charsOver4: 3 });
  const t = toolsListTokens([{ name: "a", description: "b" }]);
  assertEquals(t.chars, JSON.stringify([{ name: "a", description: "b" }]).length);
  assertTrue(t.o200k > 0);
  // A model is given name, description and input schema; the whole JSON also counts the rest.
  const full = [{ name: "a", title: "A tool", description: "b", inputSchema: { type: "object" } }];
  const f = toolsListTokens([{ ...full[0], outputSchema: { type: "object" } }]);
  assertEquals(
    f.chars,
    JSON.stringify([{ name: "a", description: "b", inputSchema: { type: "object" } }]).length,
  );
  assertTrue(f.wireO200k > f.o200k, `${f.wireO200k} > ${f.o200k}`);
});
