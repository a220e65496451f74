import { assertEquals } from "../tests/_assert.ts";
import { SecretStore } from "../policy/secrets.ts";
import { guessRefusal } from "./secret_guess.ts";

const PW = "Hunter2Secret";
const store = new SecretStore(new Map([["PW", PW], ["PIN", "7351"]]));
const refused = (text: string) =>
  guessRefusal("set_editor", { html: true, text }, store, { callId: "c1" })?.code;

Deno.test("guess scan: markup the parser reads as the value is a guess (red team s17 round 2)", () => {
  // Each of these put the whole value on the page while a regex strip of tags missed it.
  for (
    const text of [
      "Hunt<!-- > -->er2Secret",
      "Hunt<!-->er2Secret",
      "Hunt&#101r2Secret",
      "Hunt&#x65r2Secret",
      "Hunt<script>x</script>er2Secret",
      "Hunt<style>x</style>er2Secret",
      "73<!-- > -->51",
    ]
  ) assertEquals(refused(text), "blocked-by-policy", text);
});

Deno.test("guess scan: other markup passes, and the store is not locked", () => {
  for (const text of ["<b>Hunter</b> <i>2</i>", "7 3 5 1", "Hunt<!-- er2Secret -->"]) {
    assertEquals(refused(text), undefined, text);
  }
  assertEquals(refused("Hunter2Secret"), "blocked-by-policy");
  assertEquals(refused("<p>hello</p>"), undefined);
});
