/**
 * Thrown values to errors an agent can act on ({@link toToolError}): every
 * failure that reaches the call wrapper gets a precise code and a next step.
 * `internal` is the last resort, for a failure nothing here recognises (a
 * bug); its hint says to retry, and the call wrapper adds the audit callId
 * to report.
 *
 * @module
 */
import { ConnectionClosedError, goneKind, ProtocolError, TimeoutError } from "../cdp/errors.ts";
import { ToolError } from "./tool_error.ts";

/** What the mapping knows of the call that failed. */
export interface FailedCall {
  /** The tool's name, quoted in messages. */
  name: string;
  /** The tool takes `timeoutMs` (so raising it is a way out). */
  takesTimeout?: boolean;
}

/** Chromium's messages for a value it cannot hand back as JSON (`returnByValue`). */
const NOT_JSON = ["Object reference chain is too long", "Object couldn't be returned by value"];

/** Chromium's messages for an element without a box to act on or capture. */
const NO_BOX = [
  "Could not compute box model",
  "Node does not have a layout object",
  "Could not compute content quads",
];

const TABS_HINT =
  'call again: the session acts in its active tab now (tabs({ action: "list" }) shows which; a page that closes its own popup moves it back), or navigate to open a new one';

/** A CDP error Chromium answered with (not a disappearance, not a timeout) as a ToolError. */
function fromProtocol(e: ProtocolError, call: FailedCall): ToolError {
  const m = e.originalMessage;
  if (NOT_JSON.some((x) => m.includes(x))) {
    return new ToolError(
      "not-json",
      `The value cannot be returned as JSON (a DOM node, window, a cyclic object or a Symbol): ${m}`,
      "return plain data instead, e.g. el.textContent, el.href, or JSON.parse(JSON.stringify(value)) for plain objects",
    );
  }
  if (NO_BOX.some((x) => m.includes(x))) {
    return new ToolError(
      "not-visible",
      `The element has no box on the page (hidden, not rendered, or zero-sized): ${m}`,
      "take a snapshot and pick a visible element, or make it visible first (open its menu, scroll)",
    );
  }
  if (m.includes("Cannot navigate to invalid URL")) {
    return new ToolError(
      "invalid-argument",
      `Chromium refused the URL "${call.name}" navigates to: ${m}`,
      "pass an absolute http(s) URL, e.g. https://example.com/",
    );
  }
  if (e.code === -32602 || m.startsWith("Invalid parameters")) {
    const field = /params\.(\w+)/.exec(m)?.[1];
    return new ToolError(
      "invalid-argument",
      `Chromium refused ${
        field ? `the value of "${field}"` : "a value"
      } "${call.name}" passed on (${e.method}): ${m}`,
      "check the arguments (ranges, and formats such as URLs, keys and names) and call again",
    );
  }
  if (e.code === -32601 || (/wasn't found|not found/i.test(m) && /method/i.test(m))) {
    return new ToolError(
      "browser-unavailable",
      `This browser does not support ${e.method}, which "${call.name}" needs: ${m}`,
      "use a current Chrome or Chromium (--browser or BROWX_BROWSER); an attached browser may be too old",
    );
  }
  return new ToolError(
    "internal",
    `Chromium refused ${e.method} during "${call.name}": ${m}`,
    "take a new snapshot and retry the call",
  );
}

/** A Deno file-system error (the path is in its message) as a ToolError, or undefined. */
function fromFileSystem(e: unknown, call: FailedCall): ToolError | undefined {
  const what = `"${call.name}" could not use the file`;
  const msg = e instanceof Error ? e.message : "";
  if (e instanceof Deno.errors.IsADirectory) {
    return new ToolError("invalid-argument", `${what}: ${msg}`, "give a file path, not a folder");
  }
  if (e instanceof Deno.errors.NotADirectory) {
    return new ToolError(
      "invalid-argument",
      `${what}: ${msg}`,
      "a part of the path is a file, not a folder: fix the path",
    );
  }
  if (e instanceof Deno.errors.NotFound) {
    return new ToolError(
      "not-found",
      `${what}: ${msg}`,
      "check the path (relative to the workspace); folders are not created for you",
    );
  }
  if (e instanceof Deno.errors.AlreadyExists) {
    return new ToolError("invalid-argument", `${what}: ${msg}`, "pick another name");
  }
  if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
    return new ToolError(
      "refused",
      `${what}: ${msg}`,
      "the server's user may not read or write it: pick another path in the workspace",
    );
  }
  return undefined;
}

/**
 * Maps any thrown value to a ToolError the agent can act on.
 *
 * - CDP: connection closed → `browser-crashed`; "Target crashed" →
 *   `page-crashed`; target or session gone → `page-closed`; context, node,
 *   frame or object gone → `page-changed`; {@link TimeoutError} → `timeout`
 *   naming the CDP method; values not returnable as JSON → `not-json`; no
 *   box → `not-visible`; invalid parameters → `invalid-argument` (naming the
 *   field); unknown method → `browser-unavailable`.
 * - File system (`Deno.errors.*`): `invalid-argument`, `not-found`, `refused`.
 * - Anything else: `internal`, hint "retry the call".
 */
export function toToolError(e: unknown, call: FailedCall = { name: "the call" }): ToolError {
  if (e instanceof ToolError) return e;
  if (e instanceof ConnectionClosedError) {
    return new ToolError(
      "browser-crashed",
      `Browser crashed: ${e.message}`,
      "call the tool again to start a fresh session (or open_session for a named one)",
    );
  }
  if (e instanceof Error && e.message.includes("Target crashed")) {
    return new ToolError(
      "page-crashed",
      "The tab crashed (its renderer process died) during the call",
      "reload or navigate to recover it, or switch to another tab",
    );
  }
  const gone = goneKind(e);
  if (gone === "tab") {
    return new ToolError(
      "page-closed",
      // Chromium's own words ("Cannot send …: target closed") say nothing more to an agent.
      `The tab closed during "${call.name}": nothing more was done in it`,
      TABS_HINT,
    );
  }
  if (gone === "document") {
    return new ToolError(
      "page-changed",
      `The page changed under "${call.name}" (it navigated, or the element or frame was replaced): ${
        (e as ProtocolError).originalMessage
      }`,
      "take a new snapshot and call again with fresh refs",
    );
  }
  if (e instanceof TimeoutError) {
    return new ToolError(
      "timeout",
      `"${call.name}" timed out: the browser did not answer in time (${e.message})`,
      `the page may be busy or stuck in a script: call again${
        call.takesTimeout ? " with a larger timeoutMs" : ""
      }; if it stays stuck, reload or navigate, or close_session`,
    );
  }
  if (e instanceof ProtocolError) return fromProtocol(e, call);
  const fs = fromFileSystem(e, call);
  if (fs) return fs;
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ToolError(
    "internal",
    `Internal error in "${call.name}": ${message}`,
    "retry the call",
  );
}
