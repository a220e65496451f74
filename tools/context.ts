/**
 * What every tool handler gets: the browser model's call context (configuration, the calling
 * client's sessions, the confirm gate, the cancel signal) and a way to call other tools.
 *
 * @module
 */
import type { CallContext } from "../browser/call_context.ts";

/** The per-call context of a tool handler. */
export interface ToolContext extends CallContext {
  /**
   * Calls another tool through the same wrapper as a top-level call (every
   * gate applies); for `batch`. Never throws: failures are `isError` results.
   * `signal`: the calling call's signal, which the inner call's own budget runs inside (the
   * pipeline passes it; a handler calls `dispatch(tool, args)`).
   */
  dispatch(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult>;
  /**
   * `{ capability: [tool, …] }`: the tools of the enabled toolsets that `tools/list` leaves
   * out because their capability is off (`get_config` shows it); absent: not known.
   */
  notListed?: (() => Record<string, string[]>) | undefined;
}

/** An MCP `CallToolResult`. */
export interface CallToolResult {
  [key: string]: unknown;
  content: Array<
    { type: "text"; text: string } | { type: "image"; data: string; mimeType: string }
  >;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
