/**
 * `execute`: dispatch an ActionDescriptor that `plan` returned (seed 000). Refused before
 * anything runs when it expired, its ref is gone, or it is not the descriptor plan issued in
 * this session; otherwise its verb runs as a call of that tool through the one pipeline, so
 * the verb's capability, confirm hooks, the guard and the audit apply exactly as to a direct
 * call (a denied click is a click denied).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput, anyObject } from "../output_schemas.ts";
import { sessionField, snapshotField, timeoutField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { estimateTokens } from "../../browser/snapshot/paging.ts";
import { capStrings } from "../../browser/output.ts";
import {
  type ActionDescriptor,
  descriptorsOf,
  verbArgsProblem,
  VERBS,
} from "../../browser/intent/descriptors.ts";

/** The shape execute accepts (checked in the handler, so a bad one is `invalid`, not a schema error). */
const descriptorShape = z.object({
  id: z.string().min(1),
  ref: z.string().min(1),
  verb: z.enum(VERBS),
  // The text form of plan's answer leaves an empty object out: no args is none.
  args: z.record(z.string(), z.unknown()).default({}),
  evidence: z.object({ role: z.string() }).loose(),
  expiresAt: z.number(),
}).loose();

/** The `execute` tool. */
export const executeTool = defineTool({
  name: "execute",
  title: "Execute a plan",
  description:
    "Run plan's descriptor verbatim; refused (nothing runs) when expired, ref-gone or invalid: plan again. Returns { ok, result, tokensEstimate }; the verb's gates apply.",
  capability: "action",
  toolset: "power",
  runsInnerCalls: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: actionOutput({ descriptor: z.string(), result: anyObject }),
  inputSchema: z.object({
    descriptor: z.record(z.string(), z.unknown()).describe("As plan returned it"),
    session: sessionField,
    timeoutMs: timeoutField,
    snapshot: snapshotField,
  }),
  async handler(ctx, args) {
    const parsed = descriptorShape.safeParse(args.descriptor);
    const problem = parsed.success
      ? verbArgsProblem(parsed.data.verb, parsed.data.args)
      : parsed.error.issues.map((i) => `${i.path.join(".") || "descriptor"}: ${i.message}`)
        .slice(0, 3).join("; ");
    if (!parsed.success || problem) {
      throw refusal("invalid", `Invalid descriptor: ${problem}`, "pass plan's result verbatim");
    }
    const d = parsed.data as unknown as ActionDescriptor;
    const session = await ctx.sessions.get(args.session ?? "default");
    const refused = descriptorsOf(session.slots).check(d, session.refs);
    if (refused) throw refusal(refused.reason, refused.message, refused.hint);
    const r = await ctx.dispatch(d.verb, {
      ...d.args,
      ref: d.ref,
      ...(args.session !== undefined ? { session: args.session } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.snapshot !== undefined ? { snapshot: args.snapshot } : {}),
    });
    const result = r.structuredContent ?? {};
    const text = r.content.map((c) => c.type === "text" ? c.text : "").filter(Boolean).join("\n");
    // The text is the verb's own, as a direct call answers (not its result nested as JSON).
    const render = (s: Record<string, unknown>) => ({
      text: r.isError || result.ok === false ? text : `${d.verb} ${d.id}:\n${text}`,
      structured: capStrings(s) as Record<string, unknown>,
    });
    // The verb's own failure (refused, not actionable, …) stays the verb's; so does a result
    // that says ok: false without being an error (it did not do what was asked).
    if (r.isError || result.ok === false) return { structured: result, render, isError: true };
    return {
      structured: { ok: true, descriptor: d.id, result, tokensEstimate: estimateTokens(text) },
      render,
    };
  },
});

function refusal(reason: "expired" | "ref-gone" | "invalid", message: string, hint: string) {
  return new ToolError(
    reason === "invalid" ? "invalid-argument" : reason,
    message,
    hint,
    { reason },
  );
}
