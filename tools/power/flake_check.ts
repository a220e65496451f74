/**
 * `flake_check`: the same call sequence run N times, and what shifted
 * between the runs (seed 000). Inner calls go through `ctx.dispatch` like
 * batch's: every gate applies to each call of each run.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import type { ToolContext } from "../context.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import type { ToolErrorCode } from "../../browser/tool_error.ts";
import {
  type BatchCall,
  batchCallsSchema,
  type BatchReport,
  checkBatchCalls,
  runCalls,
} from "./batch.ts";
import { carriedOver, defaultState, inFreshSession, usesDefault } from "./flake_state.ts";
import type { StorageState } from "../../storage/storage_state.ts";

/** Distinct errors kept per step; noisier than this is itself the finding. */
const MAX_STEP_ERRORS = 8;

/** How a step's call named its target: the ref, selector or other handle it was given. */
function signatureOf(call: BatchCall): string | undefined {
  const a = call.args ?? {};
  for (const k of ["ref", "named", "selector", "name"]) {
    if (typeof a[k] === "string") return `${k}:${a[k]}`;
  }
  return undefined;
}

/**
 * What a find or plan step resolved to, `<ref>::<selectorHint>` (seed 000): find's top
 * candidate, plan's descriptor; undefined for other tools (their signature is their input).
 */
function resolvedSignature(
  tool: string,
  result: Record<string, unknown> | undefined,
): string | undefined {
  if (!result) return undefined;
  if (tool === "find") {
    const top = topCandidate(result);
    return top ? `${top.ref}::${top.selectorHint ?? ""}` : undefined;
  }
  if (tool === "plan") {
    const hint = (result.evidence as Record<string, unknown> | undefined)?.selectorHint;
    return `${result.ref}::${hint ?? ""}`;
  }
  return undefined;
}

/** A find answer's first candidate. */
function topCandidate(
  result: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  return (result?.candidates as Array<Record<string, unknown>> | undefined)?.[0];
}

function errorText(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { code?: unknown; message?: unknown; text?: unknown };
    if (typeof e.message === "string") return `${e.code ?? "error"}: ${e.message}`.slice(0, 300);
    if (typeof e.text === "string") return e.text.slice(0, 300);
  }
  return String(error).slice(0, 300);
}

/**
 * Rolls up N runs of the same calls: per step how many runs reached it and
 * succeeded, distinct errors and target signatures; the first step whose
 * outcome differed between runs; and the targets every reaching run agreed
 * on and succeeded with (`cachedResolvers`).
 */
export function rollUp(calls: readonly BatchCall[], runs: readonly BatchReport[]) {
  const steps = calls.map((call, step) => {
    const reached = runs.map((r) => r.results[step]).filter((x) => x !== undefined);
    const ok = reached.filter((x) => x.ok).length;
    const errors = [...new Set(reached.filter((x) => !x.ok).map((x) => errorText(x.error)))];
    const sig = signatureOf(call);
    // find and plan resolve their target themselves: their signature is what they resolved to.
    const resolved = [
      ...new Set(reached.filter((x) => x.ok).map((x) => resolvedSignature(call.tool, x.result))),
    ].filter((x): x is string => x !== undefined);
    return {
      step,
      tool: call.tool,
      ...(call.label !== undefined ? { label: call.label } : {}),
      runs: reached.length,
      ok,
      successRate: reached.length ? ok / reached.length : 0,
      errors: errors.slice(0, MAX_STEP_ERRORS),
      ...(errors.length > MAX_STEP_ERRORS ? { moreErrors: errors.length - MAX_STEP_ERRORS } : {}),
      signatures: resolved.length ? resolved : sig ? [sig] : [],
    };
  });
  const firstDivergence = steps.find((s) => s.ok !== 0 && s.ok !== s.runs)?.step ?? null;
  const cachedResolvers = steps.flatMap((s) => {
    const a = calls[s.step]!.args ?? {};
    if (s.runs === 0 || s.ok !== s.runs) return [];
    // The last run's answer: find's top candidate, plan's descriptor.
    const last = runs.map((r) => r.results[s.step]).filter((x) => x?.ok).at(-1)?.result;
    const top = s.tool === "find" ? topCandidate(last) : undefined;
    const target = top
      ? { ref: top.ref, ...(top.selectorHint ? { selectorHint: top.selectorHint } : {}) }
      : s.tool === "plan" && last
      ? { ref: last.ref, descriptor: last }
      : typeof a.ref === "string"
      ? { ref: a.ref }
      : typeof a.named === "string"
      ? { named: a.named }
      : typeof a.selector === "string"
      ? { selectorHint: a.selector }
      : undefined;
    return target
      ? [{
        step: s.step,
        tool: s.tool,
        ...(s.label ? { label: s.label } : {}),
        ...target,
        agreedRuns: s.runs,
      }]
      : [];
  });
  return { steps, firstDivergence, cachedResolvers };
}

/** A step of {@link rollUp}'s report, as {@link allRunsFailed} reads it. */
type StepReport = ReturnType<typeof rollUp>["steps"][number];

/**
 * The error of a flake check in which no run passed (every run had a failing
 * step), or undefined when at least one run passed (or none ran). Names the
 * steps that failed in every run and the first error of the first of them.
 */
