/**
 * Validating a call's arguments against its tool's zod schema, with errors an agent can act on
 * (each problem named, the fields the tool takes listed).
 *
 * @module
 */
import { z } from "zod";
import type { ToolDefinition } from "../tools/define_tool.ts";
import { ToolError } from "../browser/tool_error.ts";

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? `"${issue.path.join(".")}"` : "arguments";
  if (issue.code === "unrecognized_keys") {
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }`;
  }
  return `${path}: ${issue.message}`;
}

/** Validates arguments; @throws ToolError invalid-argument naming each problem. */
export function parseArgs<S extends z.ZodObject>(
  tool: ToolDefinition<S>,
  args: unknown,
): z.infer<S> {
  const r = z.strictObject(tool.inputSchema.shape).safeParse(args ?? {});
  if (r.success) return r.data as z.infer<S>;
  const problems = r.error.issues.map(describeIssue).join("; ");
  const fields = Object.keys(tool.inputSchema.shape).join(", ");
  throw new ToolError(
    "invalid-argument",
    `Invalid arguments for "${tool.name}": ${problems}`,
    `fix the arguments and call again; "${tool.name}" takes: ${fields || "no arguments"}`,
  );
}
