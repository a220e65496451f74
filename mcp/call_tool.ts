/**
 * The one wrapper every tool call passes through (top level today; `batch`
 * and friends later): capability gate, argument validation with errors an
 * agent can act on, error mapping, and rendering into an MCP result.
 *
 * @module
 */
import { z } from "zod";
import { checkCapability } from "../policy/capabilities.ts";
import { withCallPolicies } from "./call_policies.ts";
import type { CallToolResult, ToolContext } from "../tools/context.ts";
import type { ToolDefinition, ToolOutput } from "../tools/define_tool.ts";
import { toToolError } from "../browser/error_map.ts";
import { MAX_FIELD_CHARS, MAX_RAW_CHARS } from "../browser/output.ts";
import { ToolError } from "../browser/errors.ts";
import { inCallScope } from "../browser/sessions/call_scope.ts";

/** Estimated tokens of a text: characters / 4 (stated, not a tokenizer). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? `"${issue.path.join(".")}"` : "arguments";
  if (issue.code === "unrecognized_keys") {
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }`;
  }
  return `${path}: ${issue.message}`;
}

/** Validates arguments; @throws ToolError invalid-argument naming each problem. */
export function parseArgs<S extends z.ZodObject>(
  tool: ToolDefinition<S>,
  args: unknown,
): z.infer<S> {
  const r = z.strictObject(tool.inputSchema.shape).safeParse(args ?? {});
  if (r.success) return r.data as z.infer<S>;
  const problems = r.error.issues.map(describeIssue).join("; ");
  const fields = Object.keys(tool.inputSchema.shape).join(", ");
  throw new ToolError(
    "invalid-argument",
    `Invalid arguments for "${tool.name}": ${problems}`,
    `fix the arguments and call again; "${tool.name}" takes: ${fields || "no arguments"}`,
  );
}

/** Maps any thrown value to a ToolError the agent can act on (see `browser/error_map.ts`). */

function getPath(obj: Record<string, unknown>, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split(".")) {
    v = v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  }
  return v;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  const holder = getPath(obj, keys.slice(0, -1).join("."));
  if (keys.length === 1) obj[keys[0]!] = value;
  else if (holder && typeof holder === "object") {
    (holder as Record<string, unknown>)[keys.at(-1)!] = value;
  }
}

function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = path.split(".");
  let holder: unknown = obj;
  for (const k of keys.slice(0, -1)) {
    holder = holder && typeof holder === "object"
      ? (holder as Record<string, unknown>)[k]
      : undefined;
  }
  if (holder && typeof holder === "object") {
    delete (holder as Record<string, unknown>)[keys.at(-1)!];
  }
}

/**
 * Cuts every string longer than `max` chars, saying how much was cut. Pages
 * control titles, values and URLs: a 6 MB title must not become a 6 MB
 * result (MCP clients drop messages over 10 MB, and with them the server).
 */
export function capStrings(value: unknown, max = MAX_FIELD_CHARS): unknown {
  if (typeof value === "string") {
    return value.length > max ? `${value.slice(0, max)}…[${value.length - max} more chars]` : value;
  }
  if (Array.isArray(value)) return value.map((v) => capStrings(v, max));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, max);
  return out;
}

/**
 * Drops `null`, empty arrays and empty objects (recursively) so the text an
 * agent reads carries only what happened; structuredContent keeps the full
 * shape. `tokensEstimate: null` is kept as the placeholder it is.
 */
export function pruneEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneEmpty);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "tokensEstimate") {
      out[k] = v;
      continue;
    }
    const p = pruneEmpty(v);
    if (p === null || p === undefined) continue;
    if (Array.isArray(p) && p.length === 0) continue;
    if (typeof p === "object" && !Array.isArray(p) && Object.keys(p).length === 0) continue;
    out[k] = p;
  }
  return out;
}

/**
 * Renders a handler's output as an MCP result. The text carries the same
 * data as structuredContent: compact JSON, with long multi-line strings
 * (`rawTextKeys`, dotted paths) moved out of the JSON and appended raw, so a
 * snapshot costs its own tokens and no escaping.
 */
