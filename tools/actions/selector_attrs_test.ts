import { assertEquals } from "../../tests/_assert.ts";
import { valueTestedAttributes } from "./selector_attrs.ts";

Deno.test("valueTestedAttributes: names compared by value, escapes and wrappers seen through", () => {
  const table: Array<[string, string[]]> = [
    ['#k[data-v^="Zq7"]', ["data-v"]],
    ["input[value^=Zq7]", ["value"]],
    ["[a][b=c]", ["b"]],
    ['[x="a]b=c"][y~=z]', ["x", "y"]],
    ["[DATA-V$='x']", ["data-v"]],
    ["[data-\\76 *=x]", ["data-v"]],
    ["[data\\-v|=x]", ["data-v"]],
    ["[*|value=x]", ["value"]],
    ["[svg|href=x]", ["href"]],
    [":not([value^=Zq])", ["value"]],
    ["div:has(> [title*=x]) + span", ["title"]],
    ["#plain .a > b", []],
    ["[ value = x i]", ["value"]],
  ];
  for (const [selector, want] of table) {
    assertEquals(valueTestedAttributes(selector), want, selector);
  }
});
