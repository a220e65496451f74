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

Deno.test("valueTestedAttributes: comments are seen through; what cannot be read is undefined", () => {
  const table: Array<[string, string[] | undefined]> = [
    // The red team's comment oracles: the name is found whatever the comment's place.
    ['[value/**/^="Zq7"]', ["value"]],
    ["[value/*x*/^=Zq7]", ["value"]],
    ["[/**/value^=Zq7]", ["value"]],
    ["[value^/**/=Zq7]", undefined],
    ["[va/**/lue=x]", undefined],
    ['[a="b"i]', ["a"]],
    ["[value^=Zq7 s]", ["value"]],
    ["/* [value=x] */ #k", []],
    ['[x="/*"][y=z]', ["x", "y"]],
    // Not read with confidence: unclosed comment or string, unpaired or nested brackets.
    ["[value=x]/*", undefined],
    ['[a="x]', undefined],
    ["[a=x", undefined],
    ["a]", undefined],
    ["[a=[b]]", undefined],
    ["[a=b c]", undefined],
    // :lang() compares the lang attribute.
    [":lang(Zq7)", ["lang"]],
    [":l\\61ng(x)", ["lang"]],
    [":not(:lang(x)) [b=c]", ["lang", "b"]],
  ];
  for (const [selector, want] of table) {
    assertEquals(valueTestedAttributes(selector), want, selector);
  }
});
