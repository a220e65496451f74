/**
 * The types of the one call pipeline (`pipeline.ts`): a call as it comes in, what became of it,
 * and who hears of it.
 *
 * @module
 */
import type { CallToolResult, ToolContext } from "../tools/context.ts";
import type { ToolDefinition } from "../tools/define_tool.ts";
import type { ToolError } from "../browser/tool_error.ts";
import type { ActivityEntry } from "./console/hub.ts";

/** What became of one call: what the audit line and the client are told. */
export interface CallOutcome {
  /** The MCP result sent to the client. */
  result: CallToolResult;
  /** Whether the handler ran (a refused or invalid call never reaches it). */
  ran: boolean;
  /** The failure, when the call failed: its code and (unmasked) message. */
  error?: { code: string; message: string; requiredCapability?: string };
}

/** One call as the pipeline takes it. */
export interface ToolCall {
  /** The tool called. */
  tool: ToolDefinition;
  /** The arguments as the client sent them (not yet validated). */
  args: unknown;
  /** The calling client's context (its signal is the client's cancel, if any). */
  ctx: ToolContext;
  /**
   * Refuse the call with this error before any gate (a tool that is not served here): it is
   * still audited like any call.
   */
  refusal?: ToolError;
  /**
   * The web console's activity stream: told each finished call (args redacted as in the
   * audit, a one-line summary of the result). Absent when no console hub exists.
   */
  activity?: ((entry: Omit<ActivityEntry, "seq" | "client">) => void) | undefined;
  /** Told when each call starts and ends (Prometheus metrics, drain): see {@link CallMetrics}. */
  metrics?: CallMetrics | undefined;
}

/** What the metrics hear of each call (inner calls of `batch` too). */
export interface CallMetrics {
  started(tool: string): void;
  /** `outcome`: `ok`, or the error code (`timeout`, `ref-gone`, …); `seconds`: its duration. */
  finished(tool: string, outcome: string, seconds: number): void;
}
