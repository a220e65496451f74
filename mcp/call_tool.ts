/**
 * The one wrapper every tool call passes through (top level today; `batch`
 * and friends later): capability gate, argument validation with errors an
 * agent can act on, error mapping, and rendering into an MCP result.
 *
 * @module
 */
import { checkCapability } from "../policy/capabilities.ts";
import { withCallPolicies } from "./call_policies.ts";
import type { CallToolResult, ToolContext } from "../tools/context.ts";
import type { ToolDefinition } from "../tools/define_tool.ts";
import { toToolError } from "../browser/error_map.ts";
import { ToolError } from "../browser/errors.ts";
import { inCallScope } from "../browser/sessions/call_scope.ts";
import { parseArgs } from "./args.ts";
import { DEFAULT_CALL_BUDGET_MS, startWatchdog, WATCHDOG_GRACE_MS } from "./call_budget.ts";
import { fitResult, renderError, renderOutput } from "./render.ts";

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
