/**
 * The one call pipeline: every tool call passes through {@link callTool} — top-level calls,
 * and the inner calls of `batch` and `flake_check` (through `ToolContext.dispatch`). It reads
 * top to bottom:
 *
 * 1. **Audit** — who calls, which session, the arguments as sent (placeholders, never values;
 *    filled values redacted), where the call acts.
 * 2. **Policies** — the capability; a registered value in clear in the arguments refused as
 *    guessing, locking secret use (`mcp/secret_guess.ts`); the arguments validated; `{{secret:NAME}}` placeholders
 *    substituted into fill keys (`mcp/secret_args.ts`), bound secrets only into tools that
 *    check the origin they fill.
 * 3. **Gates** — a person's control of the session: while they have it, a mutation is refused
 *    (`human-has-control`, `mcp/human/control_gate.ts`) and does nothing, and one that runs
 *    when they take control stops at its next step; the call's one `AbortSignal` (the client's cancel, `notifications/cancelled`,
 *    combined with the call's budget, `mcp/call_budget.ts`) and the confirm gate, wrapped
 *    once: it stops the budget's clock while a human answers, holds the asked session until
 *    the call ends (what the human approves is what runs), and records each answer for the
 *    audit; likewise the consent channel (`release`), whose channel goes on the audit line.
 * 4. **Handler** — in the call's scope (sessions it used learn of its failure) and its secret
 *    scope (masker, bound secrets); an error is mapped to a `ToolError` with a next step
 *    (`browser/error_map.ts`), refined by what happened to the session meanwhile.
 * 5. **Render** — the session's news since its previous result added once as `sinceLastCall`
 *    (what happened outside its action windows: `browser/since_last_call.ts`), page-side cuts
 *    resolved clear of secrets' values, registered values masked (before any cut), the MCP
 *    result built (`mcp/render.ts`) within one message's size; the refs it carries marked shown
 *    (an action may use only refs some result showed: `browser/snapshot/shown_refs.ts`).
 * 6. **Audit outcome** — one line per call from the typed {@link CallOutcome}, refused calls
 *    included; a call whose handler runs gets a start line first (same `callId`), so a crash
 *    mid-call leaves a trace.
 *
 * @module
 */
import {
  type AuditConfirm,
  type AuditEntry,
  type AuditStart,
  type AuditTarget,
  decideAudit,
} from "../policy/audit.ts";
import { CUT_MARK, redactInvalidArgs, redactToolArgs } from "../policy/audit_redact.ts";
import { checkCapability } from "../policy/capabilities.ts";
import { SecretStore } from "../policy/secrets.ts";
import type { CallToolResult, ToolContext } from "../tools/context.ts";
import type { ToolOutput } from "../tools/define_tool.ts";
import { toToolError } from "../browser/error_map.ts";
import { ToolError } from "../browser/tool_error.ts";
import { resolvePageCuts } from "../browser/page_cuts.ts";
import { inSecretScope } from "../browser/secret_scope.ts";
import { type CallScope, inCallScope, newCallScope } from "../browser/sessions/call_scope.ts";
import type { SinceLastCall } from "../browser/since_last_call.ts";
import { tryParseArgs } from "./args.ts";
import { type SummarizedResult, summarizeResult } from "./console/call_summary.ts";
import { actedOrigin, activeOrigin, auditLogFor } from "./audit_trail.ts";
import { BUDGET_GRACE_MS, CallBudget } from "./call_budget.ts";
import { maskResult, oversize, renderError, renderOutput } from "./render.ts";
import { checkBoundSecrets, secretFills, substituteArgs } from "./secret_args.ts";
import { guessRefusal } from "./secret_guess.ts";
import { humanControlRefusal, stopOnTakeover } from "./human/control_gate.ts";
import type { CallOutcome, ToolCall } from "./call_types.ts";
import { gatedConfirm, gatedConsent, namedTarget } from "./call_human.ts";
import {
  closedWhileRunning,
  keptWaiting,
  markRefsShown,
  markTabBurst,
  refineBySession,
  sessionOf,
  sinceLastCall,
  stopStuckTab,
  type TabBurst,
  tabBurstTimeout,
} from "./call_session.ts";
import { ownConsoleRefusal } from "./human/own_console_gate.ts";
import { noteUnlistedError, noteUnlistedIn } from "./tool_mentions.ts";

export type { CallMetrics, CallOutcome, ToolCall } from "./call_types.ts";

const EMPTY_STORE = new SecretStore();

