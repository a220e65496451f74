/**
 * The one owner of `Target.*`: browser-level auto-attach with
 * `waitForDebuggerOnStart`, so every page, popup, worker and out-of-process
 * iframe is set up by the registered attach hooks before its first script
 * runs, then resumed with `Runtime.runIfWaitingForDebugger`.
 *
 * No other code subscribes to `Target.*` events.
 *
 * @module
 */
import type { CdpSession, Connection, Unsubscribe } from "./connection.ts";
import { isTargetClosedError, isTimeoutError, TimeoutError } from "./errors.ts";
import type { Protocol } from "./types.ts";

/** One attached target and its flat session. */
export interface AttachedTarget {
  /** CDP target id (for an iframe target it equals the frame id). */
  targetId: string;
  /** `page`, `iframe`, `worker`, `service_worker`, … */
  type: string;
  /** The browser context the target lives in (undefined: the default context). */
  browserContextId: string | undefined;
  /** The target that opened it (popups). */
  openerId: string | undefined;
  /** The session that attached it (undefined: the browser session). */
  parentSessionId: string | undefined;
  /** The flat session to talk to it. */
  session: CdpSession;
  /** Latest URL and title known from `Target.targetInfoChanged`. */
  url: string;
  title: string;
}

/** Runs on every newly attached target before it resumes. Errors are logged, never fatal. */
export type AttachHook = (target: AttachedTarget) => Promise<void> | void;

/** Lifecycle listeners of {@link TargetManager}. */
export interface TargetListener {
  /** A target was created (before it is attached and set up). */
  created?(info: Protocol.Target.TargetInfo): void;
  /** After the hooks ran and the target resumed. */
  attached?(target: AttachedTarget): void;
  /** After the target detached (closed, crashed, navigated cross-process). */
  detached?(target: AttachedTarget): void;
  /** The target's URL or title changed. */
  changed?(target: AttachedTarget): void;
  /** The target's renderer crashed. */
  crashed?(target: AttachedTarget): void;
  /**
   * The target is gone (`Target.targetDestroyed`), attached or not: a tab that closed before it
   * attached (a `target=_blank` download's) is told only here.
   */
  destroyed?(targetId: string): void;
}

/** Options of {@link TargetManager.start}. */
export interface TargetManagerOptions {
  /**
   * Only attach to pages of these browser contexts (attached/BYOB mode uses
   * this to stay out of contexts it does not own). Omitted: all.
   */
  contextFilter?: (browserContextId: string | undefined) => boolean;
  /** A hook registered before auto-attach starts, so it also sees targets that already exist. */
  attachHook?: AttachHook;
  /** Listeners registered before auto-attach starts. */
  listener?: TargetListener;
  /**
   * Called synchronously when a worker (`worker`, `shared_worker`, `service_worker`) of an
   * accepted context attaches, before it resumes: commands sent here reach it before its first
   * script. Returning `"close"` refuses it: it is closed (`Target.closeTarget`) without ever
   * running. Workers are not tracked as targets.
   */
  workerHook?: (target: AttachedTarget) => void | "close";
}

/** The {@link AttachedTarget} of a target that just attached. */
function attachedTarget(
  info: Protocol.Target.TargetInfo,
  session: CdpSession,
  parentSessionId: string | undefined,
): AttachedTarget {
  return {
    targetId: info.targetId,
    type: info.type,
    browserContextId: info.browserContextId,
    openerId: info.openerId,
    parentSessionId,
    session,
    url: info.url,
    title: info.title,
  };
}

/** Target types that run scripts outside any page: set up by `workerHook`, then resumed. */
const WORKER_TYPES = new Set(["worker", "shared_worker", "service_worker"]);

/**
 * Tracks targets of one browser connection.
 *
 * CDP: `Target.setDiscoverTargets`, `Target.setAutoAttach` (browser level for
 * pages and popups; per page session for out-of-process iframes),
 * `Target.attachedToTarget`, `Target.detachedFromTarget`,
 * `Target.targetInfoChanged`, `Target.targetCrashed`, `Target.targetDestroyed`,
 * `Runtime.runIfWaitingForDebugger`.
 */
