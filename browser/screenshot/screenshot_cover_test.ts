import { assertEquals } from "../../tests/_assert.ts";
import { SecretStore } from "../../policy/secrets.ts";
import { coveredControls, coveredTextNodes } from "./screenshot_cover.ts";

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
    // Zero-width and invisible characters between the letters still show the value.
    [["h\u200bu\u200bn\u200bt\u200be\u200br\u200b2\u200b2"], [0]],
    [["x ", "hun\u00adter", "\u2060", "22"], [1, 3]],
    [["hun\u200bter\u200b23"], []],
  ];
  for (const [texts, want] of table) {
    assertEquals(coveredTextNodes(texts, store), want, texts.join("|"));
  }
});

Deno.test("coveredControls: value, placeholder or an option's text", () => {
  const store = new SecretStore(new Map([["PW", "hunter22"]]));
  assertEquals(
    coveredControls([
      ["", "hunter22"],
      ["hunter22", ""],
      ["plain", "type here"],
      ["none", "hunter22"],
      ["h\u200bunter22", ""],
      "hunter22",
      ["none"],
    ], store),
    [0, 1, 3, 4, 5],
  );
});
