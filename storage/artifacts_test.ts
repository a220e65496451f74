import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../tests/_assert.ts";
import { ARTIFACT_MAX_ENTRIES, ArtifactStore, checkArtifactName } from "./artifacts.ts";

Deno.test("checkArtifactName: a table of names", () => {
  for (const ok of ["a", "report-1.json", "A_b.c", "-x", "x".repeat(128)]) checkArtifactName(ok);
  for (
    const bad of [
      "",
      ".hidden",
      "../x",
      "a/b",
      "a\\b",
      "a..b",
      "..",
      "x".repeat(129),
      "sp ace",
      "é",
    ]
  ) {
    assertIncludes(assertThrows(() => checkArtifactName(bad), RangeError).message, "artifact name");
  }
});

Deno.test("ArtifactStore: save, get, list, overwrite, wipe; the entry cap evicts the oldest", async () => {
  const base = await Deno.makeTempDir();
  const store = new ArtifactStore(base, ".artifacts/i1/s");
  try {
    assertEquals(await store.list(), []);
    const bytes = new Uint8Array([0, 255, 1, 254]);
    const saved = await store.save("b.bin", bytes);
    assertEquals([saved.size, saved.evicted], [4, []]);
    assertEquals((await store.get("b.bin"))!.bytes, bytes);
    await store.save("a.txt", new TextEncoder().encode("one"));
    await store.save("a.txt", new TextEncoder().encode("two!"));
    assertEquals((await store.list()).map((a) => [a.name, a.size]), [["a.txt", 4], ["b.bin", 4]]);
    assertEquals(await store.get("missing"), undefined);
    for (let i = 0; i < ARTIFACT_MAX_ENTRIES; i++) {
      await store.save(`n${String(i).padStart(3, "0")}`, new Uint8Array([i & 255]));
    }
    const left = await store.list();
    assertEquals(left.length, ARTIFACT_MAX_ENTRIES);
    // The two oldest writes made room.
    assertTrue(!left.some((a) => a.name === "b.bin" || a.name === "a.txt"));
    await store.wipe();
    assertEquals(await store.list(), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
