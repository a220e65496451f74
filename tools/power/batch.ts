/**
 * `batch`: a sequence of tool calls run server-side, answered as one
 * result (seed 000). Each inner call goes through the same wrapper as a
 * top-level call (`ctx.dispatch`): capability gates, confirm hooks, secrets,
 * audit and the ActionResult are unchanged, so a batch is never a way
 * around a gate.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../errors.ts";

/** Tools a batch may call (seed 000's whitelist, as far as browxai has them). */
export const BATCH_TOOLS: ReadonlySet<string> = new Set([
  "navigate",
  "click",
  "fill",
  "fill_form",
  "press",
  "hover",
  "select",
  "type",
  "scroll",
  "wait_for",
  "go_back",
  "go_forward",
  "reload",
  "snapshot",
  "screenshot",
  "console_read",
  "network_read",
  "eval_js",
  "approve_actions",
  "list_approvals",
  "get_config",
  "list_sessions",
  "read_form",
  "review_form",
]);

/** Longest batch, calls. */
export const MAX_BATCH_CALLS = 32;

/** The `batch` tool. */
export const batchTool = defineTool({
  name: "batch",
  title: "Batch",
  description:
    "Run 1-32 tool calls in order server-side and return all results at once; every call passes the same gates as a top-level one. stopOnError (default true) halts at the first failure. No nesting.",
  capability: "read",
  toolset: "power",
  annotations: { openWorldHint: true },
  inputSchema: z.object({
    calls: z.array(z.object({
      tool: z.string().describe("Tool name"),
      args: z.record(z.string(), z.unknown()).optional().describe("Its arguments"),
      label: z.string().max(200).optional().describe("Echoed in the result entry"),
    })).min(1).max(MAX_BATCH_CALLS).describe("The calls, in order"),
    stopOnError: z.boolean().optional().describe("Halt at the first failure (default true)"),
  }),
  async handler(ctx, args) {
    const bad = args.calls.map((c) => c.tool).filter((t) => !BATCH_TOOLS.has(t));
    if (bad.length) {
      throw new ToolError(
        "invalid-argument",
        `batch cannot run ${bad.map((b) => `"${b}"`).join(", ")}`,
        `inner calls may be: ${[...BATCH_TOOLS].join(", ")} (no nested batch)`,
      );
    }
    const stopOnError = args.stopOnError ?? true;
    const results: Array<Record<string, unknown>> = [];
    let failedAt: number | null = null;
    for (const [i, call] of args.calls.entries()) {
      if (ctx.signal?.aborted) break;
      const r = await ctx.dispatch(call.tool, call.args ?? {});
      const structured = r.structuredContent ?? {};
      const ok = !r.isError;
      results.push({
        tool: call.tool,
        ...(call.label !== undefined ? { label: call.label } : {}),
        ok,
        ...(ok ? { result: structured } : { error: structured.error ?? r.content[0] }),
        ...(!ok && structured.requiredCapability
          ? { requiredCapability: structured.requiredCapability }
          : {}),
      });
      if (!ok && failedAt === null) {
        failedAt = i;
        if (stopOnError) break;
      }
    }
    return {
      structured: { completed: results.length, failedAt, results },
      ...(failedAt !== null ? { isError: true } : {}),
    };
  },
});
