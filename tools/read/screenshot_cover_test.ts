import { assertEquals } from "../../tests/_assert.ts";
import { SecretStore } from "../../policy/secrets.ts";
import { coveredTextNodes } from "./screenshot_cover.ts";

Deno.test("coveredTextNodes: every node holding part of a value, split ones included", () => {
  const store = new SecretStore(new Map([["PW", "hunter22"], ["T", "tok_abc"]]));
  const table: Array<[string[], number[]]> = [
    [["Hello ", "world"], []],
    [["Your key: ", "hunter22", "!"], [1]],
    [["x hun", "", "ter", "22 y", "z"], [0, 2, 3]],
    [["hunter22tok_abc"], [0]],
    [["a", "tok_abc", "b", "hunter22"], [1, 3]],
    [["hunter%32%32"], [0]],
    [["[secret:PW]"], []],
  ];
  for (const [texts, want] of table) {
    assertEquals(coveredTextNodes(texts, store), want, texts.join("|"));
  }
});
