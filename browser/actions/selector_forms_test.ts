import { assertEquals, assertIncludes, assertThrows } from "../../tests/_assert.ts";
import { playwrightForm, refusePlaywrightSelector } from "./selector_forms.ts";
import { ToolError } from "../tool_error.ts";

Deno.test("playwrightForm: Playwright's forms by name, CSS and text= as they are", () => {
  const cases: Array<[string, string | undefined]> = [
    ["text=Buy milk >> .destroy", '">>" chaining'],
    ["button >> nth=1", '">>" chaining and "nth="'],
    ['role=button[name="Delete all"]', 'the "role=" engine'],
    ["xpath=//button", 'the "xpath=" engine'],
    ["css=button", 'the "css=" engine'],
    ["internal:role=button", 'the "internal:role=" engine'],
    ['button:has-text("Delete all")', '":has-text()"'],
    ["li:visible", '":visible"'],
    ['button:text-is("OK")', '":text-is()"'],
    ["//button[1]", "XPath"],
    ["(//button)[2]", "XPath"],
    // Ours.
    ["text=Buy milk", undefined],
    ['text="Delete all"', undefined],
    ["text=Next >>", undefined],
    ['text="a >> b"', undefined],
    ["text=Mode:visible", undefined],
    ["#todo-list li:nth-of-type(2) .destroy", undefined],
    ["li:has(label) > button.destroy", undefined],
    ['a[title="x >> y"]', undefined],
    ['[data-label=":visible"]', undefined],
    ["input:not([type=hidden])", undefined],
    ["div >>> span", undefined],
  ];
  for (const [selector, form] of cases) assertEquals(playwrightForm(selector), form, selector);
});

Deno.test("refusePlaywrightSelector: invalid-argument naming the form and what to pass", () => {
  const e = assertThrows(() => refusePlaywrightSelector("button >> nth=1"), ToolError);
  assertEquals(e.code, "invalid-argument");
  assertIncludes(e.message, "Playwright syntax");
  assertIncludes(e.message, '">>" chaining and "nth="');
  for (const way of ["ref from snapshot", "CSS", "text=", "find("]) assertIncludes(e.hint, way);
  refusePlaywrightSelector("button.primary");
});
