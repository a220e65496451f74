/**
 * Secrets and audit around every tool call ({@link withCallPolicies}, called
 * by `callTool`):
 *
 * - **Substitution.** After validation and before the handler, each
 *   `{{secret:NAME}}` in a string argument under a fill key (`value`, `text`,
 *   `html`, at any depth: `fill.value`, `type.text`, `handle_dialog.text`,
 *   `fields[].value`, …) becomes the secret's value. A placeholder anywhere
 *   else (`url`, `selector`, `expression`, `pattern`, …) is refused: a
 *   secret goes only into what fills a page, never into a URL that leaves
 *   for a server or code that could spell it out. Without the `secrets`
 *   capability any placeholder refuses the call (`requiredCapability:
 *   "secrets"`).
 * - **Origin binding.** A secret bound to origins (`NAME@origin=value`) is
 *   filled only by {@link ORIGIN_CHECKED_TOOLS}, which check each frame they
 *   fill against the list (`browser/secret_scope.ts`); other tools refuse it.
 * - **Masking.** With the `secrets` capability on, every registered value
 *   is replaced by `[secret:NAME]` in the whole result (text content and
 *   structuredContent: snapshots, console and network entries, eval output,
 *   error messages). Filters and matches (`console_read`/`network_read`
 *   `pattern`, `wait_for` `text`, `text=` selectors) see the masked text
 *   only (they read the masker from the call's secret scope); screenshots
 *   cover the elements that show a value (`browser/screenshot/screenshot_cover.ts`).
 * - **Audit.** One outcome line per call, refused ones included, in
 *   `<workspace>/audit/YYYY-MM-DD.jsonl` (see `policy/audit.ts`): the
 *   arguments as sent (placeholders, never values; filled values redacted),
 *   the decision, each confirm hook's answer, the origin acted on, the
 *   duration and the outcome. A call whose handler runs also gets a start
 *   line first (same `callId`), so a crash mid-call leaves a trace.
 *   Registered secrets are masked in it whether or not the `secrets`
 *   capability is on, before any cut.
 *
 * @module
 */
import {
  type AuditConfirm,
  type AuditEntry,
  type AuditStart,
  decideAudit,
  redactArgs,
} from "../policy/audit.ts";
import { SecretStore } from "../policy/secrets.ts";
import type { CallToolResult } from "../tools/context.ts";
import { maskResult, renderError } from "./render.ts";
import { ORIGIN_CHECKED_TOOLS, substituteArgs } from "./secret_args.ts";
import { activeOrigin, auditLogFor, originOf } from "./audit_trail.ts";
import type { ToolContext } from "../tools/context.ts";
import type { ToolDefinition } from "../tools/define_tool.ts";
import { ToolError } from "../browser/errors.ts";
import { resolvePageCuts } from "../browser/page_cuts.ts";
import { inSecretScope } from "../browser/secret_scope.ts";

/** One call, as the policies see it. */
export interface PolicyCall {
  tool: ToolDefinition;
  /** The arguments as the client sent them (not yet validated). */
  args: unknown;
  ctx: ToolContext;
}

/** The gated call the policies wrap: capability, validation, the handler, rendering. */
export type GatedCall = (
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
) => Promise<CallToolResult>;

const EMPTY_STORE = new SecretStore();

/**
 * Runs `run` (the gated call) with the secrets and audit policies: wraps the
 * handler to substitute placeholders, wraps `ctx.confirm` to record each
 * outcome, masks the result, and appends the call's audit line. Never
 * throws (the audit never fails a call).
 */
