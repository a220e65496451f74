import { assertEquals, assertIncludes } from "../../tests/_assert.ts";
import { reusedDuringAction } from "./resolve.ts";

const shown = {
  ref: "e7",
  role: "button",
  name: "Delete",
  context: ["list item", "Invoice for ACME… 1001 #1x2y3z"] as [string, string],
};

Deno.test("reusedDuringAction: says what the row was and is, its hash left out", () => {
  const e = reusedDuringAction(shown, {
    ...shown,
    context: ["list item", "Invoice for ACME… 1011 #9q8w7e"],
  });
  assertEquals(e.code, "ref-gone");
  assertIncludes(e.message, `("Invoice for ACME… 1011" instead of "Invoice for ACME… 1001")`);
  assertIncludes(e.message, "nothing was pressed");
});

Deno.test("reusedDuringAction: rows alike in what is shown say where they differ", () => {
  const alike = {
    ...shown,
    context: ["list item", "Invoice for ACME… #1x2y3z"] as [string, string],
  };
  const e = reusedDuringAction(alike, {
    ...alike,
    context: ["list item", "Invoice for ACME… #9q8w7e"],
  });
  assertIncludes(e.message, `(its text differs after "Invoice for ACME")`);
});