/**
 * Runs one tool call through every gate (see the module doc). Never throws: every failure is
 * an `isError` result with a next step.
 */
export async function callTool(call: ToolCall): Promise<CallToolResult> {
  const { tool, args, ctx } = call;
  // 1. Audit: who calls, where, with what.
  const started = performance.now();
  call.metrics?.started(tool.name);
  const store = ctx.config.secrets ?? EMPTY_STORE;
  // Results are masked whenever a store is loaded, the capability (filling) on or not: the
  // values a page shows are the operator's secrets either way (red team s17 F3).
  const masking = store.masks;
  const filling = ctx.config.capabilities.has("secrets");
  const rawArgs = args && typeof args === "object" ? args as Record<string, unknown> : {};
  const session = "session" in tool.inputSchema.shape
    ? (typeof rawArgs.session === "string" ? rawArgs.session : "default")
    : undefined;
  let origin = actedOrigin(rawArgs.url) ?? activeOrigin(ctx, session);
  const callId = crypto.randomUUID();
  const audit = auditLogFor(ctx.config.workspace);
  // Parsed once: the audit needs to know whether they fit, the gates need them (or the error).
  const checked = tryParseArgs(tool, args);
  const who = {
    time: new Date().toISOString(),
    callId,
    client: ctx.client,
    ...(ctx.clientName ? { clientName: ctx.clientName } : {}),
    ...(session !== undefined ? { session } : {}),
    tool: tool.name,
    // Masked before redaction caps strings: a cap must never cut a secret in half. Arguments
    // that miss their schema are redacted whole: their shape says nothing of what is a value.
    // Those that fit are logged as parsed: the shape the redaction knows (fill_form's
    // { name: value } object is its list of fields by then).
    args: "parsed" in checked
      ? redactToolArgs(tool.name, store.mask(checked.parsed), {
        // While bound secrets can be filled, what a page may run from its storage is logged as
        // code (stored_code_gate.ts): which script was planted is what the audit is for.
        storedCode: masking && store.bound().length > 0,
      })
      : redactInvalidArgs(store.mask(args)),
  };
  // A string cut to its head and tail (audit_redact.ts cap): marked on the line, never silent.
  const argsCut = CUT_MARK.test(JSON.stringify(who.args)) ? { argsCut: true as const } : {};
  /** What the handler acted on, as resolved (the action runner fills it in). */
  const acted: { target?: AuditTarget } = {};
  const confirms: AuditConfirm[] = [];
  const consent: { channel?: string } = {};

  const outcome = await runGated(call, {
    callId,
    store,
    masking,
    filling,
    confirms,
    shownArgs: who.args,
    checked,
    consent,
    acted,
    onStart: async () => {
      // Written before acting: after a kill -9 mid-call this line is what remains.
      const start: AuditStart = {
        phase: "start",
        ...who,
        ...argsCut,
        ...(origin ? { origin } : {}),
      };
      await audit.append(store.mask(start));
    },
  });

  // 5. Render: the whole result masked (error messages too) when a store is loaded.
  const result = masking ? maskResult(outcome.result, store) : outcome.result;
  // The refs the agent now holds: the ones this result shows (an action may use only those).
  markRefsShown(call, result);

  // 6. Audit outcome, from the typed outcome (never from the rendered text).
  origin ??= activeOrigin(ctx, session);
  const entry: AuditEntry = {
    ...who,
    ...argsCut,
    ...(acted.target ? { target: store.mask(acted.target) } : {}),
    ...decideAudit({
      ran: outcome.ran,
      errorCode: outcome.error?.code,
      // Masked before decideAudit caps it (always: the result is masked only with a store).
      errorMessage: outcome.error
        ? auditedMessage(store.maskText(outcome.error.message))
        : undefined,
      requiredCapability: outcome.error?.requiredCapability,
      confirms,
    }),
    ...(confirms.length ? { confirms } : {}),
    ...(origin ? { origin } : {}),
    ...(consent.channel ? { consent_channel: consent.channel } : {}),
    durationMs: Math.round(performance.now() - started),
    ok: outcome.error === undefined,
    ...(outcome.error ? { error: outcome.error.code } : {}),
  };
  await audit.append(store.mask(entry));
  call.activity?.({
    time: Date.now(),
    session,
    tool: tool.name,
    args: who.args,
    ok: entry.ok,
    summary: resultSummary(result),
    ms: entry.durationMs,
  });
  call.metrics?.finished(tool.name, outcome.error?.code ?? "ok", entry.durationMs / 1000);
  return result;
}

