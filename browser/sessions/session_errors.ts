/**
 * The errors a session lookup, open or close tells the agent (`session_manager.ts`): a bad
 * name, a name not open, a name already open, a client going away, a profile folder the path
 * guard refuses; and those of one session (`browser_session.ts`): its browser crashed, it is
 * closed, its tab crashed. Each a {@link ToolError} with the next step.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

/** `invalid-argument`: `name` is not a session name (see `SESSION_NAME`). */
export function invalidSessionName(name: string): ToolError {
  return new ToolError(
    "invalid-argument",
    `Invalid session name "${name}": use 1-64 letters, digits, ".", "_" or "-" (no leading dot)`,
    'pick a name like "work" or "test-1"',
  );
}

/** `unknown-session`: `name` is not open; `open` lists the names that are. */
export function unknownSession(name: string, open: string[]): ToolError {
  return new ToolError(
    "unknown-session",
    `Unknown session "${name}"`,
    `open it with open_session({ session: "${name}" }) or use one of: ${
      open.join(", ") || "(none open; omit session to use the default)"
    }`,
  );
}

/** `session-exists`: `name` is open already, in `mode`. */
export function sessionExists(name: string, mode: string): ToolError {
  return new ToolError(
    "session-exists",
    `Session "${name}" is already open (${mode})`,
    `use it as is, or close_session({ session: "${name}" }) first`,
  );
}

/** `refused`: the MCP session is closing, nothing new opens. */
export function clientClosing(name: string): ToolError {
  return new ToolError(
    "refused",
    `Cannot open session "${name}": this MCP session is closing`,
    "start a new MCP session (initialize) and open it there",
  );
}

/** `refused`: the path guard refused profile `name`'s folder (`message`: why). */
export function profileRefused(name: string, message: string): ToolError {
  return new ToolError(
    "refused",
    `Cannot open profile "${name}": ${message}`,
    "the operator must replace the link with a real folder (or remove it); or use another session name",
  );
}

/** `unknown-session`: files written for `name` would outlive it (it is not open). */
export function notOpenForArtifacts(name: string): ToolError {
  return new ToolError(
    "unknown-session",
    `Unknown session "${name}": its artifacts would outlive it`,
    `open_session({ session: "${name}" }) first, or omit session to use the default`,
  );
}

/** `browser-crashed`: session `id` lost its browser (`why`: how). */
export function browserCrashed(id: string, why: string): ToolError {
  return new ToolError(
    "browser-crashed",
    `Browser crashed: session "${id}" lost its browser (${why})`,
    id === "default"
      ? "call the tool again: a fresh default session starts a new browser"
      : `call open_session({ session: "${id}" }) to start it again`,
  );
}

/** `unknown-session`: session `id` is closed (a call came after). */
export function sessionClosed(id: string): ToolError {
  return new ToolError(
    "unknown-session",
    `Session "${id}" is closed`,
    "open it again with open_session",
  );
}

/** `unknown-session`: session `id` was closed (under a call: the reason of its `closedSignal`). */
export function sessionWasClosed(id: string): ToolError {
  return new ToolError(
    "unknown-session",
    `Session "${id}" was closed`,
    "open it again with open_session",
  );
}

/** `page-crashed`: the renderer of the tab showing `url` died. */
export function tabCrashed(url: string): ToolError {
  return new ToolError(
    "page-crashed",
    `The tab crashed (its renderer process died): ${url}`,
    "reload or navigate to recover it, or switch to another tab",
  );
}

/**
 * `timeout`: the active tab's page is stopped by a dialog Chromium cannot answer (`note`:
 * `SessionDialogs.blockedNote`); reading or acting on it would wait out the call.
 */
export function pageBlocked(note: string): ToolError {
  return new ToolError(
    "timeout",
    `The page cannot answer: ${note.replace(/^\((.*)\)$/, "$1")}`,
    "navigate to another URL to leave the page (reloading the same URL has crashed Chromium after such dialogs), or open another tab",
  );
}
