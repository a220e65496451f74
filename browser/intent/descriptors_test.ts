import { assertEquals } from "../../tests/_assert.ts";
import { RefRegistry } from "../snapshot/refs.ts";
import { SessionSlots } from "../sessions/session_slots.ts";
import {
  type ActionDescriptor,
  clampTtl,
  descriptorsOf,
  TTL_BOUNDS,
  verbArgsProblem,
} from "./descriptors.ts";

const target = { targetId: "T", frameId: "F", loaderId: "L", instance: "i", localId: 1 };

function planned(refs: RefRegistry, now: number): ActionDescriptor {
  const ref = refs.refFor(target, "button", "Save");
  return {
    id: "d1",
    ref,
    verb: "click",
    args: {},
    evidence: {
      query: "save",
      selectorHint: null,
      selectorTier: null,
      stability: "high",
      role: "button",
      name: "Save",
      score: 0.9,
      actionable: true,
      warnings: [],
      alternatives: [],
    },
    expiresAt: now + 60_000,
  };
}

Deno.test("descriptors: run only as issued, in time, while the ref is the element planned on", () => {
  const refs = new RefRegistry();
  const store = descriptorsOf(new SessionSlots());
  const now = Date.now();
  const d = planned(refs, now);
  assertEquals(store.check(d, refs, now)?.reason, "ref-gone", "never issued here");
  store.issue(d);
  assertEquals(store.check(d, refs, now), undefined);
  assertEquals(store.check({ ...d, args: { clickCount: 2 } }, refs, now)?.reason, "invalid");
  assertEquals(store.check({ ...d, ref: "e99" }, refs, now)?.reason, "invalid");
  assertEquals(store.check(d, refs, d.expiresAt + 1)?.reason, "expired");
  refs.prune(() => true);
  assertEquals(store.check(d, refs, now)?.reason, "ref-gone", "the document went");
});

Deno.test("descriptors: verb arguments and TTL bounds", () => {
  assertEquals(verbArgsProblem("click", {}), undefined);
  assertEquals(verbArgsProblem("fill", { value: "x" }), undefined);
  assertEquals(verbArgsProblem("fill", {}), "fill needs value (a string)");
  assertEquals(verbArgsProblem("press", { key: "Enter" }), undefined);
  assertEquals(verbArgsProblem("select", { label: "A", index: 1 })?.includes("exactly one"), true);
  assertEquals(verbArgsProblem("hover", { value: "x" }), "hover takes no arguments; not value");
  assertEquals(clampTtl(undefined), 60_000);
  assertEquals(clampTtl(5), TTL_BOUNDS.min);
  assertEquals(clampTtl(1e12), TTL_BOUNDS.max);
});