export function renderOutput(output: ToolOutput): CallToolResult {
  const raw = new Map<string, string>();
  for (const path of output.rawTextKeys ?? []) {
    const v = getPath(output.structured, path);
    if (typeof v === "string") {
      raw.set(
        path,
        v.length > MAX_RAW_CHARS
          ? `${v.slice(0, MAX_RAW_CHARS)}\n…[cut: ${v.length - MAX_RAW_CHARS} more chars]`
          : v,
      );
    }
  }
  const structured = capStrings(output.structured) as Record<string, unknown>;
  for (const [path, v] of raw) setPath(structured, path, v);
  const clone = structuredClone(structured);
  for (const path of output.textOmit ?? []) deletePath(clone, path);
  // Long texts go after the JSON, raw: take them out before pruning empties.
  const tails: string[] = [];
  for (const [path, v] of raw) {
    deletePath(clone, path);
    if (v) tails.push(`${path}:\n${v}`);
  }
  const head = pruneEmpty(clone) as Record<string, unknown>;
  const err = structured.error as { message?: string; hint?: string } | null | undefined;
  // A failed action still carries its full result; lead with what went wrong and what to do.
  const lead = output.isError && err?.message ? [`${err.message}\nNext: ${err.hint ?? ""}`] : [];
  let text = [...lead, JSON.stringify(head), ...tails].join("\n");
  if ("tokensEstimate" in structured) {
    structured.tokensEstimate = estimateTokens(text);
    text = text.replace('"tokensEstimate":null', `"tokensEstimate":${structured.tokensEstimate}`);
  }
  const content: CallToolResult["content"] = [{ type: "text", text }];
  for (const img of output.images ?? []) content.push({ type: "image", ...img });
  return {
    content,
    structuredContent: structured,
    ...(output.isError ? { isError: true } : {}),
  };
}

/**
 * Largest tool result browxai sends, in bytes of its JSON (text, structuredContent and images
 * together). MCP clients read one message into a bounded buffer (the TypeScript SDK's stdio
 * client: 10 MiB) and drop the whole connection past it, so a bigger result would not fail one
 * call but end the client's every session.
 */
export const MAX_RESULT_BYTES = 8 * 1024 * 1024;

/** What to do instead of a too-large result, per tool (default: ask for less). */
const SMALLER_HINTS: Record<string, string> = {
  eval_js:
    "return less from the expression (slice the array, pick fields, or JSON.stringify(...).slice(0, N))",
  screenshot:
    'take a smaller one: format "jpeg" with a lower quality, an element (ref), or not fullPage',
  snapshot: "page it: a smaller maxTokens, then offset; or scope it with ref",
  download_get: "read it in smaller pages (maxBytes), continuing with offset",
};

/**
 * `result`, or a `result-too-large` error when its JSON is over {@link MAX_RESULT_BYTES}.
 * Measures UTF-8 bytes only when the UTF-16 length could be over the bound.
 */
export function fitResult(result: CallToolResult, tool: string): CallToolResult {
  const json = JSON.stringify(result);
  // A UTF-16 unit is at most 3 UTF-8 bytes: short results skip the encode.
  if (json.length * 3 <= MAX_RESULT_BYTES) return result;
  const bytes = new TextEncoder().encode(json).length;
  if (bytes <= MAX_RESULT_BYTES) return result;
  return renderError(
    new ToolError(
      "result-too-large",
      `The result of "${tool}" is ${bytes} bytes, over the ${MAX_RESULT_BYTES}-byte limit of one ` +
        "MCP message (clients drop the connection past it)",
      SMALLER_HINTS[tool] ?? "ask for less: narrow the call (a ref, a filter, a limit)",
      { resultBytes: bytes, maxResultBytes: MAX_RESULT_BYTES },
    ),
  );
}

/** Renders a ToolError as an `isError` result. */
export function renderError(error: ToolError): CallToolResult {
  const structured: Record<string, unknown> = {
    ok: false,
    error: { code: error.code, message: error.message, hint: error.hint },
    ...error.details,
  };
  return {
    content: [{ type: "text", text: `${error.message}\nNext: ${error.hint}` }],
    structuredContent: structured,
    isError: true,
  };
}

/** Budget of a call without `timeoutMs`, ms (CDP's own per-command timeout is 30 s). */
const DEFAULT_CALL_BUDGET_MS = 30_000;
/** Slack past a call's `timeoutMs` before the watchdog answers for it, ms. */
const WATCHDOG_GRACE_MS = 5_000;

/** A call's watchdog: fails {@link Watchdog.promise} when the call outlives its budget. */
interface Watchdog {
  /** Rejects with a `timeout` ToolError once the budget is spent (never resolves). */
  promise: Promise<never>;
  /** Runs `work` with the clock stopped: time a human takes to answer is not the page's. */
  pausedWhile<T>(work: () => Promise<T>): Promise<T>;
  stop(): void;
}

/**
 * Answers for a call that outlives its budget (a page stuck in a script
 * loop keeps CDP input commands pending): the agent gets a timeout with a
 * way out instead of a call that never returns.
 */
