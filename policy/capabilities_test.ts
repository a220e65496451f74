import { assertEquals, assertThrows } from "../tests/_assert.ts";
import { checkCapability, DEFAULT_CAPABILITIES, parseCapabilities } from "./capabilities.ts";

Deno.test("parseCapabilities() gives the defaults for empty input", () => {
  assertEquals([...parseCapabilities(undefined)], [...DEFAULT_CAPABILITIES]);
  assertEquals([...parseCapabilities(" ")], [...DEFAULT_CAPABILITIES]);
});

Deno.test("parseCapabilities() reads a comma list and 'all'", () => {
  assertEquals([...parseCapabilities("read, eval")], ["read", "eval"]);
  assertEquals(parseCapabilities("all").has("human-gate-override"), true);
});

Deno.test("parseCapabilities() names unknown entries", () => {
  const e = assertThrows(() => parseCapabilities("read,evil,tele"), RangeError);
  assertEquals(e.message.startsWith('Unknown capability "evil", "tele"'), true);
});

Deno.test("checkCapability() table", () => {
  const enabled = parseCapabilities("read,navigation");
  const cases: [string, boolean][] = [["read", true], ["navigation", true], ["action", false], [
    "eval",
    false,
  ]];
  for (const [cap, allowed] of cases) {
    const d = checkCapability(enabled, cap as never, "t");
    assertEquals(d.allowed, allowed, cap);
    if (!d.allowed) assertEquals(d.requiredCapability, cap);
  }
});
