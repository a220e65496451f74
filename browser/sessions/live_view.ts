/**
 * The live view of one session (issue 15): a screencast of its active tab, running only while
 * at least one watcher is subscribed. It follows the active tab when the agent switches tabs,
 * restarts when the tab recovers from a crash, and acknowledges every frame (Chromium sends
 * the next frame only after the previous ones are acknowledged, so an unacknowledged stream
 * stalls). Acknowledgements are paced to at most {@link MAX_FPS} frames a second, and
 * {@link ACTING_FPS} while a tool call acts on the session, which bounds what the screencast
 * costs the browser while the agent works.
 *
 * CDP: `Page.startScreencast`, `Page.screencastFrame`, `Page.screencastFrameAck`,
 * `Page.stopScreencast` (on the tab's own session).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { Protocol } from "../../cdp/types.ts";
import type { BrowserSession } from "./browser_session.ts";

/** Most frames a second asked of the browser (acknowledgements are paced to this). */
export const MAX_FPS = 15;
/**
 * Most frames a second while the agent acts on the session: encoding frames costs the browser
 * CPU the agent's call is waiting for (bench/console_view.ts measures it).
 */
export const ACTING_FPS = 4;
/** How often the view checks which tab is active, ms. */
const FOLLOW_MS = 200;
/**
 * After a burst of frames whose acknowledgements were held back (paced), once the page has been
 * still this long, the cast is restarted once for a fresh frame: Chromium drops the frames it
 * draws while earlier ones are unacknowledged, so the last change of a burst (the outcome of a
 * click) could otherwise never be sent, ms.
 */
export const QUIET_REFRESH_MS = 300;

/** One frame of the live view. */
export interface LiveFrame {
  /** Base64 JPEG. */
  data: string;
  /** CDP `Page.ScreencastFrameMetadata`: offsetTop, pageScaleFactor, deviceWidth/Height (CSS px), scrollOffsetX/Y, timestamp (s). */
  metadata: Protocol.Page.ScreencastFrameMetadata;
  /** The tab's target id. */
  tab: string;
}

/** What a watcher wants: the largest image it can show, in device pixels, and a JPEG quality. */
export interface WatchOptions {
  /** Widest frame wanted, px (clamped to 64..4096). */
  maxWidth: number;
  /** Tallest frame wanted, px (clamped to 64..4096). */
  maxHeight: number;
  /** JPEG quality 1..100. @default 70 */
  quality?: number;
}

interface Watcher {
  options: WatchOptions;
  onFrame: (frame: LiveFrame) => void;
}

/** `n` rounded into [lo, hi]; `fallback` when it is not a finite number. */
function clamp(n: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.round(n))) : fallback;
}

/** The screencast parameters that serve every watcher: the largest size and best quality asked. */
export function castParams(
  watchers: Iterable<{ options: WatchOptions }>,
): Protocol.Page.StartScreencastRequest {
  let maxWidth = 64, maxHeight = 64, quality = 1;
  for (const { options } of watchers) {
    maxWidth = Math.max(maxWidth, clamp(options.maxWidth, 64, 4096, 1280));
    maxHeight = Math.max(maxHeight, clamp(options.maxHeight, 64, 4096, 800));
    quality = Math.max(quality, clamp(options.quality ?? 70, 1, 100, 70));
  }
  return { format: "jpeg", quality, maxWidth, maxHeight, everyNthFrame: 1 };
}

/** The live view of one session; see the module doc. */
export class LiveView {
  readonly #session: BrowserSession;
  #watchers = new Set<Watcher>();
  /** The tab being cast and what to undo to stop it. */
  #cast: { page: Page; params: string; stop: () => void } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastAck = 0;
  /** Acknowledgements waiting for their turn. */
  #acks = new Set<ReturnType<typeof setTimeout>>();
  /** The last frame sent, for a watcher that joins while the page is still. */
  #last: LiveFrame | undefined;
  /** When the last frame arrived, ms since the epoch. */
  #lastFrameAt = 0;
  /** When the frame of the last refresh arrived (see {@link QUIET_REFRESH_MS}). */
  #refreshedAt = 0;
  #refreshing = false;
  /** An acknowledgement was held back since the last refresh: Chromium may have dropped a frame. */
  #heldAck = false;