function startWatchdog(budgetMs: number, name: string): Watchdog {
  let remaining = budgetMs;
  let armedAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pauses = 0;
  let fail: (e: ToolError) => void = () => {};
  const promise = new Promise<never>((_, reject) => fail = reject);
  promise.catch(() => {});
  const arm = () => {
    armedAt = Date.now();
    timer = setTimeout(() => {
      fail(
        new ToolError(
          "timeout",
          `"${name}" did not finish within ${
            Math.round(budgetMs / 1000)
          } s: the page is not responding (a script may be stuck in a loop)`,
          "navigate elsewhere or reload; if the tab stays stuck, close_session and open a new one",
        ),
      );
    }, Math.max(0, remaining));
  };
  arm();
  return {
    promise,
    async pausedWhile(work) {
      if (pauses++ === 0) {
        clearTimeout(timer);
        remaining -= Date.now() - armedAt;
      }
      try {
        return await work();
      } finally {
        if (--pauses === 0) arm();
      }
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * Runs one tool call through every gate. Never throws: every failure is an
 * `isError` result with a next step.
 */
export function callTool(
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  // Secrets and audit (mcp/call_policies.ts) wrap the gates below: they see
  // refused calls too, substitute secrets into the handler's validated
  // arguments, mask the result and write the call's audit line.
  return withCallPolicies({ tool, args, ctx }, gatedCall);
}

/** The gates of {@link callTool}: capability, validation, the handler under its watchdog. */
async function gatedCall(
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const decision = checkCapability(ctx.config.capabilities, tool.capability, tool.name);
  if (!decision.allowed) {
    return renderError(
      new ToolError(
        "capability-required",
        `Refused "${tool.name}": capability "${decision.requiredCapability}" is not enabled`,
        decision.hint,
        { requiredCapability: decision.requiredCapability },
      ),
    );
  }
  try {
    const parsed = parseArgs(tool, args);
    const budget = ((parsed as { timeoutMs?: number }).timeoutMs ?? DEFAULT_CALL_BUDGET_MS) +
      WATCHDOG_GRACE_MS;
    const watchdog = startWatchdog(budget, tool.name);
    const callCtx: ToolContext = {
      ...ctx,
      confirm: (request) =>
        watchdog.pausedWhile(async () => {
          // Hold the session from the question to the end of the call: what the human
          // approves is what runs (no other call moves the tab meanwhile).
          const session = request.session !== undefined
            ? ctx.sessions.list().find((s) => s.id === request.session)
            : undefined;
          await session?.holdForCall();
          return await ctx.confirm(request);
        }),
    };
    const work = inCallScope(() => tool.handler(callCtx, parsed));
    // The abandoned work may still fail later: never let that be unhandled.
    work.catch(() => {});
    try {
      return fitResult(renderOutput(await Promise.race([work, watchdog.promise])), tool.name);
    } finally {
      watchdog.stop();
    }
  } catch (e) {
    const error = refineBySession(
      toToolError(e, { name: tool.name, takesTimeout: "timeoutMs" in tool.inputSchema.shape }),
      tool,
      args,
      ctx,
    );
    if (error.code === "internal") console.error(`browxai: ${tool.name} failed:`, e);
    return renderError(error);
  }
}

/** Codes a dying browser or renderer shows up as at the tab level. */
const TAB_LEVEL = new Set(["page-closed", "page-changed", "page-crashed", "timeout", "internal"]);

/**
 * `error`, or what really happened: `unknown-session` when the call's
 * session was closed while it ran, `browser-crashed` when the call's
 * session lost its browser (its tabs close first, then the socket: a tab
 * that "closed" that way needs a fresh session, not a tab switch), or
 * `page-crashed` when its tab's renderer died (a call waiting on a dead
 * renderer times out instead of failing).
 */
function refineBySession(
  error: ToolError,
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
): ToolError {
  if (!TAB_LEVEL.has(error.code) || !("session" in tool.inputSchema.shape)) return error;
  const name = (args as { session?: unknown } | undefined)?.session;
  const id = typeof name === "string" ? name : "default";
  const session = ctx.sessions.list().find((s) => s.id === id);
  if (!session) {
    // The call got a session (its tab failed under it), and now there is none: closed meanwhile.
    return error.code === "page-closed" || error.code === "page-changed"
      ? new ToolError(
        "unknown-session",
        `Session "${id}" was closed (close_session) while "${tool.name}" ran`,
        id === "default"
          ? "call again: a fresh default session starts"
          : `open_session({ session: "${id}" }) to start it again, or use another session`,
      )
      : error;
  }
  try {
    session.ensureAlive();
  } catch (e) {
    if (e instanceof ToolError) return e;
  }
  const page = session.activePage;
  if (error.code !== "page-crashed" && page?.crashed) {
    return new ToolError(
      "page-crashed",
      `The tab crashed (its renderer process died) during "${tool.name}": ${page.url}`,
      "reload or navigate to recover it, or switch to another tab",
    );
  }
  return error;
}
