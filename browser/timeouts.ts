/**
 * Time budgets of calls into the browser model.
 *
 * @module
 */
import { ToolError } from "./tool_error.ts";

/** Default `timeoutMs` of acting tools, ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Largest `timeoutMs` a tool accepts, ms. */
export const MAX_TIMEOUT_MS = 30_000;

/**
 * What is left of a call's `timeoutMs` once it has its session's turn, ms: the time it
 * waited for another call of the session to finish is spent (the browser's start is not:
 * that is the server's own set-up, within the call's grace).
 *
 * @param waitedMs How long the call waited for the turn, ms.
 * @throws ToolError `timeout` when nothing is left: nothing was done.
 */
export function leftAfterTurn(tool: string, timeoutMs: number, waitedMs: number): number {
  const left = timeoutMs - Math.max(0, waitedMs);
  if (left > 0) return left;
  throw new ToolError(
    "timeout",
    `"${tool}" waited ${
      Math.round(waitedMs)
    } ms for the session's turn (another call of the session held it): its timeoutMs of ${timeoutMs} ms was spent; nothing was done`,
    "call again once the other call has answered, with a larger timeoutMs, or use another " +
      "session (open_session)",
  );
}
