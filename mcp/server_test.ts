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
import { listedAnnotations, toolList } from "./server.ts";

Deno.test("toolList: every tool lists its title, all four hints and an output schema", () => {
  const list = toolList(listConfig("all"));
  assertEquals(list.length, ALL_TOOLS.length);
  const hints = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];
  for (const t of list) {
    assertTrue(typeof t.title === "string" && t.title.length > 0, `${t.name}: title`);
    const a = t.annotations as Record<string, unknown>;
    assertEquals(Object.keys(a).sort(), [...hints].sort(), `${t.name}: hints`);
    assertTrue(hints.every((h) => typeof a[h] === "boolean"), `${t.name}: boolean hints`);
    // A tool that only reads destroys nothing.
    if (a.readOnlyHint) assertEquals(a.destructiveHint, false, `${t.name}: read-only`);
    const out = t.outputSchema as Record<string, unknown>;
    assertEquals(out.type, "object", `${t.name}: outputSchema is an object schema`);
  }
  const byName = new Map(list.map((t) => [t.name, t.annotations as Record<string, boolean>]));
  // Honest by family: page readers read the open web; server-side state is not open world;
  // acting on pages is open world and not read-only.
  for (const n of ["snapshot", "find", "read_page", "text_search", "wait_for"]) {
    assertEquals(byName.get(n)!.readOnlyHint, true, n);
    assertEquals(byName.get(n)!.openWorldHint, true, n);
  }
  for (
    const n of ["get_config", "list_sessions", "list_approvals", "list_named_refs", "auth_list"]
  ) {
    assertEquals(byName.get(n)!.readOnlyHint, true, n);
    assertEquals(byName.get(n)!.openWorldHint, false, n);
  }
  for (const n of ["navigate", "click", "fill", "press", "eval_js", "publish"]) {
    assertEquals(byName.get(n)!.readOnlyHint, false, n);
    assertEquals(byName.get(n)!.openWorldHint, true, n);
  }
  for (const n of ["click", "press", "eval_js", "publish", "cookies_clear", "close_session"]) {
    assertEquals(byName.get(n)!.destructiveHint, true, n);
  }
  for (const n of ["set_viewport", "cookies_set", "localstorage_delete", "close_session"]) {
    assertEquals(byName.get(n)!.idempotentHint, true, n);
  }
});

Deno.test("listedAnnotations: MCP's defaults fill what a tool leaves out", () => {
  assertEquals(listedAnnotations({}), {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  assertEquals(listedAnnotations({ readOnlyHint: true, openWorldHint: false }), {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
});

Deno.test("toolList: output schemas are lean and portable (anyOf, no type arrays)", () => {
  const list = toolList(listConfig("all"));
  const text = JSON.stringify(list.map((t) => [t.inputSchema, t.outputSchema]));
  assertTrue(!/"type":\[/.test(text), "a type array");
  assertTrue(!text.includes('"items":{}') && !text.includes('"additionalProperties":{}'), "{}");
  const tz = list.find((t) => t.name === "set_timezone")!.inputSchema as {
    properties: Record<string, unknown>;
  };
  assertEquals(tz.properties.timezoneId, {
    anyOf: [{ type: "string" }, { type: "null" }],
    description: "null: reset",
  });
  // A tool without arguments still lists `properties` (some hosts read parameters from it).
  const noArgs = list.find((t) => t.name === "list_sessions")!.inputSchema;
  assertEquals(noArgs, { type: "object", properties: {} });
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
