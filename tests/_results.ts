/**
 * Typed views of tool results for tests, instead of casting
 * `structuredContent` field by field: an acting tool's result is an
 * {@link ActionResult} (`browser/actions/action_result.ts`), a failed call's
 * `error` an {@link ActionError}.
 *
 * @module
 */
import type { ActionError, ActionResult } from "../browser/actions/action_result.ts";
import type { McpHarness, ToolResult } from "./_mcp.ts";

export type { ActionError, ActionResult };

/**
 * The ActionResult of an acting tool's call (click, fill, navigate, …), failed
 * or not. Fails the test when the result has no structured content.
 */
export function actionOf(r: ToolResult): ActionResult {
  if (!r.structuredContent) {
    throw new Error(`no structured content: ${JSON.stringify(r.content).slice(0, 300)}`);
  }
  return r.structuredContent as ActionResult;
}

/** Calls an acting tool; fails the test when it returns `isError`. */
export async function act(
  mcp: McpHarness,
  name: string,
  args?: Record<string, unknown>,
): Promise<ActionResult> {
  return await mcp.ok(name, args) as ActionResult;
}

/** The `error` of a failed call (any tool). Fails the test when there is none. */
export function errorOf(r: ToolResult): ActionError {
  const error = r.structuredContent?.error as ActionError | null | undefined;
  if (!error) throw new Error(`no error in: ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
  return error;
}