export async function withCallPolicies(call: PolicyCall, run: GatedCall): Promise<CallToolResult> {
  const { tool, args, ctx } = call;
  const started = performance.now();
  const time = new Date().toISOString();
  const store = ctx.config.secrets ?? EMPTY_STORE;
  const enabled = ctx.config.capabilities.has("secrets");
  const rawArgs = args && typeof args === "object" ? args as Record<string, unknown> : {};
  const session = "session" in tool.inputSchema.shape
    ? (typeof rawArgs.session === "string" ? rawArgs.session : "default")
    : undefined;
  // Where the call acts: the URL it names, else the tab it acts on.
  let origin = originOf(rawArgs.url) ?? activeOrigin(ctx, session);
  const confirms: AuditConfirm[] = [];
  let ran = false;
  const callId = crypto.randomUUID();
  const audit = auditLogFor(ctx.config.workspace);
  // Masked before redaction caps strings: a cap must never cut a secret in half.
  const auditArgs = redactArgs(store.mask(args));
  // What the call's start and outcome lines both say of it.
  const who = {
    time,
    callId,
    client: ctx.client,
    ...(ctx.clientName ? { clientName: ctx.clientName } : {}),
    ...(session !== undefined ? { session } : {}),
    tool: tool.name,
    args: auditArgs,
  };

  const gated: ToolDefinition = {
    ...tool,
    // Runs after the wrapper validated the arguments: substitute, then act.
    async handler(handlerCtx, parsed) {
      const filled = substituteArgs(parsed, store, { enabled, tool: tool.name });
      const bound = filled === parsed ? new Map() : store.boundIn(JSON.stringify(parsed));
      if (bound.size && !ORIGIN_CHECKED_TOOLS.has(tool.name)) {
        const [name, origins] = [...bound][0]!;
        throw new ToolError(
          "refused",
          `Refused "${tool.name}": {{secret:${name}}} is bound to ${
            origins.join(", ")
          }, and "${tool.name}" cannot check the origin it fills`,
          `fill it with ${[...ORIGIN_CHECKED_TOOLS].join(", ")} on a page of ${origins[0]}`,
          { allowedOrigins: [...origins] },
        );
      }
      ran = true;
      // Written before acting: after a kill -9 mid-call this line is what remains.
      const start: AuditStart = { phase: "start", ...who, ...(origin ? { origin } : {}) };
      await audit.append(store.mask(start));
      const masker = enabled && store.masks ? store : undefined;
      const output = await inSecretScope({ masker, bound }, () => tool.handler(handlerCtx, filled));
      // Masked here, before renderOutput cuts long strings: a cut inside a value would keep a
      // prefix the later mask cannot recognize ("…Zq7-hu…[9 more chars]").
      // Texts the page asked to cut are cut here first, never inside a value.
      const structured = resolvePageCuts(
        output.structured,
        store.masks ? (text) => store.spans(text) : undefined,
      ) as Record<string, unknown>;
      return { ...output, structured: enabled ? store.mask(structured) : structured };
    },
  };
  const callCtx: ToolContext = {
    ...ctx,
    async confirm(request) {
      try {
        const outcome = await ctx.confirm(request);
        confirms.push({
          hook: request.hook,
          answer: outcome.decision,
          ...(outcome.by ? { by: outcome.by } : {}),
        });
        return outcome;
      } catch (e) {
        const by = e instanceof ToolError
          ? (e.details.policy as { by?: unknown } | undefined)?.by
          : undefined;
        confirms.push({
          hook: request.hook,
          answer: "refused",
          reason: e instanceof Error ? e.message : String(e),
          ...(typeof by === "string" ? { by } : {}),
        });
        throw e;
      }
    },
  };

  let result: CallToolResult;
  try {
    result = await run(gated, args, callCtx);
  } catch (e) {
    // The gates never throw by contract; if one does, the call still gets its outcome line.
    console.error(`browxai: ${tool.name} failed outside its handler:`, e);
    result = renderError(
      new ToolError(
        "internal",
        `Internal error in "${tool.name}": ${e instanceof Error ? e.message : String(e)}`,
        "retry the call",
      ),
    );
  }
  if (enabled) result = maskResult(result, store);

  const structured = result.structuredContent ?? {};
  const error = result.isError
    ? structured.error as { code?: string; message?: string } | undefined
    : undefined;
  origin ??= activeOrigin(ctx, session);
  if (error?.code === "internal") {
    // The stack trace went to stderr already; this ties it to the audit line the agent can cite.
    console.error(`browxai: "${tool.name}" failed internally (audit callId ${callId})`);
    result = withCallId(result, callId);
  }
  const entry: AuditEntry = {
    ...who,
    ...decideAudit({
      ran,
      errorCode: result.isError ? error?.code ?? "error" : undefined,
      // Masked before decideAudit caps it (the result is unmasked without "secrets").
      errorMessage: error?.message !== undefined ? store.maskText(error.message) : undefined,
      requiredCapability: typeof structured.requiredCapability === "string"
        ? structured.requiredCapability
        : undefined,
      confirms,
    }),
    ...(confirms.length ? { confirms } : {}),
    ...(origin ? { origin } : {}),
    durationMs: Math.round(performance.now() - started),
    ok: !result.isError,
    ...(result.isError ? { error: error?.code ?? "error" } : {}),
  };
  await audit.append(store.mask(entry));
  return result;
}

/**
 * An `internal` error's result with the call's audit id in its hint: the one
 * handle that ties the agent's report to the audit line and the stderr trace.
 */
function withCallId(result: CallToolResult, callId: string): CallToolResult {
  const structured = result.structuredContent ?? {};
  const error = structured.error as { hint?: string } | undefined;
  const hint = `${
    error?.hint ?? "retry the call"
  }; if it fails again, report it with audit callId ${callId}`;
  return {
    ...result,
    structuredContent: { ...structured, error: { ...error, hint } },
    content: result.content.map((c, i) =>
      i === 0 && c.type === "text" && error?.hint !== undefined
        ? { ...c, text: c.text.replace(`Next: ${error.hint}`, `Next: ${hint}`) }
        : c
    ),
  };
}
