/**
 * The CDP connection: one typed `send` over a {@link CdpTransport} for the
 * browser session and every flat session, and typed events. It routes: events
 * to their listeners by session, calls to the transport, which owns the calls
 * in flight (ids, timeouts, aborts); it fails a session's calls when the
 * session goes away.
 *
 * @module
 */
import { ConnectionClosedError, TargetClosedError } from "./errors.ts";
import type { CdpTransport } from "./transport.ts";
import type {
  CdpEvent,
  CdpEventArgs,
  CdpEventName,
  CdpMethod,
  CdpParams,
  CdpResult,
} from "./types.ts";

/** Options of one command. */
export interface SendOptions {
  /** Time budget in ms; the command fails with `TimeoutError` after it. Default: the connection's. */
  timeoutMs?: number | undefined;
  /**
   * The caller's cancel: when it aborts, the command fails at once with `AbortError` (carrying
   * `signal.reason`) and a late reply is dropped. Chromium may still carry the command out.
   */
  signal?: AbortSignal | undefined;
}

/** Options of {@link Connection}. */
export interface ConnectionOptions {
  /** Default per-command timeout in ms. @default 30000 */
  defaultTimeoutMs?: number;
}

type Handler = (params: unknown, sessionId: string | undefined) => void;

/** Removes a listener; returned by every `on`. */
export type Unsubscribe = () => void;

/**
 * One connection to a browser. Commands are sent with {@link Connection.send}
 * (browser session) or through a {@link CdpSession} (flat session). Events are
 * dispatched by method name and session id.
 *
 * Every failure is typed: `ProtocolError` when Chromium answers with an
 * error, `TimeoutError` after the per-call budget, `AbortError` when the call's
 * signal aborts, {@link TargetClosedError} when the session detaches mid-call,
 * {@link ConnectionClosedError} when the connection closes. Errors carry the
 * caller's stack.
 */
export class Connection {
  #transport: CdpTransport;
  #defaultTimeoutMs: number;
  #handlers = new Map<string, Set<Handler>>();
  #sessions = new Map<string, CdpSession>();
  #closedReason: string | undefined;
  #closed: Promise<string>;
  #resolveClosed!: (reason: string) => void;

  constructor(transport: CdpTransport, options: ConnectionOptions = {}) {
    this.#transport = transport;
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.#closed = new Promise((resolve) => this.#resolveClosed = resolve);
    transport.onEvent = (method, params, sessionId) => this.#dispatch(method, params, sessionId);
    transport.onClose = (reason) => this.#onClose(reason);
  }

  /** Resolves with the reason once the connection has closed. */
  get closed(): Promise<string> {
    return this.#closed;
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.#closedReason !== undefined;
  }

  /**
   * Sends a command on the browser session (no session id).
   *
   * @throws ProtocolError | TimeoutError | AbortError | ConnectionClosedError
   */
  send<M extends CdpMethod>(
    method: M,
    params?: CdpParams<M>,
    options?: SendOptions,
  ): Promise<CdpResult<M>> {
    return this.rawSend(method, params, undefined, options);
  }

