import { assertEquals } from "../../tests/_assert.ts";
import { RingBuffer } from "./ring_buffer.ts";

Deno.test("RingBuffer keeps the newest entries and counts drops", () => {
  const b = new RingBuffer<{ seq: number; v: string }>(3);
  for (const v of ["a", "b", "c", "d", "e"]) b.push({ v });
  assertEquals(b.lastSeq, 5);
  assertEquals(b.dropped, 2);
  assertEquals(b.since(0).map((e) => e.v), ["c", "d", "e"]);
  assertEquals(b.since(4).map((e) => e.seq), [5]);
  assertEquals(b.since(5), []);
});

Deno.test("RingBuffer keeps its total size under maxSize, evicting the oldest (the newest stays)", () => {
  const b = new RingBuffer<{ seq: number; v: string }>(100, {
    maxSize: 10,
    sizeOf: (e) => e.v.length,
  });
  for (const v of ["aaaa", "bbbb", "cccc"]) b.push({ v });
  assertEquals(b.since(0).map((e) => e.v), ["bbbb", "cccc"]);
  assertEquals(b.totalSize, 8);
  b.push({ v: "x".repeat(50) });
  assertEquals(b.since(0).map((e) => e.v.length), [50]);
  assertEquals(b.dropped, 3);
});
