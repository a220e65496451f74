import { assertEquals } from "../tests/_assert.ts";
import { SecretStore } from "../policy/secrets.ts";
import { resolvePageCuts } from "./page_cuts.ts";

Deno.test("resolvePageCuts: cuts where the page asked, before a secret's value that spans it", () => {
  const store = new SecretStore(new Map([["KEY", "Zq7-hunter-Wv3x"]]));
  const spans = (t: string) => store.spans(t);
  const page = {
    value: "\u00008\u0000ttttZq7-hunter-Wv3x",
    list: ["\u00003\u0000abcdef", "plain"],
  };
  assertEquals(resolvePageCuts(page, spans), { value: "tttt…", list: ["abc…", "plain"] });
  // A partial guess moves nothing; without spans the cut is where the page asked.
  assertEquals(resolvePageCuts("\u00008\u0000ttttZq7-hunt", spans), "ttttZq7-…");
  assertEquals(resolvePageCuts("\u00008\u0000ttttZq7-hunter-Wv3x"), "ttttZq7-…");
  // Short enough, or not a marker: kept.
  assertEquals(resolvePageCuts("\u000099\u0000short"), "short");
  assertEquals(resolvePageCuts("\u0000x\u0000keep"), "\u0000x\u0000keep");
});