  constructor(session: BrowserSession) {
    this.#session = session;
    session.closedSignal.addEventListener("abort", () => this.#stop(), { once: true });
  }

  /** Watchers subscribed now. */
  get watchers(): number {
    return this.#watchers.size;
  }

  /** The tab cast now (target id), if any. */
  get castTab(): string | undefined {
    return this.#cast?.page.target.targetId;
  }

  /**
   * Subscribes `onFrame` to the session's frames; the screencast starts with the first watcher
   * and stops with the last. The latest frame, if any, is delivered at once.
   *
   * @returns A function that unsubscribes (idempotent).
   */
  watch(options: WatchOptions, onFrame: (frame: LiveFrame) => void): () => void {
    const w: Watcher = { options, onFrame };
    this.#watchers.add(w);
    if (this.#last && this.#last.tab === this.#session.activePage?.target.targetId) {
      onFrame(this.#last);
    }
    this.#timer ??= setInterval(() => this.#follow(), FOLLOW_MS);
    this.#follow();
    return () => {
      if (!this.#watchers.delete(w)) return;
      if (!this.#watchers.size) this.#stop();
      else this.#follow();
    };
  }

  /**
   * Casts the active tab with the parameters the watchers need: starts, moves to another tab
   * or restarts with new parameters when that changed; stops when nobody watches.
   */
  #follow(): void {
    if (this.#session.closed || !this.#watchers.size) return this.#stop();
    const page = this.#session.activePage;
    const params = castParams(this.#watchers);
    const key = JSON.stringify(params);
    const cast = this.#cast;
    if (cast && cast.page === page && cast.params === key && !page.isClosed) {
      const now = Date.now();
      if (
        !this.#refreshing && this.#heldAck && this.#lastFrameAt > this.#refreshedAt &&
        now - this.#lastFrameAt >= QUIET_REFRESH_MS
      ) {
        // Restart for a fresh frame (its arrival ends the refresh).
        this.#refreshing = true;
        this.#heldAck = false;
        page.send("Page.stopScreencast", undefined, { timeoutMs: 5000 }).catch(() => {});
        this.#send(page, castParams(this.#watchers));
      }
      return;
    }
    if (cast) {
      cast.stop();
      this.#cast = undefined;
    }
    if (!page || page.isClosed || page.crashed) return;
    this.#start(page, params, key);
  }

  #start(page: Page, params: Protocol.Page.StartScreencastRequest, key: string): void {
    const offFrame = page.onEvent("Page.screencastFrame", (frame, session) => {
      if (session !== page.session) return;
      this.#ack(page, frame.sessionId);
      this.#lastFrameAt = Date.now();
      if (this.#refreshing) {
        this.#refreshing = false;
        this.#refreshedAt = this.#lastFrameAt;
      }
      const f: LiveFrame = {
        data: frame.data,
        metadata: frame.metadata,
        tab: page.target.targetId,
      };
      this.#last = f;
      for (const w of [...this.#watchers]) {
        try {
          w.onFrame(f);
        } catch { /* one watcher's failure is its own */ }
      }
    });
    let crashed = false;
    const offCrash = page.onEvent("Inspector.targetCrashed", () => crashed = true);
    // A tab that recovers from a crash (navigate or reload) has a new renderer: cast again.
    const offNav = page.onEvent("Page.frameNavigated", (p) => {
      if (crashed && !p.frame.parentId) {
        crashed = false;
        if (this.#cast?.page === page) this.#cast.params = "";
      }
    });
    this.#send(page, params);
    this.#cast = {
      page,
      params: key,
      stop: () => {
        offFrame();
        offCrash();
        offNav();
        if (!page.isClosed) {
          page.send("Page.stopScreencast", undefined, { timeoutMs: 5000 }).catch(() => {});
        }
      },
    };
  }

  /** Asks Chromium to cast `page`; a failure makes the next follow tick try again. */
  #send(page: Page, params: Protocol.Page.StartScreencastRequest): void {
    page.send("Page.startScreencast", params, { timeoutMs: 5000 }).catch(() => {
      // The tab went (or is crashed): the next follow tick tries again.
      if (this.#cast?.page === page) this.#cast.params = "";
      this.#refreshing = false;
    });
  }

  /**
   * Acknowledges a frame (every one), each no sooner than 1/{@link MAX_FPS} s after the
   * previous: Chromium keeps only a few frames unacknowledged, so this paces the stream.
   */
  #ack(page: Page, sessionId: number): void {
    const fps = this.#session.acting ? ACTING_FPS : MAX_FPS;
    const at = Math.max(Date.now(), this.#lastAck + 1000 / fps);
    if (at > Date.now()) this.#heldAck = true;
    this.#lastAck = at;
    const send = () => {
      this.#acks.delete(timer);
      if (!page.isClosed) {
        page.send("Page.screencastFrameAck", { sessionId }, { timeoutMs: 5000 }).catch(() => {});
      }
    };
    const timer = setTimeout(send, at - Date.now());
    this.#acks.add(timer);
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    // Pending acknowledgements are sent (not dropped): the stream stops anyway.
    this.#cast?.stop();
    this.#cast = undefined;
    if (this.#session.closed) this.#watchers.clear();
  }
}

const views = new WeakMap<BrowserSession, LiveView>();

/** The live view of `session` (one per session, made on first use). */
export function liveViewOf(session: BrowserSession): LiveView {
  let v = views.get(session);
  if (!v) views.set(session, v = new LiveView(session));
  return v;
}
