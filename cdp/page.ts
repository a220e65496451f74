/**
 * A top-level tab and the out-of-process iframes it owns: frame tree,
 * execution contexts (page world and browxai's isolated world), evaluation,
 * and one fan-in of every event of every session that belongs to the tab.
 * The bookkeeping is in `frame_tree.ts`, `execution_contexts.ts` and
 * `navigation.ts` (load states, navigation, the documents' responses),
 * evaluation in `page_eval.ts`, exposed through the tab's methods; the set-up commands a
 * target gets before it resumes in `page_setup.ts`.
 *
 * @module
 */
import type { CdpSession, SendOptions, Unsubscribe } from "./connection.ts";
import { isTargetClosedError, ProtocolError, TargetClosedError, TimeoutError } from "./errors.ts";
import { ExecutionContexts, UTILITY_WORLD, type UtilityWorld } from "./execution_contexts.ts";
import { type FrameInfo, FrameTree } from "./frame_tree.ts";
import {
  type DocumentResponse,
  type LoadState,
  type LoadWaitOptions,
  type NavigateOptions,
  type NavigateOutcome,
  PageNavigation,
} from "./navigation.ts";
import { EvaluationError, exceptionText, NavigationError } from "./page_errors.ts";
import { callIn, evaluateIn, type EvaluateOptions } from "./page_eval.ts";
import { enableTarget } from "./page_setup.ts";
import type { AttachedTarget } from "./target_manager.ts";
import type {
  CdpEvent,
  CdpEventArgs,
  CdpEventName,
  CdpMethod,
  CdpParams,
  CdpResult,
} from "./types.ts";

export type {
  DocumentResponse,
  FrameInfo,
  LoadState,
  LoadWaitOptions,
  NavigateOptions,
  NavigateOutcome,
  UtilityWorld,
};
export { EvaluationError, exceptionText, NavigationError, UTILITY_WORLD };

/**
 * The arguments of a tab's event listeners: `(method, params, session)`, one tuple per CDP
 * event, so `params` narrows by `method` (see {@link CdpEventArgs}); `session` is the tab's own
 * session or an OOPIF's.
 */
export type PageEventArgs = CdpEventArgs<[session: CdpSession]>;

/** Options of {@link Page.attach} and {@link Page.adoptFrameTarget}. */
export interface PageAttachOptions {
  /**
   * A script run in browxai's utility world of every document of the target before the
   * document's first script (and in the document it shows now), which creates that world
   * (CDP: `Page.addScriptToEvaluateOnNewDocument` with `worldName`, `runImmediately`).
   */
  utilityScript?: string | undefined;
}

/** Most events kept for a tab's first listener of every event (see `Page.onEvent`). */
const EARLY_EVENTS = 500;

/** Listener of every event of every session of a tab. */
export type PageEventListener = (...args: PageEventArgs) => void;

/** Longest title read from a page, chars (results cap fields at 4,000 with the mark). */
const TITLE_MAX = 3960;

/**
 * One tab. Create with {@link Page.attach} from the target manager's attach
 * hook, before the target resumes; add its OOPIFs with {@link Page.adoptFrameTarget}.
 *
 * CDP: `Page.enable`, `Page.setLifecycleEventsEnabled`, `Page.getFrameTree`,
 * `Runtime.enable`, `Network.enable`, `Page.createIsolatedWorld`,
 * `Page.navigate`, `Page.reload`, `Runtime.evaluate`, `Runtime.callFunctionOn`.
 */
export class Page {
  /** The tab's target. */
  readonly target: AttachedTarget;
  #frames = new FrameTree();
  /** The main world and isolated world of every frame. */
  #contexts = new ExecutionContexts();
  #listeners = new Set<PageEventListener>();
  /**
   * Events heard before the first listener of every event was added (a popup runs, and asks
   * for its document, while its set-up is still answered): handed to that listener, so the
   * session's log has a new tab's first requests (the first {@link EARLY_EVENTS}). Undefined
   * once handed.
   */
  #early: PageEventArgs[] | undefined = [];
  #unsubs = new Map<string, Unsubscribe>();
  #sessions = new Map<string, CdpSession>();
  /**
   * Dedicated workers the tab started ({@link adoptWorker}), by session id, with the session
   * that started each (a frame's or another worker's).
   */
  #workers = new Map<string, { session: CdpSession; parent: string; off: Unsubscribe }>();
  /** Load states, navigations, document responses. */
  #nav = new PageNavigation(this);
  #closed = false;
  /** Set when the renderer crashed. */
  crashed = false;

