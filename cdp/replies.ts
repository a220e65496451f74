/**
 * The one registry of CDP calls in flight, shared by both transports (WebSocket and pipe):
 * command ids, the pending call of each with its time budget and abort signal, and routing of
 * one incoming message to its caller or to the event handler. The wires only frame bytes; the
 * connection above only routes events and refuses calls to closed sessions.
 *
 * @module
 */
import { AbortError, ConnectionClosedError, ProtocolError, TimeoutError } from "./errors.ts";

/** Options of one call on the wire. */
export interface CallOptions {
  /** The flat session to send on; undefined: the browser session. */
  sessionId?: string | undefined;
  /** Time budget in ms; past it the call fails with {@link TimeoutError} naming the method. */
  timeoutMs: number;
  /**
   * The caller's cancel: when it aborts, the call fails at once with {@link AbortError} (its
   * `reason` the signal's) and is forgotten, so a late reply is dropped.
   */
  signal?: AbortSignal | undefined;
}

/** One message from the browser: a reply (`id`) or an event (`method`). */
interface Incoming {
  id?: number;
  method?: string;
  params?: unknown;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: string };
}

/** A call in flight. Settling it (either way) forgets it, its timer and its abort listener. */
interface Pending {
  method: string;
  sessionId: string | undefined;
  resolve(result: Record<string, unknown>): void;
  fail(error: Error): void;
}

/** Calls in flight on one wire, by id. */
export class PendingCalls {
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #closedReason: string | undefined;

  /** How many calls wait for a reply. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Files a call and hands its JSON text to `write`, which reports a failed write with
   * `failed` (the call then fails with {@link ConnectionClosedError}). The slot exists before
   * the text leaves, so no reply can beat it.
   *
   * Every failure carries the caller's stack (made here, at call time).
   *
   * @returns the call's result.
   * @throws ProtocolError (the browser answered with an error) | TimeoutError (past
   *   `timeoutMs`, message `Timed out after N ms: "Method"`) | AbortError (`signal` aborted) |
   *   ConnectionClosedError (the wire failed or closed) | whatever {@link failSession} gave.
   */
  call(
    method: string,
    params: object | undefined,
    options: CallOptions,
    write: (text: string, failed: (error: Error) => void) => void,
  ): Promise<Record<string, unknown>> {
    // Made here so the stack shows who sent the command.
    const callError = new Error();
    const stamp = (error: Error): Error => {
      error.stack = `${error.name}: ${error.message}${
        callError.stack?.slice(callError.stack.indexOf("\n")) ?? ""
      }`;
      return error;
    };
    if (this.#closedReason !== undefined) {
      return Promise.reject(
        stamp(new ConnectionClosedError(`Cannot send "${method}": ${this.#closedReason}`)),
      );
    }
    const { sessionId, signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(stamp(new AbortError(method, signal.reason)));
    const id = this.#nextId++;
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => entry.fail(new AbortError(method, signal?.reason));
      const timer = setTimeout(
        () => entry.fail(new TimeoutError(`Timed out after ${timeoutMs} ms: "${method}"`)),
        timeoutMs,
      );
      const forget = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const entry: Pending = {
        method,
        sessionId,
        resolve: (result) => {
          forget();
          resolve(result);
        },
        fail: (error) => {
          forget();
          reject(stamp(error));
        },
      };
      this.#pending.set(id, entry);
      signal?.addEventListener("abort", onAbort, { once: true });
      write(JSON.stringify({ id, method, params: params ?? {}, sessionId }), (error) => {
        if (this.#pending.get(id) !== entry) return;
        entry.fail(new ConnectionClosedError(`Cannot send "${method}": ${error.message}`));
      });
    });
  }

  /**
   * Call `id`'s reply could not be read whole (over the wire's size cap, skipped): its caller
   * gets a {@link ProtocolError} saying so, as if the browser had refused; the wire goes on.
   */
  answerError(id: number, message: string): void {
    const p = this.#pending.get(id);
    p?.fail(new ProtocolError(p.method, -32000, message));
  }

  /**
   * Fails the calls pending on one session with `error()` (e.g. its target detached or its
   * renderer crashed: they will never be answered). Calls on other sessions go on.
   */
  failSession(sessionId: string, error: () => Error): void {
    for (const p of [...this.#pending.values()]) if (p.sessionId === sessionId) p.fail(error());
  }

  /**
   * The wire closed: every call still waiting fails with {@link ConnectionClosedError}
   * (`Connection closed: <reason>`), later calls with `Cannot send "M": <reason>`. The first
   * reason stays; idempotent.
   */
  close(reason: string): void {
    this.#closedReason ??= reason;
    for (const p of [...this.#pending.values()]) {
      p.fail(new ConnectionClosedError(`Connection closed: ${reason}`));
    }
  }

  /**
   * Routes one message: a reply to its caller (unknown ids are dropped: their caller gave up
   * or timed out), an event to `onEvent`.
   *
   * @returns undefined, or why the message could not be read (not JSON): the wire should then
   *   end, since a lost reply would leave its caller waiting.
   */
  deliver(
    text: string,
    onEvent: ((method: string, params: unknown, sessionId: string | undefined) => void) | undefined,
  ): string | undefined {
    let m: Incoming;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return `unreadable message from the browser: ${(e as Error).message}`;
    }
    if (m.id !== undefined) {
      const p = this.#pending.get(m.id);
      if (!p) return undefined;
      if (m.error) p.fail(new ProtocolError(p.method, m.error.code, m.error.message));
      else p.resolve(m.result ?? {});
    } else if (m.method) {
      onEvent?.(m.method, m.params, m.sessionId);
    }
    return undefined;
  }
}
