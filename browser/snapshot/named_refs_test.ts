import { assertEquals, assertIncludes, assertThrows, assertTrue } from "../../tests/_assert.ts";
import { ToolError } from "../tool_error.ts";
import { NamedRefs } from "./named_refs.ts";
import type { RefEntry } from "./ref_types.ts";
import type { RefRegistry } from "./refs.ts";

/** A registry that knows `e1` (a button with a long label) and `e2`. */
function fakeRefs(): RefRegistry {
  const entries: Record<string, Partial<RefEntry>> = {
    e1: { ref: "e1", role: "button", name: `Save ${"x".repeat(500)}`, shown: true },
    e2: { ref: "e2", role: "link", name: "Home", shown: true },
    // Issued by a capture whose result never showed it (a delta that left its line out).
    e3: { ref: "e3", role: "button", name: "Delete all" },
  };
  return {
    get: (ref: string) => entries[ref] as RefEntry | undefined,
    wasIssued: (ref: string) => ref in entries,
  } as unknown as RefRegistry;
}

Deno.test("named refs: a name shaped like a ref is refused (ref e2 and named e2 would differ)", () => {
  const named = new NamedRefs(fakeRefs());
  for (const name of ["e2", "E12", "p3"]) {
    const e = assertThrows(() => named.set(name, "e1"), ToolError);
    assertEquals(e.code, "invalid-argument");
    assertIncludes(e.message, "reads as a ref");
  }
  assertEquals(named.size, 0);
  // Names that only start like one are fine.
  const saved = named.set("e2e_button", "e1");
  assertEquals([saved.ref, saved.role, saved.label.length], ["e1", "button", 80]);
  assertEquals(named.set("p", "e2"), { ref: "e2", role: "link", label: "Home" });
});

Deno.test("named refs: a huge name is not echoed back whole; labels in the list are cut", () => {
  const named = new NamedRefs(fakeRefs());
  const huge = "n".repeat(100_000);
  const bad = assertThrows(() => named.set(`1${huge}`, "e1"), ToolError);
  assertTrue(bad.message.length < 300, `${bad.message.length} chars`);
  const missing = assertThrows(() => named.resolve(huge), ToolError);
  assertTrue(missing.message.length < 300, `${missing.message.length} chars`);
  named.set("save", "e1");
  const [entry] = named.list();
  assertTrue(entry!.label.length <= 80, `${entry!.label.length} chars`);
  assertTrue(entry!.label.startsWith("Save x"));
});

Deno.test("named refs: a ref never shown to the agent cannot be named (it could only be guessed)", () => {
  const named = new NamedRefs(fakeRefs());
  const e = assertThrows(() => named.set("danger", "e3"), ToolError);
  assertEquals(e.code, "ref-gone");
  assertIncludes(e.message, "was never shown to you");
  assertEquals(named.size, 0);
});
