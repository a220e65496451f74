/**
 * A top-level tab and the out-of-process iframes it owns: frame tree,
 * execution contexts (page world and browxai's isolated world), load states,
 * the main document's response, and one fan-in of every event of every
 * session that belongs to the tab.
 *
 * @module
 */
import type { CdpSession, Unsubscribe } from "./connection.ts";
import { isTargetClosedError, ProtocolError, TargetClosedError, TimeoutError } from "./errors.ts";
import { type FrameInfo, FrameTree } from "./frame_tree.ts";
import { EvaluationError, exceptionText, NavigationError } from "./page_errors.ts";
import type { AttachedTarget } from "./target_manager.ts";
import type { Protocol } from "./types.ts";

export type { FrameInfo };
export { EvaluationError, exceptionText, NavigationError };

/** Name of browxai's isolated world in every frame. */
export const UTILITY_WORLD = "__browxai_utility";

/** The response that delivered a document. */
export interface DocumentResponse {
  url: string;
  status: number;
  mimeType: string;
  loaderId: string;
}

/** Load states `navigate`/`wait_for` understand. */
export type LoadState = "commit" | "domcontentloaded" | "load" | "networkidle";

/** Listener of every event of every session of a tab. */
export type PageEventListener = (method: string, params: unknown, session: CdpSession) => void;

const LIFECYCLE_NAME: Record<Exclude<LoadState, "commit">, string> = {
  domcontentloaded: "DOMContentLoaded",
  load: "load",
  networkidle: "networkIdle",
};

/** The result of {@link Page.navigate}. */
export interface NavigateOutcome {
  /** Where the tab stands after waiting (after redirects). */
  url: string;
  /** The main document's response, when one was received. */
  response: DocumentResponse | undefined;
  /** The wait for `waitUntil` ran out; the page may still be usable. */
  timedOut: boolean;
  /** A same-document (hash or history) navigation. */
  sameDocument: boolean;
  /** The URL turned out to be a file download: no document was committed, the tab did not move. */
  isDownload: boolean;
}

/**
 * One tab. Create with {@link Page.attach} from the target manager's attach
 * hook, before the target resumes; add its OOPIFs with {@link Page.adoptFrameTarget}.
 *
 * CDP: `Page.enable`, `Page.setLifecycleEventsEnabled`, `Page.getFrameTree`,
 * `Runtime.enable`, `Network.enable`, `Page.createIsolatedWorld`,
 * `Page.navigate`, `Runtime.evaluate`, `Runtime.callFunctionOn`.
 */
export class Page {
  /** The tab's target. */
  readonly target: AttachedTarget;
  #frames = new FrameTree();
  /** sessionId → (contextId → frameId) and frameId → world / main context ids. */
  #worlds = new Map<string, number>();
  #mainWorlds = new Map<string, number>();
  #contextFrames = new Map<string, Map<number, string>>();
  #pendingWorlds = new Map<string, Promise<number>>();
  #listeners = new Set<PageEventListener>();
  #unsubs = new Map<string, Unsubscribe>();
  #sessions = new Map<string, CdpSession>();
  #docResponses = new Map<string, DocumentResponse>();
  #lifecycleWaiters = new Set<() => void>();
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

  /** True after the tab closed. */
  get isClosed(): boolean {
    return this.#closed || this.target.session.detached;
  }

  /**
   * Sets up a freshly attached page target (call before it resumes).
   *
   * @throws whatever the enabling commands throw (target closed, …).
   */
  static async attach(target: AttachedTarget): Promise<Page> {
    const page = new Page(target);
    await page.#adoptSession(target.session, undefined);
    return page;
  }

  /** Adds an out-of-process iframe target (its frame id is its target id). */
  async adoptFrameTarget(target: AttachedTarget): Promise<void> {
    await this.#adoptSession(target.session, target.targetId);
  }

