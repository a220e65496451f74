/**
 * The MCP Inspector's `--strict` schema checks (`npx @modelcontextprotocol/inspector@2.12.0
 * --cli … --method tools/list --strict`) over browxai's whole tool list, every toolset and
 * capability on: 0 errors and 0 warnings on every input and output schema. The checks are our
 * own (tests/_schema_lint.ts), the same rules; the checker is tested on schemas that break each.
 */
import { assertEquals } from "./_assert.ts";
import { startStdio } from "./_mcp.ts";
import { lintSchema, lintToolList } from "./_schema_lint.ts";

Deno.test("schema lint: each rule catches what it names, and only that", () => {
  const rules = (schema: unknown) => lintSchema(schema).map((f) => `${f.path}:${f.rule}`);
  assertEquals(rules({ type: "object", properties: { a: { type: "string" } } }), []);
  // A bare boolean as a schema (not as additionalProperties).
  assertEquals(rules({ type: "object", properties: { a: true }, additionalProperties: true }), [
    "properties.a:boolean-schema",
  ]);
  assertEquals(lintSchema({ type: "array", items: false })[0]!.severity, "error");
  assertEquals(rules({ type: ["string", "null"] }), [":type-union"]);
  assertEquals(rules({ $ref: "https://example.com/s.json" }), [":remote-ref"]);
  assertEquals(rules({ $ref: "#/$defs/x", $defs: { x: { type: "string" } } }), []);
  // {} accepts anything: flagged where it is a value's schema, not under `not`.
  assertEquals(rules({ type: "object", properties: { a: {}, b: { description: "x" } } }), [
    "properties.a:untyped-schema",
    "properties.b:untyped-schema",
  ]);
  assertEquals(rules({ not: {} }), []);
  assertEquals(rules({ anyOf: [{ type: "string" }, {}] }), ["anyOf[1]:untyped-schema"]);
  assertEquals(rules({ type: "array", items: [{ type: "string" }, {}] }), [
    "items[1]:untyped-schema",
  ]);
  assertEquals(rules({ if: { type: "string" } }), [":untyped-schema"]);
  assertEquals(rules({ if: { type: "string" }, then: { minLength: 1 } }), []);
});

Deno.test("schema lint: every tool's input and output schema, all toolsets, is clean", async () => {
  const mcp = await startStdio({ env: { BROWX_TOOLSETS: "all", BROWX_CAPABILITIES: "all" } });
  try {
    const { tools } = await mcp.client.listTools();
    const { errors, warnings } = lintToolList(tools as Array<Record<string, unknown>>);
    assertEquals(errors, []);
    assertEquals(warnings, []);
    // Every tool was linted on both: all have an output schema.
    assertEquals(tools.filter((t) => !t.outputSchema).map((t) => t.name), []);
  } finally {
    await mcp.close();
  }
});
