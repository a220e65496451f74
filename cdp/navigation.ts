/**
 * Navigation and load states of one tab: the response that delivered each frame's document,
 * waiting for a frame's load state (from the lifecycle its {@link FrameInfo} records), and
 * the main-frame navigations that wait for them (`Page.navigate`, `Page.reload`, history
 * moves). {@link Page} owns one {@link PageNavigation} and exposes it through its own
 * methods.
 *
 * @module
 */
import type { CdpSession } from "./connection.ts";
import type { FrameInfo } from "./frame_tree.ts";
import { isTimeoutError } from "./errors.ts";
import { NavigationError } from "./page_errors.ts";
import type { Protocol } from "./types.ts";

/** The response that delivered a document. */
export interface DocumentResponse {
  url: string;
  status: number;
  /** The status line's text (`Not Found`), when the server sent one (HTTP/2 sends none). */
  statusText?: string;
  mimeType: string;
  loaderId: string;
  /**
   * The method of the request it answered (its last hop's: a POST answered by a 303 is the
   * GET that followed), when its `Network.requestWillBeSent` was seen: `POST` for a form's
   * result, whose URL a result shows by its keys only.
   */
  method?: string;
}

/** Load states `navigate`/`wait_for` understand. */
export type LoadState = "commit" | "domcontentloaded" | "load" | "networkidle";

/** The result of {@link PageNavigation.navigate}. */
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

/** Options of a wait: `timeoutMs` (ms, default 30 000) and an abort signal (ends it as false). */
export interface LoadWaitOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Options of {@link PageNavigation.navigate}; `timeoutMs` (ms) covers the command and the wait. */
export interface NavigateOptions {
  /** Default `load`. */
  waitUntil?: LoadState;
  /** Default 30 000. */
  timeoutMs?: number;
  referrer?: string;
  /**
   * The call's signal: when it aborts, the command and the wait end at once (`AbortError`
   * from the command; the wait resolves not-ok) and the tab stops loading
   * (`Page.stopLoading`), so the next call finds it idle.
   */
  signal?: AbortSignal | undefined;
  /**
   * Told each step of the navigation as it happens, in order: `request sent`, `response`
   * (the main document's, or the same-document move), then `DOMContentLoaded` and `load` as
   * the new document reaches them (those `waitUntil` waits for, or passes on the way).
   */
  onPhase?: ((phase: NavigatePhase) => void) | undefined;
}

/** A step of {@link PageNavigation.navigate}, in the order they happen. */
export type NavigatePhase = "request sent" | "response" | "DOMContentLoaded" | "load";

/** What {@link PageNavigation} reads of its tab ({@link Page} is one). */
export interface NavigationHost {
  /** The tab's own session: `Page.navigate` and `Page.reload` go there. */
  readonly session: CdpSession;
  /** The main frame id (the tab's target id). */
  readonly mainFrameId: string;
  /** The main frame's URL. */
  readonly url: string;
  /** Closed or crashed: every wait ends at once (as reached). */
  readonly isClosed: boolean;
  readonly crashed: boolean;
  /** A frame by id: its loader id and the lifecycle events of its document. */
  frame(frameId: string): FrameInfo | undefined;
}

/** How many documents' responses a frame remembers (back/forward cache entries, redirects). */
const KEPT_RESPONSES = 16;
/** How many document requests still without a response the tab remembers the method of. */
const KEPT_METHODS = 64;

const LIFECYCLE_NAME: Record<Exclude<LoadState, "commit">, string> = {
  domcontentloaded: "DOMContentLoaded",
  load: "load",
  networkidle: "networkIdle",
};

/**
 * The navigation state of one tab. The tab feeds it document responses
 * ({@link recordResponse}) and tells it when a load state may have been reached
 * ({@link lifecycleChanged}: frame lifecycle events, a crash, the tab closing).
 */
export class PageNavigation {
  #host: NavigationHost;
  /** Per frame: the document responses seen, by loader id (the newest last, {@link KEPT_RESPONSES}). */
  #docResponses = new Map<string, Map<string, DocumentResponse>>();
  /** The method of each document request not answered yet, by request id (the newest last). */
  #docMethods = new Map<string, string>();
  #lifecycleWaiters = new Set<() => void>();

  constructor(host: NavigationHost) {
    this.#host = host;
  }

