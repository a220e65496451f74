import { assertEquals } from "../../tests/_assert.ts";
import { isEmptyQuery, parseQuery } from "./query.ts";

Deno.test("find query: role words, context, ordinals, quotes", () => {
  const q = parseQuery("the Save button in the editor toolbar");
  assertEquals([q.words, q.roles, q.context, q.near], [["save"], ["button"], [
    "editor",
    "toolbar",
  ], []]);
  const d = parseQuery("second Delete in the Orders table");
  assertEquals([d.words, d.context, d.ordinal], [["delete"], ["orders", "table"], 2]);
  assertEquals(parseQuery("email field").roles, ["textbox", "searchbox", "combobox", "spinbutton"]);
  assertEquals(parseQuery("Delete button for Bob").near, ["bob"]);
  assertEquals(parseQuery("the checkbox next to Walk the dog").near, ["walk", "dog"]);
  assertEquals(parseQuery("last View link").ordinal, -1);
  assertEquals(parseQuery("second to last row").ordinal, -2);
  assertEquals(parseQuery('the "Save as…" item').exact, "Save as…");
  // A row or list item is asked for by its role, wherever the word stands.
  for (const query of ["Item 2718 row", "row Item 2718", "the Item 2718 table row"]) {
    const r = parseQuery(query);
    assertEquals([r.words, r.roles], [["item", "2718"], ["row"]], query);
  }
  assertEquals(parseQuery("Walk dog list item").roles, ["listitem"]);
});

Deno.test("find query: names that look like grammar stay names", () => {
  // An ordinal before "name" or "page" is part of a name.
  assertEquals(parseQuery("First name field").words, ["first", "name"]);
  assertEquals(parseQuery("Last page").ordinal, undefined);
  // "Sign in" is a name, not "Sign" in something.
  assertEquals(parseQuery("Sign in button").words, ["sign", "in"]);
  // "Edit on GitHub" keeps its whole reading for the ranker.
  assertEquals(parseQuery("Edit on GitHub").whole, ["edit", "on", "github"]);
  // Dots stay inside words.
  assertEquals(parseQuery("fs.watch heading").words, ["fs.watch"]);
});

Deno.test("find query: only filler words is empty; an explicit role is the only one", () => {
  assertEquals(isEmptyQuery(parseQuery("the")), true);
  assertEquals(isEmptyQuery(parseQuery("   ")), true);
  assertEquals(parseQuery("Save button", "link").roles, ["link"]);
});
