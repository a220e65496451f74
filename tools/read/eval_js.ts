/**
 * `eval_js`: evaluate a JavaScript expression in the page (capability `eval`).
 *
 * @module
 */
import { z } from "zod";
import { EvaluationError } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../errors.ts";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "../actions/run_action.ts";

/** The `eval_js` tool. */
export const evalJsTool = defineTool({
  name: "eval_js",
  title: "Evaluate JavaScript",
  description:
    "Evaluate a JavaScript expression in the active tab's page and return its JSON value (promises are awaited), or the exception text. Wrap statements in an IIFE. Needs the eval capability (off by default).",
  capability: "eval",
  toolset: "debug",
  annotations: { destructiveHint: true, openWorldHint: true },
  inputSchema: z.object({
    expression: z.string().min(1).describe("JavaScript expression"),
    timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(
      "Max run time in ms (default 10000)",
    ),
    session: z.string().optional().describe("Session name"),
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.page();
    try {
      const value = await page.evaluate(args.expression, {
        world: "main",
        timeoutMs: args.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        userGesture: true,
      });
      return { structured: { ok: true, value: value === undefined ? null : value } };
    } catch (e) {
      if (e instanceof EvaluationError) {
        throw new ToolError(
          "eval-error",
          `The expression threw: ${e.message}`,
          "fix the expression and call again",
        );
      }
      throw e;
    }
  },
});
