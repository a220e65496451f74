/**
 * Server-wide limits on browser sessions, across every MCP client of the process: at most
 * `maxSessions` open at once (a bounded queue waits for a free one, then a clear `busy`),
 * sessions without a call for `idleMs` closed (reaped), and a draining state that opens no
 * more. One pool per process (made in main.ts), shared by each client's `SessionManager`.
 *
 * The pool knows nothing of CDP: a manager takes a slot before it opens a session
 * ({@link SessionPool.acquire}), registers the session with a reaper callback
 * ({@link SessionPool.track}), tells it when a call begins and ends using it, and gives the slot
 * back when the session closes.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";

/** Options of {@link SessionPool}. */
export interface SessionPoolOptions {
  /** Most sessions open at once, server-wide (`BROWX_MAX_SESSIONS`). @default Infinity */
  maxSessions?: number | undefined;
  /** Most opens waiting for a free slot (`BROWX_SESSION_QUEUE`). @default 16 */
  queueMax?: number | undefined;
  /** Longest wait for a free slot, ms (the call's own budget may end it sooner). @default 30000 */
  queueWaitMs?: number | undefined;
  /** A session without a call for this long is closed (`BROWX_SESSION_IDLE_MS`), ms. */
  idleMs?: number | undefined;
}

/** Counters the metrics read (monotonic since start). */
export interface PoolStats {
  /** Opens refused with `busy` (queue full, wait over, or draining). */
  busyRefusals: number;
  /** Sessions closed for being idle. */
  reaped: number;
}

interface Tracked {
  /** ms since epoch of the last call's end (or start, while none ended yet). */
  lastUsed: number;
  /** Calls using the session now: never reaped while above 0. */
  inUse: number;
  /** Closes the session for being idle; `reason` is what its client will hear. */
  reap: (reason: string) => void;
  /** Gives its slot back. */
  release: () => void;
}

interface Waiter {
  grant: () => void;
  fail: (e: unknown) => void;
}

