/**
 * Whether a session is alive: running, closed, or with its browser gone under it (crashed),
 * and whether the agent was told of the crash yet.
 *
 * @module
 */
import { ConnectionClosedError } from "../../cdp/errors.ts";
import { ToolError } from "../tool_error.ts";
import { browserCrashed, sessionClosed, sessionWasClosed } from "./session_errors.ts";

/** One session's life: closed, crashed, the crash told. */
export class SessionLife {
  readonly #id: string;
  #crashed: string | undefined;
  /** The agent was told the browser crashed (by a failed call or {@link ensureAlive}). */
  #crashReported = false;
  #closed = false;
  /** Aborted when the session is closed (not when its browser crashed under it). */
  readonly #closing = new AbortController();

  /** `id`: the session's, for error messages. */
  constructor(id: string) {
    this.#id = id;
  }

  /** The session's browser went away (`reason`); no crash once the session is closed. */
  browserClosed(reason: string): void {
    if (!this.#closed) this.#crashed = reason;
  }

  /** True when the browser went away under the session. */
  get crashed(): boolean {
    return this.#crashed !== undefined;
  }

  /** True once a call told the agent that this session's browser crashed. */
  get crashReported(): boolean {
    return this.#crashReported;
  }

  /**
   * A call that used this session failed with `error`: a lost connection to
   * this session's browser is reported to the agent as `browser-crashed`
   * (mcp/pipeline.ts), so the crash counts as told. Called by the call scope.
   */
  callFailed(error: unknown): void {
    const crash = error instanceof ConnectionClosedError ||
      (error instanceof ToolError && error.code === "browser-crashed");
    // The agent heard of the crash now, even when the browser's pipe has not closed yet (its
    // tabs go first): the next call must not tell it again.
    if (crash) this.#crashReported = true;
  }

  /** True after {@link close}. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Aborted as {@link close} runs (reason: an `unknown-session` ToolError), unless the
   * browser had crashed: calls that use the session end at once instead of failing on a
   * context that is going away (`browser/sessions/call_scope.ts`).
   */
  get closedSignal(): AbortSignal {
    return this.#closing.signal;
  }

  /** Fails with `browser-crashed` when the browser is gone (the crash then counts as told). */
  ensureAlive(): void {
    if (this.#crashed !== undefined) {
      this.#crashReported = true;
      throw browserCrashed(this.#id, this.#crashed);
    }
    if (this.#closed) {
      throw sessionClosed(this.#id);
    }
  }

  /** Marks the session closed (aborting {@link closedSignal}); false when it was already. */
  close(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    if (this.#crashed === undefined) {
      this.#closing.abort(sessionWasClosed(this.#id));
    }
    return true;
  }
}