  private constructor(target: AttachedTarget) {
    this.target = target;
  }

  /** The tab's own session. */
  get session(): CdpSession {
    return this.target.session;
  }

  /**
   * Sends a command on the tab's own session; `options.signal` abandons it at once when it
   * aborts (see `SendOptions`).
   *
   * @throws ProtocolError | TimeoutError | AbortError | TargetClosedError | ConnectionClosedError
   */
  send<M extends CdpMethod>(
    method: M,
    params?: CdpParams<M>,
    options?: SendOptions,
  ): Promise<CdpResult<M>> {
    return this.session.send(method, params, options);
  }

  /** True after the tab closed. */
  get isClosed(): boolean {
    return this.#closed || this.target.session.detached;
  }

  /**
   * Sets up a freshly attached page target (call before it resumes).
   *
   * @throws whatever the enabling commands throw (target closed, …).
   */
  static async attach(target: AttachedTarget, options: PageAttachOptions = {}): Promise<Page> {
    const page = new Page(target);
    await page.#adoptSession(target.session, undefined, options);
    return page;
  }

  /** Adds an out-of-process iframe target (its frame id is its target id). */
  async adoptFrameTarget(target: AttachedTarget, options: PageAttachOptions = {}): Promise<void> {
    await this.#adoptSession(target.session, target.targetId, options);
  }

