import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import {
  compileAgentPattern,
  compileUrlGlob,
  filterWithinBudget,
  MAX_PATTERN_LENGTH,
  MAX_PROGRAM_SIZE,
  WORK_BUDGET,
} from "./agent_pattern.ts";
import { estimateProgramSize } from "./pattern_size.ts";
import { ToolError } from "./tool_error.ts";

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

Deno.test("compileAgentPattern: programs that counted repetitions blow up are refused", () => {
  // The red team's: 1,804 characters, 360,000 instructions, 11 s over 2,000 characters.
  const alt = "(?:" + Array.from({ length: 180 }, () => "x{0,1000}").join("|") + ")y";
  for (const p of [alt, ".{1000}".repeat(10) + "b", "[^b]{1000}".repeat(6) + "b"]) {
    const e = assertThrows(() => compileAgentPattern(p), ToolError);
    assertEquals(e.code, "invalid-argument");
    assertIncludes(e.message, `at most ${MAX_PROGRAM_SIZE} are accepted`);
    assertIncludes(e.hint, "use * or + instead of large counts");
  }
  // Ordinary counts still compile, and their size is RE2's own.
  assertTrue(compileAgentPattern("\\d{3}-\\d{4}").test("call 555-1234"));
  assertTrue(compileAgentPattern("x{0,1000}y").programSize <= MAX_PROGRAM_SIZE);
});

Deno.test("estimateProgramSize: close to RE2's programSize, never far below it", () => {
  for (
    const p of [
      "error",
      "err(or)?\\s+\\d{3}",
      "(x{10}){100}",
      "((a{10}){10}){10}",
      "x{0,1000}y",
      "[{]{2}",
      "\\Q{1000}\\E",
      "[[:alpha:]]{20}",
      "\\p{Greek}{50}",
    ]
  ) {
    const real = compileAgentPattern(p).programSize;
    const est = estimateProgramSize(p);
    assertTrue(est >= real - 2 && est <= real * 3 + 10, `${p}: estimate ${est}, RE2 ${real}`);
  }
});

Deno.test("filterWithinBudget: ordinary scans are complete; costly ones stop and say so", () => {
  const items = Array.from({ length: 1000 }, (_, i) => `entry ${i} ${"a".repeat(100)}`);
  const plain = filterWithinBudget(items, (s) => s, compileAgentPattern("entry 9\\d\\d "), 1000);
  assertEquals(plain.matched.length, 100);
  assertEquals(plain.matched[0], items[900]);
  assertEquals(plain.truncatedScan, false);
  const limited = filterWithinBudget(items, (s) => s, compileAgentPattern("entry"), 5);
  assertEquals(limited.matched, items.slice(-5), "newest kept, in order");
  // 2,000 instructions: 1,000 characters per call at most.
  const costly = compileAgentPattern("a{0,1000}b");
  const long = ["x".repeat(5000) + "b"];
  const r = filterWithinBudget(long, (s) => s, costly, 100);
  assertEquals(r.truncatedScan, true);
  const many = filterWithinBudget(items, (s) => s, costly, 100);
  assertEquals(many.truncatedScan, true);
  assertTrue(many.matched.length === 0);
  assertTrue(costly.programSize * 1000 >= WORK_BUDGET / 2);
});
