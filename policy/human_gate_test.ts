import { assertEquals, assertIncludes, assertTrue } from "../tests/_assert.ts";
import { CAPABILITIES, type Capability } from "./capabilities.ts";
import { decideHumanGate } from "./human_gate.ts";

const ALL = new Set<Capability>(CAPABILITIES);
const none = { console: false, devtools: false };

Deno.test("decideHumanGate: all without a channel leaves human out, and says why", () => {
  const d = decideHumanGate(ALL, { wroteAll: true, channels: none });
  assertEquals(d.capabilities.has("human"), false);
  assertEquals(d.capabilities.size, CAPABILITIES.length - 1);
  assertEquals(d.gate.on, false);
  assertIncludes(d.gate.why, "nobody could approve");
  assertEquals(d.gate.warning, undefined);
});

Deno.test("decideHumanGate: all with a channel keeps human", () => {
  for (const channels of [{ console: true, devtools: false }, { console: false, devtools: true }]) {
    const d = decideHumanGate(ALL, { wroteAll: true, channels });
    assertTrue(d.capabilities.has("human"));
    assertEquals(d.gate.on, true);
    assertEquals(d.gate.warning, undefined);
  }
});

Deno.test("decideHumanGate: an explicit human without a channel stays on, with a warning", () => {
  const caps = new Set<Capability>(["read", "navigation", "human"]);
  const d = decideHumanGate(caps, { wroteAll: false, channels: none });
  assertEquals(d.capabilities, caps);
  assertEquals(d.gate.on, true);
  assertIncludes(d.gate.warning!, "every navigation to a new site");
  assertIncludes(d.gate.warning!, "elicitation");
});

Deno.test("decideHumanGate: without human the gate is off and nothing changes", () => {
  const caps = new Set<Capability>(["read"]);
  const d = decideHumanGate(caps, { wroteAll: false, channels: none });
  assertEquals(d.capabilities, caps);
  assertEquals(d.gate.on, false);
});