  /** True if this session belongs to the tab (main or one of its OOPIFs). */
  ownsSession(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  async #adoptSession(session: CdpSession, oopifFrameId: string | undefined): Promise<void> {
    this.#sessions.set(session.id, session);
    this.#contextFrames.set(session.id, new Map());
    this.#unsubs.set(
      session.id,
      session.connection.onAny(
        session.id,
        (method, params) => this.#onEvent(method, params, session),
      ),
    );
    // All set-up commands go out in one batch, before the target resumes.
    const parentId = oopifFrameId ? this.#frames.get(oopifFrameId)?.parentId : undefined;
    await Promise.all([
      // Applied the moment it arrives: events that follow it on the wire
      // (a navigation committing) must win over this older picture.
      session.send("Page.getFrameTree").then(({ frameTree }) =>
        this.#frames.addTree(frameTree, session, parentId)
      ),
      session.send("Page.enable"),
      session.send("Page.setLifecycleEventsEnabled", { enabled: true }),
      session.send("Runtime.enable"),
      session.send("Network.enable", { maxPostDataSize: 65536 }),
      session.send("Log.enable"),
      // Renderer crashes arrive as Inspector.targetCrashed.
      session.send("Inspector.enable").catch(() => {}),
      // Pages keep document focus (focus/blur, :focus) even when another tab is in front.
      oopifFrameId
        ? undefined
        : session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
    ]);
  }

  /** Adds a listener for every event of every session of the tab. */
  onEvent(listener: PageEventListener): Unsubscribe {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onEvent(method: string, params: unknown, session: CdpSession): void {
    const change = this.#frames.apply(method, params, session);
    if (change) {
      if (change.topNavigated) this.crashed = false;
      for (const id of change.ended) this.#forgetWorlds(id);
      if (change.lifecycle) this.#notifyLifecycle();
    }
    switch (method) {
      case "Runtime.executionContextCreated": {
        const { context } = params as Protocol.Runtime.ExecutionContextCreatedEvent;
        const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
        if (!aux?.frameId) break;
        this.#contextFrames.get(session.id)?.set(context.id, aux.frameId);
        if (context.name === UTILITY_WORLD) this.#worlds.set(aux.frameId, context.id);
        else if (aux.isDefault) this.#mainWorlds.set(aux.frameId, context.id);
        break;
      }
      case "Runtime.executionContextDestroyed": {
        const e = params as Protocol.Runtime.ExecutionContextDestroyedEvent;
        const map = this.#contextFrames.get(session.id);
        const frameId = map?.get(e.executionContextId);
        map?.delete(e.executionContextId);
        if (frameId) {
          if (this.#worlds.get(frameId) === e.executionContextId) this.#worlds.delete(frameId);
          if (this.#mainWorlds.get(frameId) === e.executionContextId) {
            this.#mainWorlds.delete(frameId);
          }
        }
        break;
      }
      case "Runtime.executionContextsCleared": {
        const map = this.#contextFrames.get(session.id);
        for (const frameId of map?.values() ?? []) {
          this.#worlds.delete(frameId);
          this.#mainWorlds.delete(frameId);
        }
        map?.clear();
        break;
      }
      case "Network.responseReceived": {
        const e = params as Protocol.Network.ResponseReceivedEvent;
        if (e.type === "Document" && e.frameId) {
          this.#docResponses.set(e.frameId, {
            url: e.response.url,
            status: e.response.status,
            mimeType: e.response.mimeType,
            loaderId: e.loaderId,
          });
        }
        break;
      }
      case "Inspector.targetCrashed":
        this.markCrashed();
        break;
    }
    for (const l of [...this.#listeners]) {
      try {
        l(method, params, session);
      } catch (error) {
        console.error("browxai: page event listener failed:", error);
      }
    }
  }

  #forgetWorlds(frameId: string) {
    this.#worlds.delete(frameId);
    this.#mainWorlds.delete(frameId);
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
    this.#notifyLifecycle();
  }

  /** Forgets a detached OOPIF session. */
  dropSession(sessionId: string): void {
    this.#unsubs.get(sessionId)?.();
    this.#unsubs.delete(sessionId);
    this.#sessions.delete(sessionId);
    this.#contextFrames.delete(sessionId);
    for (const id of this.#frames.dropSession(sessionId, this.target.targetId)) {
      this.#forgetWorlds(id);
    }
  }

  /** Marks the tab closed and removes its listeners. */
  dispose(): void {
    this.#closed = true;
    for (const u of this.#unsubs.values()) u();
    this.#unsubs.clear();
    this.#listeners.clear();
    this.#notifyLifecycle();
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
    return this.#docResponses.get(frameId);
  }

  /** The title of the main document. CDP: `Runtime.evaluate` in the utility world. */
  async title(): Promise<string> {
    try {
      return String(await this.evaluate("document.title", { timeoutMs: 2000 }) ?? "");
    } catch {
      return this.target.title;
    }
  }

  /**
   * The execution context id of browxai's isolated world in a frame, created
   * on demand. CDP: `Page.createIsolatedWorld`.
   */
  async utilityContext(
    frameId = this.mainFrameId,
  ): Promise<{ session: CdpSession; contextId: number }> {
    const frame = this.#frames.get(frameId);
    if (!frame) {
      throw new ProtocolError(
        "Page.createIsolatedWorld",
        -32000,
        `No frame with given id found: "${frameId}"`,
      );
    }
    const known = this.#worlds.get(frameId);
    if (known !== undefined) return { session: frame.session, contextId: known };
    let pending = this.#pendingWorlds.get(frameId);
    if (!pending) {
      pending = frame.session.send("Page.createIsolatedWorld", {
        frameId,
        worldName: UTILITY_WORLD,
        grantUniveralAccess: true,
      }).then((r) => {
        this.#worlds.set(frameId, r.executionContextId);
        return r.executionContextId;
      }).finally(() => this.#pendingWorlds.delete(frameId));
      this.#pendingWorlds.set(frameId, pending);
    }
    return { session: frame.session, contextId: await pending };
  }

  /** The page's own (main world) execution context of a frame, if known. */
  mainContext(frameId = this.mainFrameId): number | undefined {
    return this.#mainWorlds.get(frameId);
  }

  /**
   * Evaluates an expression and returns its JSON value. By default in the
   * utility world of the main frame; `world: "main"` runs in the page's own
   * world (where page scripts can see and interfere).
   *
   * @throws EvaluationError with the exception text when the script throws.
   */
  async evaluate(
    expression: string,
    options: {
      frameId?: string;
      world?: "utility" | "main";
      timeoutMs?: number;
      userGesture?: boolean;
    } = {},
  ): Promise<unknown> {
    const frameId = options.frameId ?? this.mainFrameId;
    const frame = this.#frames.get(frameId);
    const session = frame?.session ?? this.session;
    let contextId: number | undefined;
    if (options.world === "main") contextId = this.#mainWorlds.get(frameId);
    else contextId = (await this.utilityContext(frameId)).contextId;
    const r = await session.send("Runtime.evaluate", {
      expression,
      ...(contextId !== undefined ? { contextId } : {}),
      returnByValue: true,
      awaitPromise: true,
      userGesture: options.userGesture ?? false,
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
    }, { timeoutMs: (options.timeoutMs ?? 30_000) + 1000 });
    if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
    return r.result.value;
  }

  /**
   * Calls a self-contained function (its source is sent, so it must not
   * capture anything) in the utility world of a frame with JSON arguments.
   */
  async call<T>(
    fn: (...args: never[]) => unknown,
    args: unknown[],
    options: { frameId?: string; timeoutMs?: number } = {},
  ): Promise<T> {
    const frameId = options.frameId ?? this.mainFrameId;
    const { session, contextId } = await this.utilityContext(frameId);
    const r = await session.send("Runtime.callFunctionOn", {
      functionDeclaration: fn.toString(),
      executionContextId: contextId,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    }, { timeoutMs: options.timeoutMs ?? 30_000 });
    if (r.exceptionDetails) throw new EvaluationError(exceptionText(r.exceptionDetails));
    return r.result.value as T;
  }

  #notifyLifecycle() {
    for (const w of [...this.#lifecycleWaiters]) w();
  }

  /**
   * Waits until the frame reached a load state (`commit` is immediate).
   * Resolves `true` when reached, `false` on timeout (never throws for time).
   */
  async waitForLoadState(
    state: LoadState,
    options: { frameId?: string; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    if (state === "commit") return true;
    const frameId = options.frameId ?? this.mainFrameId;
    const name = LIFECYCLE_NAME[state];
    const reached = () => {
      const f = this.#frames.get(frameId);
      return !f || this.isClosed || this.crashed || f.lifecycle.has(name) ||
        (name === "DOMContentLoaded" && f.lifecycle.has("load"));
    };
    return await this.#waitUntil(reached, options);
  }

  /** Resolves true once `reached()` holds (re-checked on lifecycle events), false on timeout. */
  #waitUntil(
    reached: () => boolean,
    options: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<boolean> {
    if (reached()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        this.#lifecycleWaiters.delete(check);
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        resolve(ok);
      };
      const check = () => {
        if (reached()) done(true);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), options.timeoutMs ?? 30_000);
      options.signal?.addEventListener("abort", onAbort);
      this.#lifecycleWaiters.add(check);
    });
  }

  /**
   * Runs `start` (which makes the main frame navigate, e.g. a history move)
   * and waits until the main frame committed a new document (then its
   * `load`) or changed URL within the document. Resolves false on timeout.
   */
  async waitForNavigation(
    start: () => Promise<unknown>,
    options: { timeoutMs?: number } = {},
  ): Promise<boolean> {
    const before = this.#frames.get(this.mainFrameId);
    const loaderId = before?.loaderId, url = before?.url;
    await start();
    return await this.#waitUntil(() => {
      const f = this.#frames.get(this.mainFrameId);
      if (!f || this.isClosed || this.crashed) return true;
      if (f.loaderId !== loaderId) return f.lifecycle.has("load");
      return f.url !== url;
    }, options);
  }

  /**
   * Reloads and waits for the new document's `load`. Resolves false on
   * timeout. CDP: `Page.reload`.
   */
  async reload(options: { timeoutMs?: number } = {}): Promise<boolean> {
    const before = this.#frames.get(this.mainFrameId)?.loaderId;
    await this.session.send("Page.reload", {});
    return await this.#waitUntil(() => {
      const f = this.#frames.get(this.mainFrameId);
      return !f || this.isClosed || this.crashed ||
        (f.loaderId !== before && f.lifecycle.has("load"));
    }, options);
  }

  /**
   * Navigates the main frame and waits for `waitUntil`.
   * CDP: `Page.navigate`.
   *
   * A URL that turns out to be a download resolves at once with
   * `isDownload` (Chromium answers `net::ERR_ABORTED` and `isDownload`; the
   * download's own events follow on the browser session).
   *
   * @throws NavigationError when Chromium refuses or fails the navigation
   *   (`net::ERR_…`), with the error text.
   */
  async navigate(
    url: string,
    options: { waitUntil?: LoadState; timeoutMs?: number; referrer?: string } = {},
  ): Promise<NavigateOutcome> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const started = Date.now();
    const r = await this.session.send("Page.navigate", {
      url,
      ...(options.referrer ? { referrer: options.referrer } : {}),
    }, { timeoutMs });
    if (r.isDownload) {
      return {
        url: this.url,
        response: undefined,
        timedOut: false,
        sameDocument: false,
        isDownload: true,
      };
    }
    if (r.errorText) throw new NavigationError(url, r.errorText);
    const sameDocument = !r.loaderId;
    if (!sameDocument) {
      // The frame must have switched to the new document before its lifecycle counts.
      const main = this.#frames.get(this.mainFrameId);
      if (main && main.loaderId !== r.loaderId) {
        main.loaderId = r.loaderId!;
        main.lifecycle = new Set();
      }
    }
    const remaining = Math.max(0, timeoutMs - (Date.now() - started));
    const ok = sameDocument ? true : await this.waitForLoadState(options.waitUntil ?? "load", {
      timeoutMs: remaining,
    });
    const response = this.#docResponses.get(this.mainFrameId);
    return {
      url: this.url,
      response: response && response.loaderId === r.loaderId ? response : undefined,
      timedOut: !ok,
      sameDocument,
      isDownload: false,
    };
  }
}

/** Re-exported so callers can test for a vanished target without importing errors.ts. */
export { isTargetClosedError, TimeoutError };
