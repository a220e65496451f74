import { assertEquals } from "../../tests/_assert.ts";
import { renewedNote } from "./delta_render.ts";

const renewed = (from: string[], to: string[]) => ({
  place: "",
  removed: 0,
  added: 0,
  from,
  to,
  linesA: [],
  linesB: [],
});

Deno.test("renewedNote: one ref is gone and re-created as it; several are, as them", () => {
  assertEquals(
    renewedNote([renewed(["e6"], ["e10"])]),
    "~ e6 is gone: the page re-created it as e10 (same content)",
  );
  assertEquals(
    renewedNote([renewed(["e6"], ["e10"]), renewed(["e7"], ["e11"])]),
    "~ e6, e7 are gone: the page re-created them as e10, e11 (same content)",
  );
});
