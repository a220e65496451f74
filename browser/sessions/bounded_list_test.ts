import { assertEquals } from "../../tests/_assert.ts";
import { BoundedList } from "./bounded_list.ts";

Deno.test("BoundedList keeps the first items and counts the rest", () => {
  const l = new BoundedList<number>(3);
  for (let i = 1; i <= 1000; i++) l.push(i);
  assertEquals(l.items, [1, 2, 3]);
  assertEquals([l.count, l.omitted], [1000, 997]);
  l.clear();
  assertEquals([l.items, l.count, l.omitted], [[], 0, 0]);
});

Deno.test("BoundedList keep: last holds the latest items", () => {
  const l = new BoundedList<string>(2, "last");
  for (const v of ["a", "b", "c", "d"]) l.push(v);
  assertEquals(l.items, ["c", "d"]);
  assertEquals(l.omitted, 2);
});

Deno.test("BoundedList dropWhere forgets stale items, and they stop counting", () => {
  const l = new BoundedList<number>(3);
  for (const v of [1, 2, 3, 4]) l.push(v);
  l.dropWhere((v) => v % 2 === 0);
  assertEquals(l.items, [1, 3]);
  // 4 was never held: still counted as left out.
  assertEquals([l.count, l.omitted], [3, 1]);
});

Deno.test("BoundedList holds at least one item", () => {
  const l = new BoundedList<number>(0);
  l.push(7);
  l.push(8);
  assertEquals(l.items, [7]);
});