/**
 * An error message as the audit keeps it: a bad argument's quoted string (`got the string
 * "…"`, which may be a value put in the wrong field) replaced by its length.
 */
function auditedMessage(message: string): string {
  return message.replace(
    /got the string ("(?:[^"\\]|\\.)*")/g,
    (_, q: string) => `got a string of ${(JSON.parse(q) as string).length} chars`,
  );
}

/** The console's activity line for a result (what happened, in words; `call_summary.ts`). */
function resultSummary(result: CallToolResult): string {
  return summarizeResult(result as SummarizedResult);
}

/** What {@link runGated} needs from the audit step. */
interface GateDeps {
  /** The call's audit id. */
  callId: string;
  store: SecretStore;
  /** Results are masked (a secrets store with a maskable value is loaded). */
  masking: boolean;
  /** Placeholders are filled (the `secrets` capability). */
  filling: boolean;
  /** Each confirm answer of the call, appended as it comes. */
  confirms: AuditConfirm[];
  /** The arguments as the audit records them: what a human channel may show. */
  shownArgs: unknown;
  /** The arguments parsed against the tool's schema, or why they do not fit. */
  checked: ReturnType<typeof tryParseArgs>;
  /** The channel of the call's consent (`release`), set when it is given. */
  consent: { channel?: string };
  /** Where the action runner notes what the call acted on (the call scope's `acted`). */
  acted: { target?: AuditTarget };
  /** Writes the audit start line; called once, just before the handler runs. */
  onStart(): Promise<void>;
}

