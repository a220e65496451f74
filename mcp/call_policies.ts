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
import { join } from "node:path";
import {
  type AuditConfirm,
  type AuditEntry,
  AuditLog,
  type AuditStart,
  decideAudit,
  redactArgs,
  REDACTED_KEYS,
} from "../policy/audit.ts";
import { hasPlaceholder, SecretStore, UnknownSecretError } from "../policy/secrets.ts";
import type { CallToolResult } from "../tools/context.ts";
import { renderError } from "./call_tool.ts";
import type { ToolContext } from "../tools/context.ts";
import type { ToolDefinition } from "../tools/define_tool.ts";
import { ToolError } from "../browser/errors.ts";
import { resolvePageCuts } from "../browser/page_cuts.ts";
import { inSecretScope } from "../browser/secret_scope.ts";

/** Argument keys whose strings may carry `{{secret:NAME}}` (the same keys the audit redacts). */
export const FILL_KEYS: readonly string[] = REDACTED_KEYS;

/**
 * Tools whose fill-key arguments are not filled: `wait_for`'s `text` is
 * matched against the page (a placeholder there would test a guess), and
 * `batch`/`flake_check` hand their inner calls' placeholders to those calls,
 * which substitute (and check) them themselves.
 */
const NOT_FILLED: Readonly<Record<string, "match" | "inner">> = {
  wait_for: "match",
  batch: "inner",
  flake_check: "inner",
};

/**
 * Tools that check the origin of every frame they fill (see
 * `browser/secret_scope.ts`): only these may fill a secret bound to origins.
 */
export const ORIGIN_CHECKED_TOOLS: ReadonlySet<string> = new Set([
  "fill",
  "type",
  "select",
  "fill_form",
  "set_editor",
]);

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
 * `args` with every `{{secret:NAME}}` under a {@link FILL_KEYS} key replaced
 * by its value (a copy; `args` is not changed). Returns `args` itself when
 * it holds no placeholder.
 *
 * @throws ToolError `capability-required` (`requiredCapability: "secrets"`)
 *   when `enabled` is false and any string holds a placeholder;
 *   `invalid-argument` for a placeholder outside a fill key, or an unknown
 *   name (the message lists the known names, never values).
 */
export function substituteArgs<T>(
  args: T,
  store: SecretStore,
  options: { enabled: boolean; tool: string },
): T {
  if (NOT_FILLED[options.tool] === "inner") return args;
  const walk = (value: unknown, path: string[]): unknown => {
    if (typeof value === "string") {
      if (!hasPlaceholder(value)) return value;
      const where = `"${path.join(".") || "arguments"}"`;
      if (!options.enabled) {
        throw new ToolError(
          "capability-required",
          `Refused "${options.tool}": ${where} uses {{secret:…}}, and the "secrets" capability is not enabled`,
          'the operator can add "secrets" to BROWX_CAPABILITIES (with BROWX_SECRETS naming the file)',
          { requiredCapability: "secrets" },
        );
      }
      const key = path.findLast((p) => !/^\d+$/.test(p));
      if (NOT_FILLED[options.tool] === "match") {
        throw new ToolError(
          "invalid-argument",
          `{{secret:…}} is refused in ${where} of "${options.tool}": it is matched against ` +
            "the page, never filled (masked text shows [secret:NAME] instead)",
          "wait for other text, or for the field by ref or selector",
        );
      }
      if (key === undefined || !FILL_KEYS.includes(key)) {
        throw new ToolError(
          "invalid-argument",
          `{{secret:…}} is only filled into ${
            FILL_KEYS.map((k) => `"${k}"`).join(", ")
          } arguments, not into ${where}`,
          `pass the placeholder as the value to fill or type (e.g. fill({ ref, value: "{{secret:NAME}}" }))`,
        );
      }
      try {
        return store.substitute(value);
      } catch (e) {
        if (!(e instanceof UnknownSecretError)) throw e;
        throw new ToolError(
          "invalid-argument",
          `${e.message} (in ${where})`,
          e.known.length
            ? `use one of: ${e.known.map((n) => `{{secret:${n}}}`).join(", ")}`
            : "the operator registers secrets in a NAME=value file named by BROWX_SECRETS",
        );
      }
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, String(i)]));
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, [...path, k]);
    return out;
  };
  // Most calls carry no placeholder: hand the handler its arguments untouched.
  return anyPlaceholder(args) ? walk(args, []) as T : args;
}

function anyPlaceholder(value: unknown): boolean {
  if (typeof value === "string") return hasPlaceholder(value);
  if (!value || typeof value !== "object") return false;
  return Object.values(value).some(anyPlaceholder);
}

/** A copy of `result` with every registered value masked (image data excepted). */
export function maskResult(result: CallToolResult, store: SecretStore): CallToolResult {
  const { content, ...rest } = result;
  return {
    ...store.mask(rest),
    content: content.map((c) => c.type === "text" ? { ...c, text: store.maskText(c.text) } : c),
  };
}

const auditLogs = new Map<string, AuditLog>();

/** The audit log of a workspace (one per folder, so its lines stay in call order). */
export function auditLogFor(workspace: string): AuditLog {
  const dir = join(workspace, "audit");
  let log = auditLogs.get(dir);
  if (!log) auditLogs.set(dir, log = new AuditLog(dir));
  return log;
}

function originOf(url: unknown): string | undefined {
  if (typeof url !== "string" || url === "" || url === "about:blank") return undefined;
  try {
    const u = new URL(url);
    // data:, file:, about: have no host: their scheme is what was acted on.
    return u.origin !== "null" ? u.origin : u.protocol;
  } catch {
    return undefined;
  }
}

function activeOrigin(ctx: ToolContext, session: string | undefined): string | undefined {
  if (session === undefined) return undefined;
  // list() never opens a session: auditing must not start a browser.
  const s = ctx.sessions.list().find((x) => x.id === session);
  return originOf(s?.activePage?.url);
}

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

/**
 * Wraps the confirm gate for questions a page raises outside any call (a page using a
 * granted permission: hook `page_permission`) so that each answer gets its own audit line:
 * `tool` is `page:<api>` (e.g. `page:getCurrentPosition`), `args` `{ summary }`, the hook's
 * outcome in `confirms`, `decision` `asked` or `refused`.
 */
export function auditedOutsideCalls(
  confirm: ToolContext["confirm"],
  who: Pick<ToolContext, "client" | "clientName" | "config">,
): ToolContext["confirm"] {
  return async (request) => {
    const time = new Date().toISOString();
    const started = performance.now();
    const write = (c: AuditConfirm) =>
      auditLogFor(who.config.workspace).append({
        time,
        client: who.client,
        ...(who.clientName ? { clientName: who.clientName } : {}),
        ...(request.session !== undefined ? { session: request.session } : {}),
        tool: `page:${request.tool}`,
        args: { summary: request.summary },
        ...decideAudit({ ran: true, confirms: [c] }),
        confirms: [c],
        ...(request.origin ? { origin: request.origin } : {}),
        durationMs: Math.round(performance.now() - started),
        ok: c.answer !== "refused",
      }).catch(() => {});
    try {
      const outcome = await confirm(request);
      await write({
        hook: request.hook,
        answer: outcome.decision,
        ...(outcome.by ? { by: outcome.by } : {}),
      });
      return outcome;
    } catch (e) {
      await write({
        hook: request.hook,
        answer: "refused",
        reason: e instanceof Error ? e.message : String(e),
      });
      throw e;
    }
  };
}
