import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { eventually } from "../../tests/_util.ts";
import { collectGarbage, releaseMemorySoon } from "./heap_release.ts";

/** A big object only a WeakRef points at: garbage a quiet process keeps until a collection. */
async function garbage(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ data: new Uint8Array(8 * 1024 * 1024) });
  // A WeakRef's target is kept until the job that made it ends.
  await new Promise((r) => setTimeout(r, 0));
  return ref;
}

Deno.test("collectGarbage: this runtime has a collector, and it frees what nothing holds", async () => {
  const ref = await garbage();
  assertTrue(collectGarbage(), "no collector found (node:v8 setFlagsFromString / node:vm gc)");
  assertEquals(ref.deref(), undefined);
});

Deno.test("releaseMemorySoon: a burst of calls ends in a collection after the last", async () => {
  const ref = await garbage();
  releaseMemorySoon();
  releaseMemorySoon();
  await eventually(() => ref.deref() === undefined, 5000, "the object to be collected");
});
