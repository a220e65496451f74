import { assertEquals } from "../../tests/_assert.ts";
import { excerpt } from "./page_text_search.ts";

Deno.test("excerpt: context either side, cut at a near word boundary, … where cut", () => {
  const text = "alpha beta gamma delta epsilon zeta eta theta";
  const at = text.indexOf("delta");
  assertEquals(excerpt(text, at, at + 5, 10), "…beta gamma delta epsilon zeta…");
  assertEquals(excerpt(text, 0, 5, 8), "alpha beta gamma…");
  assertEquals(excerpt(text, at, at + 5, 0), "…delta…");
  assertEquals(excerpt(text, at, at + 5, 100), text);
  // A match longer than 200 chars is shown cut.
  const long = "x".repeat(300);
  const shown = excerpt(`a ${long} b`, 2, 302, 2);
  assertEquals(shown.length < 220, true, shown);
});
