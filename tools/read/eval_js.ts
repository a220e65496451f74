/**
 * `eval_js`: evaluate a JavaScript expression in the page (capability `eval`).
 *
 * @module
 */
import { z } from "zod";
import { EvaluationError } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { DEFAULT_TIMEOUT_MS, sessionField, timeoutField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { evaluateStoppable } from "../../browser/stuck_script.ts";

/** The `eval_js` tool. */
export const evalJsTool = defineTool({
  name: "eval_js",
  title: "Evaluate JavaScript",
  description:
    "Evaluate a JavaScript expression in the active tab; returns its JSON value (promises awaited; a function is called) or the exception. Wrap statements in an IIFE.",
  capability: "eval",
  toolset: "debug",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: resultOutput({ value: anyValue, note: z.string() }),
  inputSchema: z.object({
    expression: z.string().min(1).describe("JavaScript expression"),
    timeoutMs: timeoutField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.page();
    try {
      // Cancelled while the script still runs (a loop): it is stopped, the tab stays usable.
      const { value, called } = await evaluateStoppable(page, args.expression, {
        timeoutMs: args.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        userGesture: true,
        signal: ctx.signal,
      });
      return {
        structured: {
          ok: true,
          value: value === undefined ? null : value,
          // Other tools take `() => …`; the function was called, which is what was meant.
          ...(called
            ? { note: "the expression was a function: called it, this is its value" }
            : {}),
        },
      };
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
