/**
 * Typed errors of the CDP client. Messages follow one style: what failed
 * first, details after a colon, values quoted.
 *
 * @module
 */

/** Base class of every error the CDP client raises; `name` is the subclass name. */
export class CdpError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Chromium answered a command with an error object (`{code, message}`). */
export class ProtocolError extends CdpError {
  /** The CDP method that failed, e.g. `"DOM.describeNode"`. */
  readonly method: string;
  /** The JSON-RPC error code Chromium returned (e.g. -32000, -32601). */
  readonly code: number;
  /** Chromium's own message, without our prefix. */
  readonly originalMessage: string;
  constructor(method: string, code: number, originalMessage: string) {
    super(`Protocol error (${method}): ${originalMessage}`);
    this.method = method;
    this.code = code;
    this.originalMessage = originalMessage;
  }
}

/**
 * The target (page, iframe, worker) a session talked to went away. `sent`: the command had
 * gone out and was waiting for its reply when the target went (the browser may have acted on
 * it: an input event whose handler closed the tab); false: refused before it was sent.
 */
export class TargetClosedError extends CdpError {
  readonly sent: boolean;
  constructor(message: string, options?: ErrorOptions & { sent?: boolean }) {
    super(message, options);
    this.sent = options?.sent ?? false;
  }
}

/** The connection to the browser closed; every pending command fails with this. */
export class ConnectionClosedError extends CdpError {}

/**
 * A browser browxai launched itself exited, or never answered, before it
 * could be driven: the executable is likely not a working Chromium.
 */
export class BrowserStartError extends CdpError {}

/** A command, or a wait, ran out of time. */
export class TimeoutError extends CdpError {}

/**
 * A command was abandoned because the caller's `AbortSignal` aborted (the client cancelled,
 * the call's budget ran out). Its name is `"AbortError"`, as the platform's own aborts.
 */
export class AbortError extends CdpError {
  /** The CDP method that was abandoned. */
  readonly method: string;
  /** The signal's reason (`signal.reason`), also the error's `cause`. */
  readonly reason: unknown;
  constructor(method: string, reason: unknown) {
    super(`Aborted: "${method}"`, { cause: reason });
    this.method = method;
    this.reason = reason;
  }
}

/** Messages meaning the target (tab, frame target, session) itself is gone. */
const TAB_GONE = [
  "Target closed",
  "Session with given id not found",
  "No target with given id",
  "Not attached to an active page",
];

/**
 * Messages meaning the document changed under a command: a navigation
 * destroyed its execution context, or a node, frame or remote object it
 * named was replaced or removed.
 */
const DOCUMENT_CHANGED = [
  "Cannot find context with specified id",
  "Execution context was destroyed",
  "Inspected target navigated or closed",
  "No frame with given id",
  "Frame with the given id was not found",
  "No node with given id found",
  "Could not find node with given id",
  "Node with given id does not belong to the document",
  "Could not find object with given id",
  "Invalid remote object id",
  "Node is detached from document",
];

/**
 * What disappeared under a failed command, or undefined when the error is
 * not about something disappearing:
 * - `browser`: the connection closed ({@link ConnectionClosedError});
 * - `tab`: the target or its session went away ({@link TargetClosedError},
 *   "Target closed", "No target with given id", …);
 * - `document`: the page navigated or a node, frame or object it named was
 *   replaced ("Cannot find context with specified id", "No node with given
 *   id found", …).
 */
export function goneKind(error: unknown): "browser" | "tab" | "document" | undefined {
  if (error instanceof ConnectionClosedError) return "browser";
  if (error instanceof TargetClosedError) return "tab";
  if (!(error instanceof ProtocolError)) return undefined;
  const m = error.originalMessage;
  if (TAB_GONE.some((x) => m.includes(x))) return "tab";
  if (DOCUMENT_CHANGED.some((x) => m.includes(x))) return "document";
  return undefined;
}

/**
 * True for errors that mean the target, its document or its execution
 * context disappeared under us (closed tab, navigation, detached frame). Best
 * effort set-up on a fresh target ignores these.
 */
export function isTargetClosedError(error: unknown): boolean {
  return goneKind(error) !== undefined;
}

/** True when the browser connection is gone (crash, exit, socket closed). */
export function isConnectionClosedError(error: unknown): error is ConnectionClosedError {
  return error instanceof ConnectionClosedError;
}

/** True for an {@link AbortError}: the caller's signal abandoned the command. */
export function isAbortError(error: unknown): error is AbortError {
  return error instanceof AbortError;
}

/** True for a {@link TimeoutError}. */
export function isTimeoutError(error: unknown): error is TimeoutError {
  return error instanceof TimeoutError;
}
