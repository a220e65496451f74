import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import { compileAgentPattern, compileUrlGlob, MAX_PATTERN_LENGTH } from "./agent_pattern.ts";
import { ToolError } from "./errors.ts";

Deno.test("compileAgentPattern: RE2 semantics, case-insensitive by default", () => {
  const m = compileAgentPattern("err(or)?\\s+\\d{3}");
  assertTrue(m.test("An ERROR 404 here"));
  assertTrue(!m.test("error four"));
  assertTrue(!compileAgentPattern("Abc", { caseInsensitive: false }).test("abc"));
  assertTrue(compileAgentPattern("^a.c$").test("abc"));
  assertTrue(compileAgentPattern("(?P<x>b)").test("b"));
});

Deno.test("compileAgentPattern: catastrophic patterns stay linear", () => {
  // On V8's backtracking engine each of these runs for minutes or more.
  const text = "a".repeat(50_000) + "!";
  for (const p of ["(a+)+$", "(a|a)+b", "(a|aa)+$", "^(a*)*b"]) {
    assertEquals(compileAgentPattern(p).test(text), false, p);
  }
});

Deno.test("compileAgentPattern: unsupported syntax is a clear invalid-argument", () => {
  const table: Array<[string, string]> = [
    ["(a)\\1", "backreferences"],
    ["a(?=b)", "lookahead and lookbehind"],
    ["(?<!x)a", "lookahead and lookbehind"],
    ["(unclosed", "RE2 syntax"],
    ["(x{1000}){1000}", "repeat counts"],
  ];
  for (const [pattern, hint] of table) {
    const e = assertThrows(() => compileAgentPattern(pattern), ToolError);
    assertEquals(e.code, "invalid-argument");
    assertIncludes(e.message, `Invalid pattern "${pattern}"`);
    assertIncludes(e.hint, hint, pattern);
  }
  const long = assertThrows(
    () => compileAgentPattern("a".repeat(MAX_PATTERN_LENGTH + 1)),
    ToolError,
  );
  assertIncludes(long.message, `at most ${MAX_PATTERN_LENGTH}`);
});

Deno.test("compileUrlGlob: ** any, * no slash, ? one; the rest literal; linear", () => {
  const table: Array<[string, string, boolean]> = [
    ["**/checkout*", "https://shop.example/cart/checkout?step=2", true],
    ["**/checkout*", "https://shop.example/checkout/done", false],
    ["https://a.example/?", "https://a.example/x", true],
    ["https://a.example/?", "https://a.example/xy", false],
    ["https://a.example/(x)+[y].html", "https://a.example/(x)+[y].html", true],
    ["https://a.example/(x)+[y].html", "https://a.example/xx[y].html", false],
    ["**", "data:text/html,\nline", true],
  ];
  for (const [glob, url, want] of table) assertEquals(compileUrlGlob(glob).test(url), want, glob);
  const evil = compileUrlGlob("**a**a**a**a**a**a**a**a**a**a**a**a**b");
  assertEquals(evil.test("https://x.example/" + "a".repeat(20_000)), false);
});