/** The process's browser sessions: limit, queue, idle reaping, drain. */
export class SessionPool {
  readonly maxSessions: number;
  readonly queueMax: number;
  readonly queueWaitMs: number;
  readonly idleMs: number | undefined;
  readonly stats: PoolStats = { busyRefusals: 0, reaped: 0 };
  #open = 0;
  #queue: Waiter[] = [];
  #tracked = new Map<object, Tracked>();
  /** Reaped sessions whose close has not finished: they hold their slot until it has. */
  #reaping = new Map<object, Tracked>();
  #draining = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionPoolOptions = {}) {
    this.maxSessions = options.maxSessions ?? Infinity;
    this.queueMax = options.queueMax ?? 16;
    this.queueWaitMs = options.queueWaitMs ?? 30_000;
    this.idleMs = options.idleMs;
    if (this.idleMs !== undefined) {
      const every = Math.max(50, Math.min(30_000, this.idleMs / 4));
      this.#timer = setInterval(() => this.#sweep(), every);
    }
  }

  /** Sessions holding a slot (open or opening). */
  get open(): number {
    return this.#open;
  }

  /** Opens waiting for a slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /** True once {@link drain} was called. */
  get draining(): boolean {
    return this.#draining;
  }

  #busy(message: string, hint: string): ToolError {
    this.stats.busyRefusals++;
    return new ToolError("busy", message, hint, {
      openSessions: this.#open,
      maxSessions: this.maxSessions,
      queued: this.#queue.length,
    });
  }

  /**
   * Takes a slot for one session, waiting in the queue when all are taken. Returns the
   * release function (idempotent).
   *
   * @throws ToolError busy: the queue is full, the wait bound passed, or the server drains;
   *   `signal`'s reason when the call ends first (cancelled, over budget).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.#draining) {
      throw this.#busy(
        "Server busy: it is shutting down (draining) and opens no new browser sessions",
        "reconnect (initialize again): the load balancer sends new clients to another instance",
      );
    }
    signal?.throwIfAborted();
    if (this.#open < this.maxSessions) {
      this.#open++;
      return this.#releaser();
    }
    const full =
      `${this.#open} of ${this.maxSessions} browser sessions are open (BROWX_MAX_SESSIONS)`;
    if (this.#queue.length >= this.queueMax) {
      throw this.#busy(
        `Server busy: ${full} and ${this.#queue.length} opens are already waiting ` +
          `(BROWX_SESSION_QUEUE)`,
        "close a session you no longer need (close_session), or retry in a few seconds",
      );
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          done();
          resolve();
        },
        fail: (e) => {
          done();
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        waiter.fail(this.#busy(
          `Server busy: ${full}; none came free within ${this.queueWaitMs} ms`,
          "close a session you no longer need (close_session), or retry later",
        ));
      }, this.queueWaitMs);
      const onAbort = () => waiter.fail(signal!.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.#queue.indexOf(waiter);
        if (i >= 0) this.#queue.splice(i, 1);
      };
      this.#queue.push(waiter);
    });
    // The slot was handed over by a release: #open already counts it.
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue[0];
      // Handed straight to the first waiter: no later arrival can take it in between.
      if (next && !this.#draining) next.grant();
      else this.#open--;
    };
  }

  /**
   * Registers an open session (by object): the slot `release` it holds (from {@link acquire})
   * and how to close it when idle.
   */
  track(session: object, release: () => void, reap: (reason: string) => void): void {
    this.#tracked.set(session, { lastUsed: Date.now(), inUse: 0, reap, release });
  }

  /** A session closed: forgets it and gives its slot back (idempotent). */
  untrack(session: object): void {
    const t = this.#tracked.get(session) ?? this.#reaping.get(session);
    this.#tracked.delete(session);
    this.#reaping.delete(session);
    t?.release();
  }

  /** A call began using `session`: it is not idle until the call ends. */
  begin(session: object): void {
    const t = this.#tracked.get(session);
    if (!t) return;
    t.inUse++;
    t.lastUsed = Date.now();
  }

  /** A call that used `session` ended. */
  end(session: object): void {
    const t = this.#tracked.get(session);
    if (!t) return;
    t.inUse = Math.max(0, t.inUse - 1);
    t.lastUsed = Date.now();
  }

  #sweep(): void {
    if (this.idleMs === undefined) return;
    const now = Date.now();
    for (const [session, t] of this.#tracked) {
      if (t.inUse > 0 || now - t.lastUsed < this.idleMs) continue;
      this.#tracked.delete(session);
      this.#reaping.set(session, t);
      this.stats.reaped++;
      t.reap(
        `it had no call for ${Math.round((now - t.lastUsed) / 1000)} s ` +
          `(the server closes sessions idle for ${this.idleMs} ms: BROWX_SESSION_IDLE_MS)`,
      );
    }
  }

  /** Opens no more sessions from now on; waiting opens hear `busy`. */
  drain(): void {
    this.#draining = true;
    for (const w of [...this.#queue]) {
      w.fail(this.#busy(
        "Server busy: it is shutting down (draining) and opens no new browser sessions",
        "reconnect (initialize again): the load balancer sends new clients to another instance",
      ));
    }
  }

  /** Stops the reaper. */
  dispose(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }
}

/**
 * The `unknown-session` a client hears on its next call to a session the pool reaped (once):
 * the agent learns why its session went instead of meeting a blank one.
 */
export function reapedError(name: string, why: string): ToolError {
  return new ToolError(
    "unknown-session",
    `Session "${name}" was closed by the server: ${why}`,
    name === "default"
      ? "call again: a fresh default session starts (open pages and cookies are gone)"
      : `open_session({ session: "${name}" }) to start it again`,
  );
}

/** Names the pool reaped, with why: the next call on the name hears it once ({@link tell}). */
export class ReapedNames {
  #gone = new Map<string, string>();

  /** `name` was reaped because of `why`. */
  set(name: string, why: string): void {
    this.#gone.set(name, why);
  }

  /** `name` was opened again: nothing to tell. */
  delete(name: string): void {
    this.#gone.delete(name);
  }

  /** Throws, once, why the pool reaped `name` (`unknown-session`), unless reopened since. */
  tell(name: string): void {
    const why = this.#gone.get(name);
    if (why === undefined) return;
    this.#gone.delete(name);
    throw reapedError(name, why);
  }
}
