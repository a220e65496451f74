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
import { objectList, resultOutput } from "../output_schemas.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { capStrings } from "../../browser/output.ts";

/**
 * Tools a batch may call: seed 000's whitelist, as far as browxai has them, and read-only tools
 * a sequence commonly checks between its steps (`get_url`, `read_form`, `review_form`, …).
 */
export const BATCH_TOOLS: ReadonlySet<string> = new Set([
  "navigate",
  "click",
  "fill",
  "fill_form",
  "press",
  "hover",
  "drag",
  "mouse",
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
  "get_url",
  "read_form",
  "review_form",
  "name_ref",
  "list_named_refs",
  "text_search",
  "choose_option",
  "find",
  "find_feedback",
  "plan",
]);

/** Longest batch, calls. */
export const MAX_BATCH_CALLS = 32;

/** The `calls` argument of batch and flake_check. */
export const batchCallsSchema = z.array(z.object({
  tool: z.string().describe("Tool name"),
  args: z.record(z.string(), z.unknown()).optional().describe("Its arguments"),
  label: z.string().max(200).optional().describe("Echoed in its result"),
})).min(1).max(MAX_BATCH_CALLS).describe("In order");

/** The `batch` tool. */
export const batchTool = defineTool({
  name: "batch",
  title: "Batch calls",
  description:
    "Run 1-32 tool calls in order server-side; returns all results at once. Each call passes the same gates as a top-level one. No nesting.",
  capability: "read",
  toolset: "power",
  runsInnerCalls: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    completed: z.number(),
    failedAt: z.number().nullable(),
    results: objectList,
  }),
  inputSchema: z.object({
    calls: batchCallsSchema,
    stopOnError: z.boolean().optional().describe("Halt at the first failure (default true)"),
  }),
  async handler(ctx, args) {
    checkBatchCalls(args.calls, "batch");
    const n = args.calls.length;
    const report = await runCalls(ctx, args.calls, args.stopOnError ?? true, {
      onStep: (i, call) => ctx.progress?.(i, n, `step ${i + 1} of ${n}: ${call.tool}`),
    });
    ctx.progress?.(n, n, `${report.completed} of ${n} steps run`);
    const { texts, ...structured } = report;
    return {
      structured,
      // The text is each step's own text, as a direct call answers: no result nested as JSON.
      render: (s) => ({ text: stepsText(s, texts, n), structured: capStrings(s) as typeof s }),
      ...(report.failedAt !== null ? { isError: true } : {}),
    };
  },
});

/** One inner call of a batch. */
export interface BatchCall {
  tool: string;
  args?: Record<string, unknown> | undefined;
  label?: string | undefined;
}

/** One inner call's outcome. */
export interface BatchEntry {
  tool: string;
  label?: string;
  ok: boolean;
  /** The inner structuredContent (ok calls, and failed ones that are not errors: a timed-out wait). */
  result?: Record<string, unknown>;
  /** The inner error `{ code, message, hint }` (failed calls). */
  error?: unknown;
  requiredCapability?: unknown;
}

/** What a batch run returns. */
export interface BatchReport {
  completed: number;
  /** Index of the first failed call, or null. */
  failedAt: number | null;
  results: BatchEntry[];
  /** Each run call's text content, as a direct call of it answers. */
  texts: string[];
}

/**
 * A batch's text: a line of how far it got, then one block per step run (`[i] tool "label"`
 * and that step's own text: the compact form a direct call answers with).
 */
export function stepsText(
  structured: Record<string, unknown>,
  texts: readonly string[],
  total: number,
): string {
  const { completed, failedAt, results } = structured as unknown as BatchReport;
  const head = failedAt === null
    ? `${completed} of ${total} steps ok`
    : `${completed} of ${total} steps run; step ${failedAt + 1} failed`;
  const blocks = results.map((e, i) =>
    `[${i + 1}] ${e.tool}${e.label !== undefined ? ` ${JSON.stringify(e.label)}` : ""}` +
    `${e.ok ? "" : " (failed)"}\n${texts[i] ?? ""}`
  );
  return [head, ...blocks].join("\n");
}

/**
 * Refuses calls outside {@link BATCH_TOOLS} (and so any nesting).
 *
 * @throws ToolError invalid-argument naming them.
 */
export function checkBatchCalls(calls: readonly BatchCall[], runner: string): void {
  const bad = calls.map((c) => c.tool).filter((t) => !BATCH_TOOLS.has(t));
  if (bad.length) {
    throw new ToolError(
      "invalid-argument",
      `${runner} cannot run ${bad.map((b) => `"${b}"`).join(", ")}`,
      `inner calls may be: ${[...BATCH_TOOLS].join(", ")} (no nested batch or flake_check)`,
    );
  }
}

/**
 * Runs calls in order through `ctx.dispatch` (every gate applies to each).
 * With `stopOnError`, the first failure ends the run. `onStep` is told each call (its index)
 * before it runs (progress).
 */
export async function runCalls(
  ctx: ToolContext,
  calls: readonly BatchCall[],
  stopOnError: boolean,
  options: { onStep?: ((i: number, call: BatchCall) => void) | undefined } = {},
): Promise<BatchReport> {
  const results: BatchEntry[] = [];
  const texts: string[] = [];
  let failedAt: number | null = null;
  for (const [i, call] of calls.entries()) {
    if (ctx.signal?.aborted) break;
    options.onStep?.(i, call);
    const r = await ctx.dispatch(call.tool, call.args ?? {});
    const structured = r.structuredContent ?? {};
    // A result that says ok: false without being an error (wait_for whose condition never held)
    // is a failed step too: "wait for X, then buy" must not buy when X never came.
    const notMet = !r.isError && structured.ok === false;
    const ok = !r.isError && !notMet;
    texts.push(r.content.map((c) => c.type === "text" ? c.text : "").filter(Boolean).join("\n"));
    results.push({
      tool: call.tool,
      ...(call.label !== undefined ? { label: call.label } : {}),
      ok,
      ...(ok
        ? { result: structured }
        : notMet
        ? { result: structured, error: notMetError(call.tool, structured) }
        : { error: structured.error ?? r.content[0] }),
      ...(!ok && structured.requiredCapability
        ? { requiredCapability: structured.requiredCapability }
        : {}),
    });
    if (!ok && failedAt === null) {
      failedAt = i;
      if (stopOnError) break;
    }
  }
  return { completed: results.length, failedAt, results, texts };
}

/**
 * The error of a step whose result says `ok: false` without being an error: its own
 * `error` when it has one, else `{ code: status, message }` (a timed-out wait_for:
 * `{ code: "timeout", message: "wait_for's condition did not hold within 911 ms" }`).
 */
function notMetError(tool: string, s: Record<string, unknown>): Record<string, unknown> {
  if (s.error && typeof s.error === "object") return s.error as Record<string, unknown>;
  const status = typeof s.status === "string" ? s.status : "failed";
  const waited = typeof s.waitedMs === "number" ? ` within ${s.waitedMs} ms` : "";
  return {
    code: status,
    message: status === "timeout"
      ? `${tool}'s condition did not hold${waited}`
      : `${tool} answered ok: false (status "${status}")`,
  };
}