  /**
   * Sends a command on any session; `sessionId` undefined means the browser.
   * Prefer {@link CdpSession.send}.
   */
  rawSend<M extends CdpMethod>(
    method: M,
    params: CdpParams<M> | undefined,
    sessionId: string | undefined,
    options: SendOptions = {},
  ): Promise<CdpResult<M>> {
    if (this.#closedReason !== undefined) {
      return Promise.reject(
        new ConnectionClosedError(`Cannot send "${method}": ${this.#closedReason}`),
      );
    }
    const session = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (session?.detached) {
      return Promise.reject(new TargetClosedError(`Cannot send "${method}": target closed`));
    }
    return this.#transport.send(method, params as object | undefined, {
      sessionId,
      timeoutMs: options.timeoutMs ?? this.#defaultTimeoutMs,
      signal: options.signal,
    }) as Promise<CdpResult<M>>;
  }

  /**
   * Listens to an event. With `sessionId`, only events of that session;
   * with `null`, only browser-session events; omitted, events of every session.
   */
  on<E extends CdpEventName>(
    event: E,
    handler: (params: CdpEvent<E>, sessionId: string | undefined) => void,
    sessionId?: string | null,
  ): Unsubscribe {
    const key = sessionId === undefined ? event : `${event}@${sessionId ?? ""}`;
    let set = this.#handlers.get(key);
    if (!set) this.#handlers.set(key, set = new Set());
    const h = handler as Handler;
    set.add(h);
    return () => {
      set.delete(h);
      if (set.size === 0 && this.#handlers.get(key) === set) this.#handlers.delete(key);
    };
  }

  /**
   * Listens to every event of one session (`null`: the browser session).
   * Used by recorders that watch a whole page during an action. The handler's
   * `params` narrow by `method` (declare both parameters, see {@link CdpEventArgs}).
   */
  onAny(sessionId: string | null, handler: (...args: CdpEventArgs) => void): Unsubscribe {
    return this.on("*" as CdpEventName, handler as never, sessionId);
  }

  /** The session object for a flat session id (created on first use). */
  session(sessionId: string): CdpSession {
    let s = this.#sessions.get(sessionId);
    if (!s) {
      s = new CdpSession(this, sessionId);
      this.#sessions.set(sessionId, s);
    }
    return s;
  }

  /**
   * Fails the calls pending on a session with `error` (the session stays
   * usable). A crashed renderer never answers them.
   */
  failPending(sessionId: string, error: () => Error): void {
    this.#transport.failSession(sessionId, error);
  }

  /** Marks a session detached: its pending and future calls fail with TargetClosedError. */
  markDetached(sessionId: string): void {
    const s = this.#sessions.get(sessionId);
    if (s) {
      s.detached = true;
      this.#sessions.delete(sessionId);
    }
    this.#transport.failSession(
      sessionId,
      () => new TargetClosedError("Target closed", { sent: true }),
    );
    for (const key of [...this.#handlers.keys()]) {
      if (key.endsWith(`@${sessionId}`)) this.#handlers.delete(key);
    }
  }

  /**
   * Closes the connection; pending calls fail with ConnectionClosedError. Idempotent.
   *
   * @param reason What `closed` resolves with and the errors say (default: closed by client).
   */
  async close(reason = "Connection closed by client"): Promise<void> {
    // The transport fails the pending calls at once, before `closed` resolves.
    const closing = this.#transport.close(reason);
    this.#onClose(reason);
    await closing;
  }

  #dispatch(method: string, params: unknown, sessionId: string | undefined): void {
    if (method === "Target.detachedFromTarget") {
      const id = (params as { sessionId: string }).sessionId;
      // Deliver the event before cleaning up so owners can react.
      this.#emit(method, params, sessionId);
      this.markDetached(id);
      return;
    }
    this.#emit(method, params, sessionId);
  }

  #emit(method: string, params: unknown, sessionId: string | undefined): void {
    const keys = [method, `${method}@${sessionId ?? ""}`];
    for (const key of keys) {
      const set = this.#handlers.get(key);
      if (!set) continue;
      for (const h of [...set]) this.#safeCall(h, params, sessionId);
    }
    const any = this.#handlers.get(`*@${sessionId ?? ""}`);
    if (any) {
      for (const h of [...any]) this.#safeCall(h, method, params as string | undefined);
    }
  }

  #safeCall(h: Handler, a: unknown, b: string | undefined): void {
    try {
      h(a, b);
    } catch (error) {
      console.error("browxai: CDP event handler failed:", error);
    }
  }

  #onClose(reason: string): void {
    if (this.#closedReason !== undefined) return;
    this.#closedReason = reason;
    for (const s of this.#sessions.values()) s.detached = true;
    this.#sessions.clear();
    this.#resolveClosed(reason);
  }
}

/**
 * A flat CDP session (one page, iframe or worker target) on a {@link Connection}.
 */
export class CdpSession {
  /** The CDP `sessionId`. */
  readonly id: string;
  /** The connection this session rides on. */
  readonly connection: Connection;
  /** True once the target detached or the connection closed. */
  detached = false;

  constructor(connection: Connection, id: string) {
    this.connection = connection;
    this.id = id;
  }

  /**
   * Sends a command on this session.
   *
   * @throws ProtocolError | TimeoutError | TargetClosedError | ConnectionClosedError
   */
  send<M extends CdpMethod>(
    method: M,
    params?: CdpParams<M>,
    options?: SendOptions,
  ): Promise<CdpResult<M>> {
    // The connection forgets a session once it detached, so the check is ours.
    if (this.detached && !this.connection.isClosed) {
      return Promise.reject(new TargetClosedError(`Cannot send "${method}": target closed`));
    }
    return this.connection.rawSend(method, params, this.id, options);
  }

  /** Listens to one event of this session. */
  on<E extends CdpEventName>(
    event: E,
    handler: (params: CdpEvent<E>) => void,
  ): Unsubscribe {
    return this.connection.on(event, (p) => handler(p), this.id);
  }
}
