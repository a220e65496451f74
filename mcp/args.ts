/**
 * Validating a call's arguments against its tool's zod schema, with errors an agent can act on
 * (each problem named, the fields the tool takes listed). Numbers and booleans sent as strings
 * (`width: "1024"`, `fullPage: "true"`: CLI clients such as the MCP Inspector send every
 * `key=value` as a string) are taken where the schema wants a number or a boolean, when the
 * whole string is one; anything else stays an error naming what was sent.
 *
 * @module
 */
import { z } from "zod";
import { MAX_ARG_STRING_CHARS, type ToolDefinition } from "../tools/define_tool.ts";
import { ToolError } from "../browser/tool_error.ts";

/** A whole decimal number as text: `1024`, `-2.5`, `.5`, `1e3`; not `12abc`, ` 1`, `0x10`, ``. */
const NUMERIC = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value at `path` in `root`, or undefined. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  }
  return v;
}

/** Sets the value at `path` (its parents exist: an issue's path points at a value given). */
function setAt(root: unknown, path: readonly PropertyKey[], value: unknown): void {
  const parent = valueAt(root, path.slice(0, -1));
  if (parent && typeof parent === "object") {
    (parent as Record<PropertyKey, unknown>)[path.at(-1)!] = value;
  }
}

/** A string's number or boolean when `expected` wants one and the whole string is one. */
function fromString(expected: string, s: string): number | boolean | undefined {
  if ((expected === "number" || expected === "int") && NUMERIC.test(s)) return Number(s);
  if (expected === "boolean" && (s === "true" || s === "false")) return s === "true";
  return undefined;
}

/**
 * Replaces, in `args` (a copy the caller owns), each string a type issue says should have been
 * a number or a boolean and that is one, also inside a union's branches. Returns whether
 * anything was replaced.
 */
function coerceStrings(
  args: unknown,
  issues: readonly z.core.$ZodIssue[],
  base: readonly PropertyKey[] = [],
): boolean {
  let changed = false;
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_union") {
      for (const branch of issue.errors) changed = coerceStrings(args, branch, path) || changed;
      continue;
    }
    if (issue.code !== "invalid_type") continue;
    const given = valueAt(args, path);
    if (typeof given !== "string" || path.length === 0) continue;
    const value = fromString(issue.expected, given);
    if (value === undefined) continue;
    setAt(args, path, value);
    changed = true;
  }
  return changed;
}

/**
 * A field that takes a list of `{ name, value }` given as one object of names to values
 * (`fields: { email: "a@b.c", terms: true }`, the form agents try first): made the list, in the
 * object's order. Only plain values (string, number, boolean) are taken. Returns whether any
 * field was converted.
 */
function namedMapsToLists(
  args: unknown,
  issues: readonly z.core.$ZodIssue[],
  shape: Record<string, unknown>,
): boolean {
  let changed = false;
  for (const issue of issues) {
    if (issue.code !== "invalid_type" || issue.expected !== "array" || issue.path.length !== 1) {
      continue;
    }
    const key = String(issue.path[0]);
    const keys = itemKeys(shape[key])?.split(", ") ?? [];
    if (!keys.includes("name") || !keys.includes("value")) continue;
    const given = valueAt(args, issue.path);
    if (given === null || typeof given !== "object" || Array.isArray(given)) continue;
    const entries = Object.entries(given);
    if (
      !entries.length ||
      entries.some(([, v]) => !["string", "number", "boolean"].includes(typeof v))
    ) {
      continue;
    }
    setAt(args, issue.path, entries.map(([name, value]) => ({ name, value })));
    changed = true;
  }
  return changed;
}

/** The keys of an array-of-objects schema's item (`name, ref, selector, value`), if it is one. */
function itemKeys(schema: unknown): string | undefined {
  let s = schema as { unwrap?: () => unknown; element?: unknown; shape?: object } | undefined;
  for (let i = 0; i < 4 && s && !s.element && s.unwrap; i++) s = s.unwrap() as typeof s;
  const item = s?.element as { shape?: object } | undefined;
  return item?.shape ? Object.keys(item.shape).join(", ") : undefined;
}