  /**
   * Records a `Network.responseReceived` of type `Document` under its frame and loader. Kept
   * by loader: a response whose document never commits (a `204` that cancels the navigation,
   * like the navigation guard's refusals) must not stand for the document the frame keeps,
   * and a page restored from the back/forward cache (no new response) is known by its loader.
   */
  recordResponse(e: Protocol.Network.ResponseReceivedEvent): void {
    if (e.type !== "Document" || !e.frameId) return;
    const method = this.#docMethods.get(e.requestId);
    this.#docMethods.delete(e.requestId);
    let byLoader = this.#docResponses.get(e.frameId);
    if (!byLoader) this.#docResponses.set(e.frameId, byLoader = new Map());
    byLoader.delete(e.loaderId);
    byLoader.set(e.loaderId, {
      url: e.response.url,
      status: e.response.status,
      ...(e.response.statusText ? { statusText: e.response.statusText } : {}),
      mimeType: e.response.mimeType,
      loaderId: e.loaderId,
      ...(method !== undefined ? { method } : {}),
    });
    for (const old of byLoader.keys()) {
      if (byLoader.size <= KEPT_RESPONSES) break;
      byLoader.delete(old);
    }
  }

  /**
   * Records a `Network.requestWillBeSent` of type `Document` (each hop of a redirect): its
   * method goes with the response that answers it ({@link DocumentResponse.method}).
   */
  recordRequest(e: Protocol.Network.RequestWillBeSentEvent): void {
    if (e.type !== "Document") return;
    this.#docMethods.delete(e.requestId);
    this.#docMethods.set(e.requestId, e.request.method);
    // A request that never got a response (failed, stopped) is forgotten once enough came after.
    for (const old of this.#docMethods.keys()) {
      if (this.#docMethods.size <= KEPT_METHODS) break;
      this.#docMethods.delete(old);
    }
  }

  /**
   * The response that delivered the frame's current document (the one of its current loader),
   * if seen; the newest seen when the frame's loader is not known.
   */
  documentResponse(frameId: string): DocumentResponse | undefined {
    const byLoader = this.#docResponses.get(frameId);
    if (!byLoader) return undefined;
    const loaderId = this.#host.frame(frameId)?.loaderId;
    return loaderId ? byLoader.get(loaderId) : [...byLoader.values()].at(-1);
  }

  /** Makes every pending wait look again. */
  lifecycleChanged(): void {
    for (const w of [...this.#lifecycleWaiters]) w();
  }

  /** True when the tab's state ends every wait. */
  #gone(): boolean {
    return this.#host.isClosed || this.#host.crashed;
  }

  /**
   * Waits until a frame (default: the main frame) reached a load state (`commit` is
   * immediate; `domcontentloaded` is reached by `load` too). Resolves `true` when reached (or
   * the frame, the tab is gone), `false` on timeout or abort (never throws for time).
   */
  async waitForLoadState(
    state: LoadState,
    options: LoadWaitOptions & { frameId?: string } = {},
  ): Promise<boolean> {
    if (state === "commit") return true;
    const frameId = options.frameId ?? this.#host.mainFrameId;
    const name = LIFECYCLE_NAME[state];
    const reached = () => {
      const f = this.#host.frame(frameId);
      return !f || this.#gone() || f.lifecycle.has(name) ||
        (name === "DOMContentLoaded" && f.lifecycle.has("load"));
    };
    return await this.#waitUntil(reached, options);
  }

  /** Resolves true once `reached()` holds (re-checked on lifecycle changes), false on timeout. */
  #waitUntil(reached: () => boolean, options: LoadWaitOptions): Promise<boolean> {
    if (reached()) return Promise.resolve(true);
    if (options.signal?.aborted) return Promise.resolve(false);
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
   * Runs `start` (which makes the main frame navigate, e.g. a history move) and waits until
   * the main frame committed a new document (then its `load`) or changed URL within the
   * document. Resolves false on timeout (`timeoutMs`, ms, default 30 000) or when `signal`
   * aborts (e.g. the navigation was stopped).
   */
  async waitForNavigation(
    start: () => Promise<unknown>,
    options: LoadWaitOptions = {},
  ): Promise<boolean> {
    const main = this.#host.mainFrameId;
    const before = this.#host.frame(main);
    const loaderId = before?.loaderId, url = before?.url;
    await start();
    return await this.#waitUntil(() => {
      const f = this.#host.frame(main);
      if (!f || this.#gone()) return true;
      if (f.loaderId !== loaderId) return f.lifecycle.has("load");
      return f.url !== url;
    }, options);
  }

  /**
   * Reloads and waits for the new document's `load`. Resolves false on timeout (`timeoutMs`,
   * ms, default 30 000) or when `signal` aborts. CDP: `Page.reload`.
   */
  async reload(options: LoadWaitOptions = {}): Promise<boolean> {
    const main = this.#host.mainFrameId;
    const before = this.#host.frame(main)?.loaderId;
    await this.#host.session.send("Page.reload", {});
    return await this.#waitUntil(() => {
      const f = this.#host.frame(main);
      return !f || this.#gone() || (f.loaderId !== before && f.lifecycle.has("load"));
    }, options);
  }

  /**
   * Navigates the main frame and waits for `waitUntil`. CDP: `Page.navigate`.
   *
   * A URL that turns out to be a download resolves at once with `isDownload` (Chromium
   * answers `net::ERR_ABORTED` and `isDownload`; the download's own events follow on the
   * browser session).
   *
   * @throws NavigationError when Chromium refuses or fails the navigation (`net::ERR_…`),
   *   with the error text.
   */
  async navigate(url: string, options: NavigateOptions = {}): Promise<NavigateOutcome> {
    const host = this.#host;
    const timeoutMs = options.timeoutMs ?? 30_000;
    const started = Date.now();
    const signal = options.signal;
    // A navigation nobody waits for any more must not go on loading in the tab.
    const stop = () => host.session.send("Page.stopLoading").catch(() => {});
    signal?.addEventListener("abort", stop, { once: true });
    try {
      return await this.#navigate(url, options, timeoutMs, started);
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  }

  /**
   * Tells `onPhase` when the main frame reaches `DOMContentLoaded`, then `load` (each once, in
   * order); returns the function that looks a last time and stops listening.
   */
  #tellLifecycle(onPhase: (phase: NavigatePhase) => void): () => void {
    const phases = ["DOMContentLoaded", "load"] as const;
    let next = 0;
    const look = () => {
      const f = this.#host.frame(this.#host.mainFrameId);
      // `load` implies DOMContentLoaded, so both are told in order.
      while (f && next < phases.length && phases.slice(next).some((p) => f.lifecycle.has(p))) {
        onPhase(phases[next++]!);
      }
    };
    this.#lifecycleWaiters.add(look);
    look();
    return () => {
      look();
      this.#lifecycleWaiters.delete(look);
    };
  }

  async #navigate(
    url: string,
    options: NavigateOptions,
    timeoutMs: number,
    started: number,
  ): Promise<NavigateOutcome> {
    const host = this.#host;
    let r;
    options.onPhase?.("request sent");
    try {
      r = await host.session.send("Page.navigate", {
        url,
        ...(options.referrer ? { referrer: options.referrer } : {}),
      }, { timeoutMs, signal: options.signal });
    } catch (e) {
      if (!isTimeoutError(e)) throw e;
      // No response within the time: the server holds the request. Stop the loading, or the
      // tab stays busy and every later call on it waits.
      await host.session.send("Page.stopLoading").catch(() => {});
      throw new NavigationError(url, `no response within ${timeoutMs} ms (net::ERR_TIMED_OUT)`);
    }
    if (r.isDownload) {
      return {
        url: host.url,
        response: undefined,
        timedOut: false,
        sameDocument: false,
        isDownload: true,
      };
    }
    if (r.errorText) throw new NavigationError(url, r.errorText);
    options.onPhase?.("response");
    const sameDocument = !r.loaderId;
    if (!sameDocument) {
      // The frame must have switched to the new document before its lifecycle counts.
      const main = host.frame(host.mainFrameId);
      if (main && main.loaderId !== r.loaderId) {
        main.loaderId = r.loaderId!;
        main.lifecycle = new Set();
      }
    }
    const remaining = Math.max(0, timeoutMs - (Date.now() - started));
    // The new document's lifecycle told as it comes, while the wait below runs.
    const told = sameDocument || !options.onPhase
      ? undefined
      : this.#tellLifecycle(options.onPhase);
    let ok;
    try {
      ok = sameDocument ? true : await this.waitForLoadState(options.waitUntil ?? "load", {
        timeoutMs: remaining,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      told?.();
    }
    options.signal?.throwIfAborted();
    const response = r.loaderId
      ? this.#docResponses.get(host.mainFrameId)?.get(r.loaderId)
      : undefined;
    return {
      url: host.url,
      response,
      timedOut: !ok,
      sameDocument,
      isDownload: false,
    };
  }
}