/** Steps 2–5 of the pipeline: policies, gates, handler, render. Never throws. */
async function runGated(call: ToolCall, deps: GateDeps): Promise<CallOutcome> {
  const { tool, ctx } = call;
  let ran = false;
  let budget: CallBudget | undefined;
  let scope: CallScope | undefined;
  // The tabs the session's pages open during the call, for a timeout's message.
  let tabBurst: (() => TabBurst | undefined) | undefined;
  let unwatchControl: (() => void) | undefined;
  // Taken at most once: a result refused after it (too large) must not lose the news.
  let news: { taken?: SinceLastCall | undefined } | undefined;
  const takeNews = () => (news ??= { taken: sinceLastCall(call) }).taken;
  try {
    // 2. Policies.
    if (call.refusal) throw call.refusal;
    const decision = checkCapability(ctx.config.capabilities, tool.capability, tool.name);
    if (!decision.allowed) {
      throw new ToolError(
        "capability-required",
        `Refused "${tool.name}": capability "${decision.requiredCapability}" is not enabled`,
        decision.hint,
        { requiredCapability: decision.requiredCapability },
      );
    }
    // A value in clear in the arguments is guessing (before validation: an invalid argument's
    // error quotes it, masked): refused, and secret use locked (secret_guess.ts).
    const guess = guessRefusal(tool.name, call.args, deps.store, {
      callId: deps.callId,
      session: sessionOf(call),
    });
    if (guess) throw guess;
    if ("error" in deps.checked) throw deps.checked.error;
    const parsed = deps.checked.parsed;
    const filled = substituteArgs(parsed, deps.store, {
      enabled: deps.filling,
      tool: tool.name,
    });
    const bound = filled === parsed ? new Map() : deps.store.boundIn(JSON.stringify(parsed));
    checkBoundSecrets(tool.name, bound);

    // 3. Gates: a person who has control of the session first (a mutation does nothing then).
    const held = humanControlRefusal(tool, sessionOf(call), ctx.sessions, ctx.config) ??
      ownConsoleRefusal(tool.name, parsed, sessionOf(call), ctx.sessions, ctx.config);
    if (held) throw held;
    // One signal (client cancel + budget), confirm wrapped once.
    budget = new CallBudget(
      tool.name,
      (parsed as { timeoutMs?: number }).timeoutMs,
      ctx.signal,
      tool.runsInnerCalls ? Infinity : BUDGET_GRACE_MS,
    );
    // Cancelled before it began: the handler never runs.
    budget.signal.throwIfAborted();
    const callCtx: ToolContext = {
      ...ctx,
      signal: budget.signal,
      elapsedMs: () => budget!.elapsedMs,
      confirm: gatedConfirm(ctx, budget, deps.confirms, {
        args: deps.shownArgs,
        target: namedTarget(parsed),
      }),
      consent: ctx.consent && gatedConsent(ctx.consent, budget, deps.consent),
      dispatch: (name, innerArgs) => ctx.dispatch(name, innerArgs, budget!.signal),
    };

    // 4. Handler.
    ran = true;
    tabBurst = markTabBurst(call);
    await deps.onStart();
    const masker = deps.masking ? deps.store : undefined;
    // A session the call uses closed by another call (close_session) ends this one at once,
    // saying so: what it does next would fail on a browser context that is gone.
    const callBudget = budget;
    scope = newCallScope(
      budget.signal,
      (s) => callBudget.abort(closedWhileRunning(tool.name, s.id)),
      { client: ctx.sessions, acted: deps.acted },
    );
    // A person taking control meanwhile ends a mutation at its next step.
    unwatchControl = stopOnTakeover(
      tool,
      sessionOf(call),
      ctx.sessions,
      (e) => callBudget.abort(e),
    );
    const work = inCallScope(
      () =>
        inSecretScope(
          { masker, bound, fills: secretFills(parsed, filled) },
          () => tool.handler(callCtx, filled),
        ),
      { scope },
    );
    // The abandoned work (cancelled, over budget) may still fail later: never unhandled.
    work.catch(() => {});
    const output = await budget.race(work);

    // 5. Render: the session's news, page cuts clear of secrets, masked before renderOutput
    // cuts long strings (a cut inside a value would keep a prefix the later mask cannot
    // recognize).
    const since = takeNews();
    // Hints naming a tool this configuration does not list say what it needs.
    const structured = noteUnlistedIn(
      resolvePageCuts(
        since ? { ...output.structured, sinceLastCall: since } : output.structured,
        deps.store.masks ? (text) => deps.store.spans(text) : undefined,
      ) as Record<string, unknown>,
      ctx.config,
    );
    const shown: ToolOutput = {
      ...output,
      structured: deps.masking ? deps.store.mask(structured) : structured,
    };
    const result = renderOutput(shown);
    const tooLarge = oversize(result, tool.name);
    if (tooLarge) throw tooLarge;
    return { result, ran, ...failureOf(shown) };
  } catch (e) {
    let error = e instanceof ToolError && (e === call.refusal || !ran) ? e : refineBySession(
      toToolError(e, { name: tool.name, takesTimeout: "timeoutMs" in tool.inputSchema.shape }),
      call,
    );
    const waitedFor = [...scope?.waitingFor ?? []];
    const burst = budget?.spent ? tabBurst?.() : undefined;
    if (budget?.spent && waitedFor.length) error = keptWaiting(tool.name, waitedFor[0]!, error);
    else if (budget?.spent) {
      if (burst) error = tabBurstTimeout(tool.name, burst, error);
      await stopStuckTab(call);
    }
    if (error.code === "internal") {
      console.error(`browxai: ${tool.name} failed:`, e);
      // The stack trace went to stderr; the audit callId ties it to the agent's report.
      error = new ToolError(
        error.code,
        error.message,
        `${error.hint}; if it fails again, report it with audit callId ${deps.callId}`,
        error.details,
      );
    }
    error = noteUnlistedError(error, ctx.config);
    return {
      result: renderError(error, ran ? takeNews() : undefined),
      ran,
      error: {
        code: error.code,
        message: error.message,
        ...(typeof error.details.requiredCapability === "string"
          ? { requiredCapability: error.details.requiredCapability }
          : {}),
      },
    };
  } finally {
    unwatchControl?.();
    budget?.dispose();
  }
}

/**
 * The failure a handler reported without throwing: an `isError` output (an ActionResult with
 * `ok: false`), or a result whose `ok` is false though it is not an error (`wait_for` whose
 * condition never held: `ok: false, status: "timeout"`). Its code is the structured `error.code`,
 * else its `status` (`timeout`), else `error`; its message the structured `error.message`, else
 * the `status` said in words.
 */
function failureOf(output: ToolOutput): Pick<CallOutcome, "error"> {
  const s = output.structured;
  if (!output.isError && s.ok !== false) return {};
  const error = s.error as { code?: unknown; message?: unknown } | undefined;
  const status = typeof s.status === "string" && s.status !== "ok" ? s.status : undefined;
  return {
    error: {
      code: typeof error?.code === "string" ? error.code : status ?? "error",
      message: typeof error?.message === "string"
        ? error.message
        : status !== undefined
        ? `the result says ok: false (status "${status}")`
        : "",
    },
  };
}