function describeIssue(
  issue: z.core.$ZodIssue,
  args: unknown,
  shape?: Record<string, unknown>,
): string {
  const path = issue.path.length ? `"${issue.path.join(".")}"` : "arguments";
  if (issue.code === "unrecognized_keys") {
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }`;
  }
  const given = valueAt(args, issue.path);
  if (issue.code === "invalid_type" && typeof given === "string" && issue.path.length) {
    const want = issue.expected === "int" ? "an integer" : `a ${issue.expected}`;
    return `${path}: expected ${want}, got the string ${JSON.stringify(given.slice(0, 40))}`;
  }
  if (issue.code === "invalid_type" && issue.expected === "array" && issue.path.length === 1) {
    // A list of objects given in another shape: what one item looks like.
    const keys = itemKeys(shape?.[String(issue.path[0])]);
    if (keys) return `${path}: expected an array of { ${keys} }, got ${jsonType(given)}`;
  }
  if (issue.code === "invalid_union" && issue.path.length) {
    // Which types the branches wanted, instead of zod's bare "Invalid input".
    const wanted = [
      ...new Set(
        issue.errors.flatMap((branch) =>
          branch.flatMap((i) => i.code === "invalid_type" && !i.path.length ? [i.expected] : [])
        ),
      ),
    ];
    if (wanted.length) {
      return `${path}: expected ${wanted.join(" or ")}, got ${jsonType(given)}`;
    }
  }
  return `${path}: ${issue.message}`;
}

/** The JSON type of a value as a word: `object`, `array`, `null`, `string`, … */
function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/**
 * Refuses arguments holding a string longer than {@link MAX_ARG_STRING_CHARS}, naming its path,
 * before the tool works on it. @throws ToolError invalid-argument
 */
function refuseLongStrings(tool: string, args: unknown): void {
  const walk = (v: unknown, path: string, depth: number): void => {
    if (typeof v === "string") {
      if (v.length <= MAX_ARG_STRING_CHARS) return;
      throw new ToolError(
        "invalid-argument",
        `Invalid arguments for "${tool}": ${path || "the arguments"}: a string of ${v.length} ` +
          `characters; at most ${MAX_ARG_STRING_CHARS}`,
        "pass a shorter value (a file's content goes in a workspace file, by path)",
      );
    }
    // Deeper than any schema: the schema refuses it, cheaply.
    if (depth > 8 || v === null || typeof v !== "object") return;
    for (const [k, c] of Object.entries(v)) walk(c, path ? `${path}.${k}` : k, depth + 1);
  };
  walk(args, "", 0);
}

/** Validates arguments; @throws ToolError invalid-argument naming each problem. */
export function parseArgs<S extends z.ZodObject>(
  tool: ToolDefinition<S>,
  args: unknown,
): z.infer<S> {
  const schema = z.strictObject(tool.inputSchema.shape);
  let given = args ?? {};
  let r = schema.safeParse(given);
  if (!r.success && typeof given === "object") {
    // Strings where numbers or booleans belong: a second parse of a copy with them converted
    // (its issues, if any, are the ones left).
    const copy = structuredClone(given);
    const named = namedMapsToLists(copy, r.error.issues, tool.inputSchema.shape);
    if (coerceStrings(copy, r.error.issues) || named) {
      given = copy;
      r = schema.safeParse(given);
    }
  }
  if (r.success) {
    // After the schema: its own caps (a selector's, a query's) say their limits first.
    if (!tool.largeArgs) refuseLongStrings(tool.name, r.data);
    return r.data as z.infer<S>;
  }
  const problems = r.error.issues.map((i) => describeIssue(i, given, tool.inputSchema.shape))
    .join("; ");
  const fields = Object.keys(tool.inputSchema.shape).join(", ");
  throw new ToolError(
    "invalid-argument",
    `Invalid arguments for "${tool.name}": ${problems}`,
    `fix the arguments and call again; "${tool.name}" takes: ${fields || "no arguments"}`,
  );
}

/**
 * {@link parseArgs} without throwing: the parsed arguments, or the error it would throw. The
 * pipeline parses once, at the audit step (arguments that do not fit are redacted whole,
 * `redactInvalidArgs`), and throws the error where the gates check arguments.
 */
export function tryParseArgs<S extends z.ZodObject>(
  tool: ToolDefinition<S>,
  args: unknown,
): { parsed: z.infer<S> } | { error: unknown } {
  try {
    return { parsed: parseArgs(tool, args) };
  } catch (error) {
    return { error };
  }
}
