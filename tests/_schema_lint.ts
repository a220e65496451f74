/**
 * Portability checks over a tool's JSON Schemas, the ones the MCP Inspector (2.12) runs with
 * `--strict` (its rules as documented there, written here from the JSON Schema spec):
 *
 * - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected
 *   (`additionalProperties`, `unevaluatedProperties`, `additionalItems`, `unevaluatedItems`
 *   take a boolean legitimately);
 * - `type-union` (warning): `type` given as an array (one-type dialects such as Gemini's
 *   OpenAPI subset reject it; `anyOf` of single types is the portable spelling);
 * - `remote-ref` (warning): a `$ref` outside the document (clients fetch nothing);
 * - `untyped-schema` (warning): a schema with no keyword that constrains the value at all
 *   (the object spelling of `true`); directly under `not` it is meaningful and allowed.
 *
 * @module
 */

/** One finding: which rule, how bad, where (a dotted path from the schema root). */
export interface LintFinding {
  rule: "boolean-schema" | "type-union" | "remote-ref" | "untyped-schema";
  severity: "error" | "warning";
  path: string;
}

/** Keywords whose value may be a boolean instead of a schema. */
const BOOLEAN_OK = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
]);

/** Keywords holding one schema. */
const ONE = [
  "items",
  "contains",
  "not",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "contentSchema",
];
/** Keywords holding a list of schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords holding a map of name → schema. */
const MAP = [
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
  "$defs",
  "definitions",
];

/**
 * Keywords that restrict what a value may be: the validation vocabulary, the applicators and
 * references (JSON Schema 2020-12 §10, validation §6). `if` counts only with `then`/`else`.
 */
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "items",
  "prefixItems",
  "contains",
  "additionalItems",
  "unevaluatedItems",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "dependentSchemas",
  "dependencies",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every finding in `schema` (a tool's inputSchema or outputSchema). */
export function lintSchema(schema: unknown): LintFinding[] {
  const found: LintFinding[] = [];
  const visit = (node: unknown, path: string, keyword: string | undefined, depth: number) => {
    if (depth > 64) return;
    if (typeof node === "boolean") {
      if (!(keyword && BOOLEAN_OK.has(keyword))) {
        found.push({ rule: "boolean-schema", severity: "error", path });
      }
      return;
    }
    if (!isObject(node)) return;
    if (Array.isArray(node.type)) found.push({ rule: "type-union", severity: "warning", path });
    if (typeof node.$ref === "string" && node.$ref !== "" && !node.$ref.startsWith("#")) {
      found.push({ rule: "remote-ref", severity: "warning", path });
    }
    const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) ||
      ("if" in node && ("then" in node || "else" in node));
    if (!constrains && keyword !== "not") {
      found.push({ rule: "untyped-schema", severity: "warning", path });
    }
    const at = (k: string) => path ? `${path}.${k}` : k;
    for (const k of MAP) {
      const map = node[k];
      if (!isObject(map)) continue;
      for (const [name, sub] of Object.entries(map)) visit(sub, at(`${k}.${name}`), k, depth + 1);
    }
    for (const k of LIST) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, at(`${k}[${i}]`), k, depth + 1));
    }
    for (const k of ONE) {
      if (!(k in node)) continue;
      const sub = node[k];
      if (k === "items" && Array.isArray(sub)) {
        sub.forEach((s, i) => visit(s, at(`items[${i}]`), k, depth + 1));
      } else visit(sub, at(k), k, depth + 1);
    }
  };
  visit(schema, "", undefined, 0);
  return found;
}

/** Findings of every tool's input and output schema, as `tool inputSchema.path: rule`. */
export function lintToolList(tools: ReadonlyArray<Record<string, unknown>>): {
  errors: string[];
  warnings: string[];
} {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const tool of tools) {
    for (const kind of ["inputSchema", "outputSchema"] as const) {
      if (tool[kind] === undefined) continue;
      for (const f of lintSchema(tool[kind])) {
        const line = `${tool.name} ${kind}${f.path ? "." + f.path : ""}: ${f.rule}`;
        (f.severity === "error" ? errors : warnings).push(line);
      }
    }
  }
  return { errors, warnings };
}
