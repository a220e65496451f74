import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { typedOutcome } from "./typed_where.ts";
import type { TypeLanded } from "../injected/page_types.ts";

const landed = (over: Partial<TypeLanded>): TypeLanded => ({
  into: 5,
  field: 'textbox input#a "A"',
  left: false,
  now: 'textbox input#a "A"',
  elsewhere: [],
  elsewhereChars: 0,
  ...over,
});

Deno.test("typedOutcome: the focus stayed, or nothing watched: nothing", () => {
  assertEquals(typedOutcome("hello", landed({})), undefined);
  assertEquals(typedOutcome("hello", null), undefined);
  assertEquals(typedOutcome("hello", undefined), undefined);
  // All went in before the focus left (Enter committed an edit): nothing to say.
  assertEquals(typedOutcome("hello\n", landed({ left: true, now: "nothing" })), undefined);
});

Deno.test("typedOutcome: characters that reached no field fail, with how many went in", () => {
  const r = typedOutcome("hello", landed({ into: 2, left: true, now: "nothing (the page body)" }));
  const e = r && "error" in r ? r.error : undefined;
  assertEquals(e?.code, "not-actionable");
  assertIncludes(String(e?.message), 'Typed 2 of 5 characters into textbox input#a "A"');
  assertIncludes(String(e?.message), "3 characters reached no field");
  assertEquals(e?.details, { typed: 2, focusMovedTo: "nothing (the page body)" });
});

Deno.test("typedOutcome: the rest went to other fields: a warning, unless a Tab moved it", () => {
  const moved = landed({
    into: 1,
    left: true,
    now: "textbox input#c",
    elsewhere: [{ what: "textbox input#b", chars: 1 }, { what: "textbox input#c", chars: 1 }],
    elsewhereChars: 2,
  });
  const r = typedOutcome("123", moved);
  assertEquals(r, {
    warning: 'the page moved the focus while typing: 1 character went to textbox input#a "A", ' +
      "then 1 character to textbox input#b, 1 character to textbox input#c; the focus is now " +
      "on textbox input#c",
  });
  assertEquals(typedOutcome("1\t23", moved), undefined);
});
