import { z } from "zod";
import { assertEquals, assertIncludes, assertThrows } from "../tests/_assert.ts";
import { parseArgs } from "./args.ts";
import { defineTool } from "../tools/define_tool.ts";
import { resultOutput } from "../tools/output_schemas.ts";
import { ToolError } from "../browser/tool_error.ts";

const tool = defineTool({
  name: "t",
  title: "T",
  description: "",
  capability: "read",
  toolset: "core",
  annotations: {},
  inputSchema: z.object({
    width: z.number().int().min(1).optional(),
    ratio: z.number().optional(),
    full: z.boolean().optional(),
    name: z.string().optional(),
    either: z.union([z.number(), z.enum(["auto"])]).optional(),
    list: z.array(z.object({ n: z.number() })).optional(),
  }),
  outputSchema: resultOutput(),
  handler: () => Promise.reject(new Error("never runs")),
});

Deno.test("parseArgs: whole numeric and boolean strings are taken where the schema wants them", () => {
  assertEquals(parseArgs(tool, { width: "1024", ratio: "-2.5e1", full: "true" }), {
    width: 1024,
    ratio: -25,
    full: true,
  });
  assertEquals(parseArgs(tool, { full: "false", either: "12" }), { full: false, either: 12 });
  assertEquals(parseArgs(tool, { either: "auto", list: [{ n: "3" }] }), {
    either: "auto",
    list: [{ n: 3 }],
  });
  // A string field stays a string.
  assertEquals(parseArgs(tool, { name: "1024" }), { name: "1024" });
});

Deno.test("parseArgs: other strings stay errors naming what was sent", () => {
  for (
    const [args, said] of [
      [{ width: "12abc" }, '"width": expected a number, got the string "12abc"'],
      [{ width: " 12" }, '"width": expected a number, got the string " 12"'],
      [{ width: "0x10" }, '"width": expected a number, got the string "0x10"'],
      [{ width: "" }, '"width": expected a number, got the string ""'],
      [{ full: "yes" }, '"full": expected a boolean, got the string "yes"'],
      // Converted, then out of range or not an integer: the schema's own message.
      [{ width: "1.5" }, '"width"'],
      [{ width: "0" }, '"width"'],
    ] as const
  ) {
    const e = assertThrows(() => parseArgs(tool, args), ToolError);
    assertIncludes(e.message, said);
    assertIncludes(e.message, 'Invalid arguments for "t"');
  }
  // The fixed field is not reported with the one still wrong.
  const e = assertThrows(() => parseArgs(tool, { width: "800", full: "maybe" }), ToolError);
  assertEquals(e.message.includes("width"), false);
});

Deno.test("parseArgs: a value of none of a union's types says which types it takes", () => {
  const e = assertThrows(() => parseArgs(tool, { either: true }), ToolError);
  assertIncludes(e.message, '"either": expected number');
  assertIncludes(e.message, "got boolean");
});

Deno.test("parseArgs: a list of { name, value } given as one object of names to values", () => {
  const form = defineTool({
    ...tool,
    handler: () => Promise.reject(new Error("never runs")),
    inputSchema: z.object({
      fields: z.array(z.object({
        name: z.string().optional(),
        value: z.union([z.string(), z.number(), z.boolean()]),
      })),
    }),
  });
  // The form agents try first (a new user's fill_form call).
  assertEquals(parseArgs(form, { fields: { email: "a@b.c", qty: 2, terms: true } }), {
    fields: [
      { name: "email", value: "a@b.c" },
      { name: "qty", value: 2 },
      { name: "terms", value: true },
    ],
  });
  // Nested values are not guessed at: the error names the list's shape.
  const e = assertThrows(() => parseArgs(form, { fields: { email: { x: 1 } } }), ToolError);
  assertIncludes(e.message, "expected an array");
});