export class TargetManager implements AsyncDisposable {
  #connection: Connection;
  #hooks = new Set<AttachHook>();
  #listeners = new Set<TargetListener>();
  #byTarget = new Map<string, AttachedTarget>();
  #bySession = new Map<string, AttachedTarget>();
  #waiters = new Map<string, Array<(t: AttachedTarget) => void>>();
  #ready = new Set<string>();
  #unsubs: Unsubscribe[] = [];
  #options: TargetManagerOptions;

  private constructor(connection: Connection, options: TargetManagerOptions) {
    this.#connection = connection;
    this.#options = options;
  }

  /** Subscribes and turns on discovery and browser-level auto-attach. */
  static async start(
    connection: Connection,
    options: TargetManagerOptions = {},
  ): Promise<TargetManager> {
    const m = new TargetManager(connection, options);
    if (options.attachHook) m.addAttachHook(options.attachHook);
    if (options.listener) m.addListener(options.listener);
    m.#unsubs.push(
      connection.on("Target.attachedToTarget", (e, sid) => m.#onAttached(e, sid)),
      connection.on("Target.detachedFromTarget", (e) => m.#onDetached(e)),
      connection.on("Target.targetInfoChanged", (e) => m.#onInfoChanged(e.targetInfo)),
      connection.on("Target.targetCreated", (e) => {
        for (const l of [...m.#listeners]) l.created?.(e.targetInfo);
      }),
      connection.on("Target.targetCrashed", (e) => m.#onCrashed(e.targetId)),
      connection.on("Target.targetDestroyed", (e) => {
        for (const l of [...m.#listeners]) l.destroyed?.(e.targetId);
      }),
    );
    // Sent together (one round trip, not two): the browser runs them in the order sent.
    await Promise.all([
      connection.send("Target.setDiscoverTargets", { discover: true }),
      connection.send("Target.setAutoAttach", {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
      }),
    ]);
    return m;
  }

  /** Registers a hook for new targets; returns its remover. */
  addAttachHook(hook: AttachHook): Unsubscribe {
    this.#hooks.add(hook);
    return () => this.#hooks.delete(hook);
  }

  /** Registers lifecycle listeners; returns the remover. */
  addListener(listener: TargetListener): Unsubscribe {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The attached target with this id, if any. */
  target(targetId: string): AttachedTarget | undefined {
    return this.#byTarget.get(targetId);
  }

  /** The attached target owning this session id, if any. */
  targetBySession(sessionId: string): AttachedTarget | undefined {
    return this.#bySession.get(sessionId);
  }

  /** Every attached target. */
  targets(): AttachedTarget[] {
    return [...this.#byTarget.values()];
  }

  /**
   * Resolves once the target is attached, set up and resumed.
   *
   * @param options.timeoutMs How long to wait, ms (default 10 s).
   * @param options.signal Ends the wait early (rejected with the signal's reason).
   * @throws TimeoutError after `timeoutMs`.
   */
  waitForTarget(
    targetId: string,
    options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {},
  ): Promise<AttachedTarget> {
    const { timeoutMs = 10_000, signal } = options;
    const t = this.#byTarget.get(targetId);
    if (t && this.#ready.has(targetId)) return Promise.resolve(t);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const stop = (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        const list = this.#waiters.get(targetId) ?? [];
        this.#waiters.set(targetId, list.filter((f) => f !== done));
        reject(error);
      };
      const timer = setTimeout(
        () =>
          stop(
            new TimeoutError(`Timed out after ${timeoutMs} ms waiting for target "${targetId}"`),
          ),
        timeoutMs,
      );
      const aborted = () => stop(signal!.reason);
      signal?.addEventListener("abort", aborted, { once: true });
      const done = (t: AttachedTarget) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        resolve(t);
      };
      const list = this.#waiters.get(targetId) ?? [];
      list.push(done);
      this.#waiters.set(targetId, list);
    });
  }

  /**
   * A worker of one of our contexts: the worker hook sets it up (its commands go out before
   * the resume, so they apply to its first request) or refuses it (closed unrun), its own
   * workers attach through it, then it runs. Workers that cannot auto-attach answer with an error, which is ignored.
   */
  #onWorker(
    e: Protocol.Target.AttachedToTargetEvent,
    session: CdpSession,
    parentSessionId: string | undefined,
  ): void {
    const info = e.targetInfo;
    let verdict: void | "close" = undefined;
    try {
      verdict = this.#options.workerHook?.(attachedTarget(info, session, parentSessionId));
    } catch (error) {
      console.error(`browxai: set-up of ${info.type} target failed:`, error);
    }
    if (verdict === "close") {
      // Never resumed: its first script does not run.
      this.#connection.send("Target.closeTarget", { targetId: info.targetId }).catch(() => {});
      return;
    }
    session.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    }).catch(() => {});
    if (e.waitingForDebugger) {
      session.send("Runtime.runIfWaitingForDebugger").catch(() => {});
    }
  }

  async #onAttached(e: Protocol.Target.AttachedToTargetEvent, parentSessionId?: string) {
    const info = e.targetInfo;
    const session = this.#connection.session(e.sessionId);
    const wanted = (info.type === "page" || info.type === "iframe") &&
      (this.#options.contextFilter?.(info.browserContextId) ?? true);
    if (
      !wanted && WORKER_TYPES.has(info.type) &&
      (this.#options.contextFilter?.(info.browserContextId) ?? true)
    ) {
      this.#onWorker(e, session, parentSessionId);
      return;
    }
    if (!wanted) {
      // Targets of contexts we do not own: resume and leave alone.
      if (e.waitingForDebugger) {
        session.send("Runtime.runIfWaitingForDebugger").catch(() => {});
      }
      if (info.type === "page" || info.type === "iframe") {
        this.#connection.send("Target.detachFromTarget", { sessionId: e.sessionId })
          .catch(() => {});
      }
      return;
    }
    const target = attachedTarget(info, session, parentSessionId);
    this.#byTarget.set(target.targetId, target);
    this.#bySession.set(e.sessionId, target);
    // Every hook sends its set-up commands synchronously (before its first
    // await), so they reach the target before it resumes. We must not wait
    // for their answers before resuming: a target still waiting for the
    // debugger (a noopener tab in a new process) answers some of them only
    // after it runs.
    //
    // Out-of-process iframes of this target attach through its own session.
    // Sent first, but its answer is not part of the set-up we wait for: on a
    // target that was waiting for the debugger, Chromium sometimes never
    // answers it (a few percent of new tabs and OOPIFs under load), though the
    // target resumes and works; waiting for it stalled waitForTarget().
    session.send("Target.setAutoAttach", {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    }).catch((error: unknown) => {
      if (!isTargetClosedError(error) && !isTimeoutError(error)) {
        console.error(`browxai: auto-attach under ${target.type} target failed:`, error);
      }
    });
    const setup: Promise<unknown>[] = [...this.#hooks].map((hook) =>
      Promise.resolve().then(() => hook(target))
    );
    // Hooks start in a microtask: let them issue their first commands.
    await Promise.resolve();
    if (e.waitingForDebugger) setup.push(session.send("Runtime.runIfWaitingForDebugger"));
    const results = await Promise.allSettled(setup);
    for (const r of results) {
      if (r.status === "rejected" && !isTargetClosedError(r.reason)) {
        console.error(`browxai: set-up of ${target.type} target failed:`, r.reason);
      }
    }
    if (session.detached) return;
    this.#ready.add(target.targetId);
    for (const l of [...this.#listeners]) l.attached?.(target);
    const waiters = this.#waiters.get(target.targetId);
    this.#waiters.delete(target.targetId);
    for (const w of waiters ?? []) w(target);
  }

  #onDetached(e: Protocol.Target.DetachedFromTargetEvent) {
    const target = this.#bySession.get(e.sessionId);
    if (!target) return;
    this.#bySession.delete(e.sessionId);
    if (this.#byTarget.get(target.targetId) === target) {
      this.#byTarget.delete(target.targetId);
      this.#ready.delete(target.targetId);
    }
    for (const l of [...this.#listeners]) l.detached?.(target);
  }

  #onInfoChanged(info: Protocol.Target.TargetInfo) {
    const target = this.#byTarget.get(info.targetId);
    if (!target) return;
    target.url = info.url;
    target.title = info.title;
    for (const l of [...this.#listeners]) l.changed?.(target);
  }

  #onCrashed(targetId: string) {
    const target = this.#byTarget.get(targetId);
    if (!target) return;
    for (const l of [...this.#listeners]) l.crashed?.(target);
  }

  /** Removes exactly the listeners it added. */
  [Symbol.asyncDispose](): Promise<void> {
    for (const u of this.#unsubs) u();
    this.#unsubs = [];
    this.#hooks.clear();
    this.#listeners.clear();
    return Promise.resolve();
  }
}