  /**
   * Hears a dedicated worker of the tab (its flat session): its `Network.*` events reach the
   * tab's listeners as the tab's own, carried by its session (a worker's fetch is the page's
   * traffic). The connection drops the listener when the worker detaches. `parent`: the id of
   * the session that started it (`Target.attachedToTarget`'s parent session).
   */
  adoptWorker(session: CdpSession, parent = ""): void {
    for (const [id, w] of this.#workers) if (w.session.detached) this.#workers.delete(id);
    const off = session.connection.onAny(session.id, (...args) => {
      if (args[0].startsWith("Network.")) this.#onEvent(...args, session);
    });
    this.#workers.set(session.id, { session, parent, off });
  }

  /**
   * The sessions of the tab's dedicated workers still attached; with `under` (a session id of
   * the tab), only those that session started, directly or through other workers.
   */
  workerSessions(under?: string): CdpSession[] {
    const startedBy = (w: { parent: string } | undefined, hops = 0): boolean =>
      w !== undefined &&
      (w.parent === under || (hops < 64 && startedBy(this.#workers.get(w.parent), hops + 1)));
    return [...this.#workers.values()]
      .filter((w) => !w.session.detached && (under === undefined || startedBy(w)))
      .map((w) => w.session);
  }

  /** True if this session is one of a dedicated worker the tab adopted ({@link adoptWorker}). */
  ownsWorker(sessionId: string): boolean {
    return this.#workers.has(sessionId);
  }

  /** True if this session belongs to the tab (main or one of its OOPIFs). */
  ownsSession(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  async #adoptSession(
    session: CdpSession,
    oopifFrameId: string | undefined,
    options: PageAttachOptions,
  ): Promise<void> {
    this.#sessions.set(session.id, session);
    this.#contexts.addSession(session.id);
    this.#unsubs.set(
      session.id,
      session.connection.onAny(session.id, (...args) => this.#onEvent(...args, session)),
    );
    // All set-up commands go out in one batch, before the target resumes.
    const parentId = oopifFrameId ? this.#frames.get(oopifFrameId)?.parentId : undefined;
    await enableTarget(session, {
      utilityScript: options.utilityScript,
      oopif: !!oopifFrameId,
      frameTree: (tree) => this.#frames.addTree(tree, session, parentId),
      runtimeEnabled: () => this.#contexts.enabled(session.id),
    });
  }

  /**
   * Adds a listener for every event of every session of the tab (declare all three parameters
   * so `params` narrows by `method`), or, given an event name, for that event only, with its
   * typed payload. Listeners run after the tab's own bookkeeping (frames, contexts, loads).
   * The first listener of every event also hears, in a microtask, the events the tab had before
   * it (a popup's document request, sent while its set-up was answered).
   *
   * @returns a function that removes the listener.
   */
  onEvent(listener: PageEventListener): Unsubscribe;
  onEvent<E extends CdpEventName>(
    event: E,
    handler: (params: CdpEvent<E>, session: CdpSession) => void,
  ): Unsubscribe;
  onEvent<E extends CdpEventName>(
    a: PageEventListener | E,
    handler?: (params: CdpEvent<E>, session: CdpSession) => void,
  ): Unsubscribe {
    if (typeof a === "function" && this.#early) {
      const early = this.#early;
      this.#early = undefined;
      // After the caller's own set-up (it may not know the tab yet), before any later event
      // (those arrive in tasks of their own).
      if (early.length) queueMicrotask(() => early.forEach((args) => this.#tell(a, args)));
    }
    const listener: PageEventListener = typeof a === "function"
      ? a
      // The payload of the event named `a`: the wire's pairing of method and params.
      : (method, params, session) => {
        if (method === a) handler?.(params as CdpEvent<E>, session);
      };
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onEvent(...args: PageEventArgs): void {
    const [method, params] = args;
    const change = this.#frames.apply(...args);
    if (change) {
      if (change.topNavigated) this.crashed = false;
      for (const id of change.ended) this.#contexts.forgetFrame(id);
      if (change.lifecycle) this.#nav.lifecycleChanged();
    }
    this.#contexts.apply(...args);
    switch (method) {
      case "Network.requestWillBeSent":
        this.#nav.recordRequest(params);
        break;
      case "Network.responseReceived":
        this.#nav.recordResponse(params);
        break;
      case "Inspector.targetCrashed":
        this.markCrashed();
        break;
    }
    if (this.#early && this.#early.length < EARLY_EVENTS) this.#early.push(args);
    for (const l of [...this.#listeners]) this.#tell(l, args);
  }

  #tell(l: PageEventListener, args: PageEventArgs): void {
    try {
      l(...args);
    } catch (error) {
      console.error("browxai: page event listener failed:", error);
    }
  }

  /** Marks the tab crashed and fails the calls its dead renderer will never answer. */
  markCrashed(): void {
    // The tab's session and the browser both report one crash: act once, so
    // the second report cannot fail the navigation that recovers the tab.
    if (this.crashed) return;
    this.crashed = true;
    for (const session of this.#sessions.values()) {
      session.connection.failPending(session.id, () => new TargetClosedError("Target crashed"));
    }
    this.#nav.lifecycleChanged();
  }

  /** Forgets a detached OOPIF session. */
  dropSession(sessionId: string): void {
    this.#unsubs.get(sessionId)?.();
    this.#unsubs.delete(sessionId);
    this.#sessions.delete(sessionId);
    this.#contexts.dropSession(sessionId);
    for (const id of this.#frames.dropSession(sessionId, this.target.targetId)) {
      this.#contexts.forgetFrame(id);
    }
  }

  /** Marks the tab closed and removes its listeners. */
  dispose(): void {
    this.#closed = true;
    for (const u of this.#unsubs.values()) u();
    for (const w of this.#workers.values()) w.off();
    this.#unsubs.clear();
    this.#workers.clear();
    this.#listeners.clear();
    this.#nav.lifecycleChanged();
  }

  /** The main frame id (equals the tab's target id). */
  get mainFrameId(): string {
    return this.target.targetId;
  }

  /** The main frame's URL. */
  get url(): string {
    return this.#frames.get(this.mainFrameId)?.url ?? this.target.url;
  }

  /** A frame by id. */
  frame(frameId: string): FrameInfo | undefined {
    return this.#frames.get(frameId);
  }

  /** All known frames, parents before children. */
  frames(): FrameInfo[] {
    return this.#frames.all();
  }

  /** The child frames of a frame. */
  childFrames(frameId: string): FrameInfo[] {
    return this.#frames.children(frameId);
  }

  /** The response that delivered the frame's current document, if seen. */
  documentResponse(frameId = this.mainFrameId): DocumentResponse | undefined {
    return this.#nav.documentResponse(frameId);
  }

  /**
   * The title of the main document, or within `waitMs` the last one Chromium reported
   * (`Target.targetInfoChanged`): a summary of many tabs must not wait on a busy one (a page
   * opening hundreds of popups holds its main thread for tens of seconds).
   */
  async titleWithin(waitMs: number): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(this.target.title), waitMs);
    });
    try {
      return await Promise.race([this.title(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The title of the main document, a page's huge one cut in the page to 3,960 chars with a
   * `…[N more chars]` mark (a 6 MB title read whole took seconds). CDP: `Runtime.evaluate` in
   * the utility world.
   */
  async title(): Promise<string> {
    try {
      const expression = `(t => t.length > ${TITLE_MAX} ? t.slice(0, ${TITLE_MAX}) + "…[" + ` +
        `(t.length - ${TITLE_MAX}) + " more chars]" : t)(document.title)`;
      return String(await this.evaluate(expression, { timeoutMs: 2000 }) ?? "");
    } catch {
      return this.target.title;
    }
  }

  /**
   * The execution context id of browxai's isolated world in a frame, created
   * on demand, and what is known of that world (`world`: created here or only seen, the
   * marks callers left in it). CDP: `Page.createIsolatedWorld`.
   */
  async utilityContext(
    frameId = this.mainFrameId,
  ): Promise<{ session: CdpSession; contextId: number; world: UtilityWorld }> {
    const frame = this.#frames.get(frameId);
    if (!frame) {
      throw new ProtocolError(
        "Page.createIsolatedWorld",
        -32000,
        `No frame with given id found: "${frameId}"`,
      );
    }
    const world = await this.#contexts.utility(frame);
    return { session: frame.session, contextId: world.contextId, world };
  }

  /** The page's own (main world) execution context of a frame, if known. */
  mainContext(frameId = this.mainFrameId): number | undefined {
    return this.#contexts.main(frameId);
  }

  /**
   * Evaluates an expression and returns its JSON value. By default in the
   * utility world of the main frame; `world: "main"` runs in the page's own
   * world (where page scripts can see and interfere). `signal` abandons the call when it
   * aborts (`AbortError`).
   *
   * @throws EvaluationError with the exception text when the script throws.
   */
  evaluate(expression: string, options: EvaluateOptions = {}): Promise<unknown> {
    return evaluateIn(this, expression, options);
  }

  /**
   * Calls a self-contained function (its source is sent, so it must not
   * capture anything) in the utility world of a frame with JSON arguments. `signal` abandons
   * the call when it aborts (`AbortError`).
   */
  call<T>(
    fn: (...args: never[]) => unknown,
    args: unknown[],
    options: { frameId?: string; timeoutMs?: number; signal?: AbortSignal | undefined } = {},
  ): Promise<T> {
    return callIn<T>(this, { fn, args }, options);
  }

  /**
   * Waits until the frame (default: the main frame) reached a load state (`commit` is
   * immediate). Resolves `true` when reached, `false` on timeout (`timeoutMs`, ms, default
   * 30 000) or abort (never throws for time).
   */
  waitForLoadState(
    state: LoadState,
    options: LoadWaitOptions & { frameId?: string } = {},
  ): Promise<boolean> {
    return this.#nav.waitForLoadState(state, options);
  }

  /**
   * Runs `start` (which makes the main frame navigate, e.g. a history move)
   * and waits until the main frame committed a new document (then its
   * `load`) or changed URL within the document. Resolves false on timeout
   * (`timeoutMs`, ms) or when `signal` aborts.
   */
  waitForNavigation(
    start: () => Promise<unknown>,
    options: LoadWaitOptions = {},
  ): Promise<boolean> {
    return this.#nav.waitForNavigation(start, options);
  }

  /**
   * Reloads and waits for the new document's `load`. Resolves false on
   * timeout or when `signal` aborts. CDP: `Page.reload`.
   */
  reload(options: LoadWaitOptions = {}): Promise<boolean> {
    return this.#nav.reload(options);
  }

  /**
   * Navigates the main frame and waits for `waitUntil` (default `load`; `timeoutMs`, ms,
   * default 30 000, covers both). CDP: `Page.navigate`.
   *
   * A URL that turns out to be a download resolves at once with
   * `isDownload` (Chromium answers `net::ERR_ABORTED` and `isDownload`; the
   * download's own events follow on the browser session).
   *
   * @throws NavigationError when Chromium refuses or fails the navigation
   *   (`net::ERR_…`), with the error text.
   */
  navigate(url: string, options: NavigateOptions = {}): Promise<NavigateOutcome> {
    return this.#nav.navigate(url, options);
  }
}

/** Re-exported so callers can test for a vanished target without importing errors.ts. */
export { isTargetClosedError, TimeoutError };
