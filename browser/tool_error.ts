/**
 * Errors a tool reports to the agent: each has a stable `code`, a message
 * saying what was wrong, and a `hint` saying what to do next.
 *
 * @module
 */

/** Stable error codes agents can branch on. */
export type ToolErrorCode =
  | "invalid-argument"
  | "unknown-session"
  | "session-exists"
  | "ref-gone"
  | "not-found"
  | "not-visible"
  | "not-enabled"
  | "not-editable"
  | "covered"
  | "not-actionable"
  /**
   * A declared submission (`submits: true`, `fill` with `submit`) did not leave: the browser's
   * validation stopped the form. The control was clicked; `invalid` names each field with its
   * message, so the fix is a value, not a retry of the click.
   */
  | "form-invalid"
  | "timeout"
  | "navigation-failed"
  | "refused"
  | "blocked-by-policy"
  | "download-blocked"
  | "capability-required"
  | "browser-crashed"
  | "browser-unavailable"
  | "page-closed"
  | "page-crashed"
  /** The page navigated, or a node, frame or object a call used was replaced, mid-call. */
  | "page-changed"
  | "eval-error"
  | "not-json"
  | "expired"
  /** `flake_check`: no run passed (some passing is a flake report, not an error). */
  | "all-runs-failed"
  /** The result would be bigger than one MCP message a client takes (`MAX_RESULT_BYTES`). */
  | "result-too-large"
  /** The client cancelled the call (`notifications/cancelled`); the session is free again. */
  | "cancelled"
  /** `ask_human`, `highlight`: nobody can see the session (headless, no console viewer). */
  | "unattended"
  /**
   * A person has control of the session (they took over in the web console, or the agent
   * called `takeover`): agent mutations do nothing until they hand back (or `release` is granted).
   */
  | "human-has-control"
  /**
   * The server has no room for another browser session now (`BROWX_MAX_SESSIONS` reached and
   * the queue full or the wait over), or it is shutting down (draining).
   */
  | "busy"
  | "internal";

/** A failure the agent can act on; rendered as an `isError` tool result. */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly hint: string;
  readonly details: Record<string, unknown>;
  constructor(
    code: ToolErrorCode,
    message: string,
    hint: string,
    details: Record<string, unknown> = {},
  ) {
    super(cutMiddle(message));
    this.name = "ToolError";
    this.code = code;
    this.hint = cutMiddle(hint);
    this.details = details;
  }
}

/** Longest message or hint an error carries, characters (a 2 MB selector echoed in full was). */
const MAX_ERROR_TEXT = 2000;

/** `text` cut in its middle to {@link MAX_ERROR_TEXT}, saying how much went. */
function cutMiddle(text: string): string {
  if (text.length <= MAX_ERROR_TEXT) return text;
  const cut = text.length - MAX_ERROR_TEXT;
  return `${text.slice(0, 1400)}… (${cut} characters cut) …${text.slice(-600 + 40)}`;
}

/** A caller's string as an error message shows it: quoted, at most 80 characters. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