export function allRunsFailed(
  steps: readonly StepReport[],
  runs: readonly BatchReport[],
): { code: ToolErrorCode; message: string; hint: string } | undefined {
  if (runs.length === 0 || runs.some((r) => r.failedAt === null)) return undefined;
  const always = steps.filter((s) => s.runs > 0 && s.ok === 0);
  const everyStep = steps.every((s) => s.runs > 0 && s.ok === 0);
  const named = always.slice(0, 5).map((s) => `${s.step} (${s.tool})`).join(", ");
  const first = always[0] ?? steps.find((s) => s.ok < s.runs);
  return {
    code: "all-runs-failed",
    message: `flake_check: all ${runs.length} runs failed${
      everyStep
        ? ", every step in every run"
        : always.length
        ? `; step${always.length > 1 ? "s" : ""} ${named}${
          always.length > 5 ? ` and ${always.length - 5} more` : ""
        } failed in every run`
        : " (each at a different step)"
    }${first?.errors[0] ? `; step ${first.step} said: ${first.errors[0]}` : ""}`,
    hint: always.length
      ? `fix step ${always[0]!.step} (${
        always[0]!.tool
      }) first: it never passed, so there is no flake to measure yet`
      : "every run failed somewhere: read steps[].errors and fix the least reliable step first",
  };
}

/** `default`'s state, or undefined when it cannot be read (the note is then left out). */
async function stateOrNone(ctx: ToolContext): Promise<StorageState | undefined> {
  return await defaultState(ctx).catch(() => undefined);
}

/** The `flake_check` tool. */
export const flakeCheckTool = defineTool({
  name: "flake_check",
  title: "Flake check",
  description:
    "Run calls (as batch) n times: per step how often it passed, distinct errors, the first step whose outcome differed, targets all runs agreed on; isError if no run passed.",
  capability: "action",
  toolset: "power",
  runsInnerCalls: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    runsCompleted: z.number(),
    allGreen: z.boolean(),
    shortCircuitedAfter: z.number(),
    steps: objectList,
    firstDivergence: z.number().nullable(),
    cachedResolvers: objectList,
    runs: objectList,
    warnings: z.array(z.string()),
  }),
  inputSchema: z.object({
    calls: batchCallsSchema,
    n: z.number().int().min(3).max(20).describe("Repetitions"),
    stopOnAllGreen: z.number().int().min(1).max(20).optional().describe(
      "Stop after this many consecutive all-green runs",
    ),
    fresh: z.boolean().optional().describe(
      "Each run in a new session seeded with default's storage",
    ),
  }),
  async handler(ctx, args) {
    checkBatchCalls(args.calls, "flake_check");
    const runs: BatchReport[] = [];
    let green = 0;
    let shortCircuitedAfter: number | undefined;
    const warnings: string[] = [];
    // Calls naming no session share `default`: run 1's cookies and storage are run 2's start.
    const shared = usesDefault(args.calls);
    if (args.fresh && !shared) {
      warnings.push("fresh: every call names its session; those run as they are");
    }
    const seed = args.fresh && shared ? await defaultState(ctx) : undefined;
    if (seed?.skipped.length) {
      warnings.push(
        `fresh runs start without the cookies and localStorage of ${seed.skipped.join(", ")}: ` +
          "the policy stops those origins (allowlist, blocklist, sites not approved)",
      );
    }
    const before = !args.fresh && shared ? await stateOrNone(ctx) : undefined;
    const id = crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < args.n; i++) {
      if (ctx.signal?.aborted) break;
      // Every step runs in every repetition: a failure must not hide what follows it.
      const steps = args.calls.length;
      const exec = (calls: BatchCall[]) =>
        runCalls(ctx, calls, false, {
          onStep: (s, call) =>
            ctx.progress?.(
              i + s / steps,
              args.n,
              `run ${i + 1} of ${args.n}, step ${s + 1} of ${steps}: ${call.tool}`,
            ),
        });
      const r = seed
        ? await inFreshSession(ctx, args.calls, { seed, name: `flake-${id}-${i + 1}` }, exec)
        : await exec(args.calls);
      runs.push(r);
      if (i === 0 && before && args.n > 1) {
        const after = await stateOrNone(ctx);
        const note = after && carriedOver(before, after);
        if (note) warnings.push(note);
      }
      green = r.failedAt === null ? green + 1 : 0;
      if (args.stopOnAllGreen !== undefined && green >= args.stopOnAllGreen) {
        shortCircuitedAfter = runs.length;
        break;
      }
    }
    ctx.progress?.(args.n, args.n, `${runs.length} of ${args.n} runs done`);
    const { steps, firstDivergence, cachedResolvers } = rollUp(args.calls, runs);
    const failure = allRunsFailed(steps, runs);
    return {
      // Some runs passing is the flake report the tool exists for; no run passing is a failure.
      ...(failure ? { isError: true } : {}),
      structured: {
        ok: !failure,
        ...(failure ? { error: failure } : {}),
        runsCompleted: runs.length,
        allGreen: runs.every((r) => r.failedAt === null),
        ...(shortCircuitedAfter !== undefined ? { shortCircuitedAfter } : {}),
        steps,
        firstDivergence,
        cachedResolvers,
        // Per run, each call's outcome (not its whole result: n full ActionResults are too big).
        runs: runs.map((r) => ({
          failedAt: r.failedAt,
          results: r.results.map((x) => ({
            tool: x.tool,
            ok: x.ok,
            ...(x.ok ? {} : { error: x.error }),
          })),
        })),
        ...(warnings.length ? { warnings } : {}),
      },
    };
  },
});
