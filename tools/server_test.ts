import { assertEquals, assertTrue } from "../tests/_assert.ts";
import { toolList } from "./server.ts";

Deno.test("toolList: no titles; annotations only where they differ from MCP's defaults", () => {
  const config = {
    capabilities: new Set(),
    confirmRequired: new Set(),
    workspace: "/tmp",
    headful: false,
    version: "test",
    toolsets: "all",
  } as never;
  const list = toolList(config);
  assertTrue(list.length > 0 && list.every((t) => !("title" in t)));
  const byName = new Map(list.map((t) => [t.name, t]));
  // snapshot only reads: that is news; openWorldHint true would be the default.
  assertEquals(byName.get("snapshot")!.annotations, { readOnlyHint: true });
  for (const t of list) {
    const a = (t.annotations ?? {}) as Record<string, unknown>;
    assertTrue(a.openWorldHint !== true && a.destructiveHint !== true, String(t.name));
    assertTrue(a.readOnlyHint !== false && a.idempotentHint !== false, String(t.name));
  }
});
