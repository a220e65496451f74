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
