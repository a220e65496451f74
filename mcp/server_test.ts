import { assertEquals, assertTrue } from "../tests/_assert.ts";
import { listConfig } from "../tests/_util.ts";
import {
  refField,
  selectorField,
  sessionField,
  snapshotField,
  timeoutField,
} from "../tools/fields.ts";
import { ALL_TOOLS } from "../tools/mod.ts";
import { toolList } from "./server.ts";

Deno.test("toolList: no titles; annotations only where they differ from MCP's defaults", () => {
  const list = toolList(listConfig("all"));
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

Deno.test("toolList: recurring fields are the shared ones, described once", () => {
  // The tools whose field of that name means something else, and says so.
  const own: Record<string, unknown> = {
    session: sessionField,
    timeoutMs: timeoutField,
    snapshot: snapshotField,
    ref: refField,
    selector: selectorField,
  };
  const exceptions = new Set([
    "open_session.session", // its own name rules and default
    "close_session.session", // required
    "snapshot.ref", // a subtree, not a target
    "publish.selector", // the publish control's option, required
    "name_ref.ref", // required: the ref to name
    "find_feedback.ref", // required: the element the verdict is about
    "highlight.ref", // required: the element to outline
  ]);
  for (const tool of ALL_TOOLS) {
    const shape = tool.inputSchema.shape as Record<string, unknown>;
    for (const [field, shared] of Object.entries(own)) {
      if (!(field in shape) || exceptions.has(`${tool.name}.${field}`)) continue;
      assertTrue(shape[field] === shared, `${tool.name}.${field} is not the shared field`);
    }
  }
});

Deno.test("toolList: no JSON Schema noise; an enum keeps its type", () => {
  const list = toolList(listConfig("all"));
  const text = JSON.stringify(list);
  for (const noise of ['"additionalProperties":false', '"$schema"', '"propertyNames"']) {
    assertTrue(!text.includes(noise), noise);
  }
  assertTrue(!text.includes(String(Number.MAX_SAFE_INTEGER)), "safe-integer bounds");
  const click = list.find((t) => t.name === "click")!.inputSchema as {
    type: string;
    properties: Record<string, Record<string, unknown>>;
  };
  assertEquals(click.type, "object");
  // An enum keeps its type (Gemini rejects a property without one).
  assertEquals(click.properties.snapshot, {
    description: snapshotField.description,
    type: "string",
    enum: ["delta", "full", "none"],
  });
  // A description that restates its property's name is dropped; a meaningful one stays.
  const cookie = list.find((t) => t.name === "cookies_set")!.inputSchema as {
    properties: Record<string, Record<string, unknown>>;
  };
  assertEquals(cookie.properties.secure, { type: "boolean" });
  assertEquals(cookie.properties.session, { type: "string" });
  assertEquals(cookie.properties.name!.description, "Cookie name");
});
