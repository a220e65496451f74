/**
 * Records what an action really did, from the moment before it to the
 * moment the page settled: navigation, new tabs, dialogs, console errors,
 * page errors and network traffic (writes summarized by keys, never values).
 * What it returns, a {@link Recording}, is described in `recording.ts`; its traffic and dialogs
 * are summarized by `window_summary.ts`; which requests still hold the window is
 * `pending_requests.ts`'s.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { SessionEventArgs } from "../sessions/browser_session_types.ts";
import type { DialogRecord } from "../sessions/dialogs.ts";
import type { NetworkEntry } from "../sessions/page_logs.ts";
import { originOf } from "../../policy/hosts.ts";
import { isWriteMethod, reportedUrl } from "../network_writes.ts";
import { within } from "../poll.ts";
import { dialogList, networkSummary } from "./window_summary.ts";
import { isBrowserFavicon, pendingRequests, SETTLE_CAP_MS } from "./pending_requests.ts";

/** Long-lived connections: never what a load waits for. */
const STREAMING_HOLDERS = new Set(["EventSource", "WebSocket", "Ping"]);
import {
  hostOf,
  loadWarning,
  type NavigationInfo,
  type Recording,
  routedOf,
  stripHash,
} from "./recording.ts";

/** How long the page must be quiet before the window closes, ms (after input: rAF work, renders). */
const QUIET_MS = 75;
/**
 * After a document's load, how long the page must be quiet before a navigation's window asks
 * the timer watch, ms: none. The new document counts its own start (`page_timers_script.ts`:
 * its short timers, requests, animation frames, tasks and messages until just after its load,
 * and 25 ms after counted work ended), and the recorder sees its requests: the watch's answer,
 * asked once the main frame stopped loading, says whether anything is still to come. (A 25 ms
 * quiet here was a tenth of a small page's navigate, the peer's included.)
 */
export const NAVIGATION_QUIET_MS = 0;
const MAX_NEW_TABS = 10;
/**
 * A dedicated worker the action started holds the window this long, ms: what it does first (a
 * timer, then a message or a request) comes later, unseen (the timer watch is not in workers).
 */
export const WORKER_START_MS = 1000;
/** How long an action waits for a tab it opened to show its first document, ms. */
const NEW_TAB_WAIT_MS = 3000;
/**
 * A request still without its response stops holding the window once the page has been quiet
 * this long, ms: a long-poll or a stalled API call is the page's life, not the action's effect
 * (the bound: 1 s past the last activity).
 */
export const PENDING_IDLE_MS = 1000;
/** Records one action window of a session. */
export class ActionRecorder {
  #session: BrowserSession;
  #page: Page;
  #consoleMark: number;
  #networkMark: number;
  #routedMark: number;
  #fromUrl: string;
  /** The method that fetched the document the action started on (a form's POST: by keys). */
  #fromMethod: string | undefined;
  #dialogs: DialogRecord[] = [];
  #newTabs: Page[] = [];
  /** Tabs that closed during the window, with their last URL (the first {@link MAX_NEW_TABS}). */
  #closedTabs: string[] = [];
  #tabOpenedAt = new Map<Page, number>();
  /** When each dedicated worker the window saw start started, epoch ms. */
  #workersAt: number[] = [];
  /** Tabs the page opened past the session's cap, closed at once (`tab_cap.ts`). */
  #refusedTabs = 0;
  #mainNavigated = false;
  /**
   * The main frame's last new document was one restored from the back/forward cache
   * (`Page.frameNavigated` `type: "BackForwardCacheRestore"`): shown as it was left.
   */
  #restored = false;
  #sameDocNavigated = false;
  #fileChooser = false;
  #loading = false;
  /** When the page was last seen active, epoch ms (0: not yet; settle starts its own clock). */
  #lastActivity = 0;
  /** When the action's last input was answered, epoch ms ({@link inputAnswered}); once. */
  #inputAt: number | undefined;
  /** Page activity seen so far (a count: what happened while a question was out). */
  #activities = 0;
  #wake: (() => void) | undefined;
  #writeSessions = new Map<string, CdpSession>();
  /** The document (tab, frame, loader) that started each subresource request of the window. */
  #requestDocs = new Map<string, { page: Page; frameId: string; loaderId: string }>();
  /** The browser's favicon fetches seen (by request id): their events are not page activity. */
  #favicons = new Set<string>();
  #unsubscribe: () => void;

  constructor(session: BrowserSession, page: Page) {
    this.#session = session;
    this.#page = page;
    this.#consoleMark = session.logs.console.lastSeq;
    this.#networkMark = session.logs.network.lastSeq;
    this.#routedMark = session.routes.lastSeq;
    this.#fromUrl = page.url;
    this.#fromMethod = page.documentResponse()?.method;
    this.#unsubscribe = session.listen({
      event: (...args) => this.#onEvent(...args),
      tabOpening: () => this.#activity(),
      workerStarted: () => {
        this.#workersAt.push(Date.now());
        this.#activity();
      },
      tabRefused: () => {
        this.#refusedTabs++;
        this.#activity();
      },
      tabOpened: (p) => {
        this.#newTabs.push(p);
        this.#tabOpenedAt.set(p, Date.now());
        this.#activity();
      },
      tabClosed: (p) => {
        if (this.#closedTabs.length < MAX_NEW_TABS) {
          this.#closedTabs.push(reportedUrl(p.url, p.documentResponse()?.method));
        }
        this.#activity();
      },
      dialog: (d) => {
        this.#dialogs.push(d);
        // The page asked to stay (its beforeunload dismissed): the navigation it guarded is
        // cancelled, and Chromium may never say the main frame stopped loading.
        if (
          d.kind === "beforeunload" && d.handledAs === "dismissed" &&
          d.tab === this.#page.target.targetId
        ) this.#loading = false;
        this.#activity();
      },
    });
  }

  /**
   * The acted-on tab's main frame is loading, as last seen (kept after {@link dispose}): a
   * navigation it started may not have committed yet.
   */
  get loading(): boolean {
    return this.#loading;
  }

  /**
   * The action's last input event was answered at `at` (epoch ms), and what the action did
   * after only read the page: the next {@link settle}'s quiet period counts from then (or
   * from the page's last activity, if later) instead of from its own start, so the round
   * trips the action made after its input overlap the quiet. Activity seen since still
   * restarts the quiet clock (the recorder listened all along), and the timer watch is still
   * asked. Used by the next settle only.
   */
  inputAnswered(at: number): void {
    this.#inputAt = at;
  }

  #activity() {
    this.#lastActivity = Date.now();
    this.#activities++;
    this.#wake?.();
  }

  #onEvent(...[page, method, params, cdp]: SessionEventArgs) {
    if (method.startsWith("Network.")) {
      const requestId = (params as { requestId?: string }).requestId;
      if (requestId !== undefined && this.#favicons.has(requestId)) return;
      if (method === "Network.requestWillBeSent") {
        if (isBrowserFavicon(params.type, params.request.url)) {
          this.#favicons.add(params.requestId);
          return;
        }
        if (isWriteMethod(params.request.method)) this.#writeSessions.set(params.requestId, cdp);
        if (params.frameId && params.loaderId && params.type !== "Document") {
          this.#requestDocs.set(params.requestId, {
            page,
            frameId: params.frameId,
            loaderId: params.loaderId,
          });
        }
      }
      if (method !== "Network.dataReceived") this.#activity();
      return;
    }
    if (page !== this.#page) return;
    const main = page.mainFrameId;
    switch (method) {
      case "Page.fileChooserOpened":
        this.#fileChooser = true;
        this.#activity();
        break;
      case "Page.frameRequestedNavigation":
        // A Ctrl/Shift/middle click asks for a navigation in a new tab (`disposition` newTab,
        // newWindow) or a download: this frame never loads, and waiting for it to stop held
        // the result to the settle cap (5 s) however soon the new tab was known.
        if (params.frameId === main && params.disposition === "currentTab") this.#loading = true;
        this.#activity();
        break;
      case "Page.frameStartedLoading":
        if (params.frameId === main) this.#loading = true;
        this.#activity();
        break;
      case "Page.frameStoppedLoading":
        if (params.frameId === main) this.#loading = false;
        this.#activity();
        break;
      case "Page.frameNavigated": {
        const { frame } = params;
        if (!frame.parentId) {
          this.#mainNavigated = true;
          this.#restored = params.type === "BackForwardCacheRestore";
        }
        this.#activity();
        break;
      }
      case "Page.navigatedWithinDocument":
        if (params.frameId === main) this.#sameDocNavigated = true;
        this.#activity();
        break;
    }
  }

  /** A tab the action opened has not shown its first document yet (bounded by NEW_TAB_WAIT_MS). */
  #newTabLoading(): boolean {
    return this.#newTabs.some((p) => {
      if (p.isClosed || Date.now() - (this.#tabOpenedAt.get(p) ?? 0) > NEW_TAB_WAIT_MS) {
        return false;
      }
      // Its first document was refused: it stays blank (the window closes it).
      if (this.#session.navGuard?.stoppedTab(p.target.targetId)) return false;
      const main = p.frame(p.mainFrameId);
      return !main || main.url === "" || main.url === "about:blank" ||
        !main.lifecycle.has("DOMContentLoaded");
    });
  }

  /**
   * The window's requests with no answer yet that hold the main frame's load (a slow image, a
   * tracker pixel), oldest first: named when the result is taken while the page still loads.
   */
  loadHolders(): NetworkEntry[] {
    return this.#session.logs.network.since(this.#networkMark).filter((r) =>
      !r.done && r.status === undefined && r.type !== "Document" &&
      !STREAMING_HOLDERS.has(r.type) && !isBrowserFavicon(r.type, r.url) &&
      !this.#orphaned(r.requestId)
    );
  }

  /** The window's requests that still hold it (see {@link pendingRequests}). */
  #pendingRequests(): NetworkEntry[] {
    const entries = this.#session.logs.network.since(this.#networkMark);
    return pendingRequests(entries, (requestId) => this.#orphaned(requestId));
  }

  /**
   * A request of a document its frame no longer shows: Chromium may end such requests without
   * a loadingFinished or loadingFailed (a page that fetches again as its fetches are cancelled
   * on unload leaves a few), and nothing is left to read them: not waited for.
   */
  #orphaned(requestId: string): boolean {
    const doc = this.#requestDocs.get(requestId);
    const loaderId = doc && doc.page.frame(doc.frameId)?.loaderId;
    return !!loaderId && loaderId !== doc.loaderId;
  }

  /**
   * Waits until what the action started is done: a navigation has loaded,
   * its requests settled (one still without a response counts only until the page has been
   * quiet {@link PENDING_IDLE_MS}: a long-poll), nothing happened for a short quiet window, and
   * `timersDue` (the timer watch, `page_timers.ts`) says no timer the action
   * set is still to run (when one is, the wait lasts until it ran, then
   * starts over). The quiet counts from settle's start, or from the input {@link inputAnswered}
   * named. Bounded by `deadline` and a 5 s cap (`timersDue` gets the cap, epoch ms:
   * a page that has not answered by then counts as not settled); never a fixed sleep.
   *
   * @param quietMs How long "quiet" is, ms (default 75).
   * @param stretch Asked after each `timersDue` answer: true when the page says requests the
   *   action's input started are still unanswered (its search, its save): the wait for them
   *   lasts until `deadline` (the call's timeoutMs), not only the 5 s cap.
   * @throws the signal's reason as soon as `signal` (the call's) aborts.
   */
  async settle(
    deadline: number,
    signal?: AbortSignal,
    timersDue?: (signal?: AbortSignal, deadline?: number) => Promise<number | undefined>,
    quietMs: number = QUIET_MS,
    stretch?: () => boolean,
  ): Promise<boolean> {
    const shortCap = Math.min(deadline, Date.now() + SETTLE_CAP_MS);
    let cap = shortCap;
    // The quiet counts from the action's input when it said when (nothing since but reads).
    this.#lastActivity = this.#inputAt === undefined
      ? Date.now()
      : Math.min(Date.now(), Math.max(this.#lastActivity, this.#inputAt));
    this.#inputAt = undefined;
    while (true) {
      let now = Date.now();
      const quietFor = now - this.#lastActivity;
      const busy = this.#loading ||
        (quietFor < PENDING_IDLE_MS && this.#pendingRequests().length > 0) ||
        this.#session.openingTabs > 0 || this.#newTabLoading() ||
        // A worker the acted-on document started (a new document's are that page's life).
        (!this.#mainNavigated && this.#workersAt.some((t) => now - t < WORKER_START_MS));
      // Quiet: unless the action set timers that are still to run (a handler that navigates,
      // raises a dialog or re-renders a moment later), it is done.
      let timerMs: number | undefined;
      if (!busy && quietFor >= quietMs) {
        if (!timersDue || now >= cap) return true;
        const seen = this.#activities;
        timerMs = await timersDue(signal, cap);
        signal?.throwIfAborted();
        now = Date.now();
        cap = stretch?.() ? deadline : shortCap;
        // The page answers once its main thread is free: what the script running meanwhile
        // started (the next module a loader requests) came before the answer, so the page was
        // not quiet after all: look again.
        if (timerMs === undefined && this.#activities !== seen && now < cap) continue;
        // No answer by the cap is a page still busy in its own script: not settled.
        if (timerMs === undefined) return now < cap;
      }
      if (now >= cap) return false;
      const waitMs = timerMs !== undefined
        ? Math.min(timerMs, cap - now)
        : busy
        ? Math.min(100, cap - now, Math.max(1, PENDING_IDLE_MS - quietFor))
        : Math.min(quietMs - quietFor, cap - now);
      // Woken at once by page activity; else re-checked after waitMs.
      try {
        await within(
          new Promise<void>((resolve) => this.#wake = resolve),
          Math.max(1, waitMs),
          signal,
        );
      } finally {
        this.#wake = undefined;
      }
      // A timer ran (or page activity woke us): what it does gets its quiet window.
      if (timerMs !== undefined) this.#lastActivity = Math.max(this.#lastActivity, Date.now());
    }
  }

  /** Stops listening and summarizes the window. CDP: `Network.getResponseBody` (write responses' keys). */
  async finish(stillLoading: boolean, requestedUrl?: string): Promise<Recording> {
    this.#unsubscribe();
    const logs = this.#session.logs;
    const consoleEntries = logs.console.since(this.#consoleMark);
    // The browser's own favicon fetch is not something the page did.
    const requests = logs.network.since(this.#networkMark).filter((r) =>
      !isBrowserFavicon(r.type, r.url)
    );
    const active = this.#session.activePage ?? this.#page;
    // Navigation is about the tab acted on; a tab it opened is in newTabs.
    const toPage = this.#page.isClosed ? active : this.#page;
    const to = toPage.url;
    let kind: NavigationInfo["kind"] = null;
    // The tab acted on closed itself (a popup's window.close()): not a move of a page.
    if (this.#page.isClosed) kind = "tab_closed";
    else if (this.#mainNavigated) kind = this.#restored ? "bfcache_restore" : "full_load";
    else if (this.#sameDocNavigated) {
      kind = stripHash(this.#fromUrl) === stripHash(to) ? "hash" : "spa";
    }
    // Shown by the one rule (`reportedUrl`): a document a form's POST fetched by its keys.
    const navigation: NavigationInfo = {
      changed: this.#mainNavigated || to !== this.#fromUrl,
      from: reportedUrl(this.#fromUrl, this.#fromMethod),
      to: reportedUrl(to, toPage.documentResponse()?.method),
      kind,
    };
    if (requestedUrl) {
      const requestedHost = hostOf(requestedUrl), landedHost = hostOf(to);
      if (requestedHost && landedHost && requestedHost !== landedHost) {
        navigation.offOrigin = {
          requested: originOf(requestedUrl) ?? requestedUrl,
          landed: originOf(to) ?? to,
        };
      }
    }
    // A new document that is not the page asked for: Chromium's error page, or a 4xx/5xx.
    const failedDocs = requests.filter((r) =>
      r.type === "Document" && r.frameId === toPage.mainFrameId && r.failed && r.errorText
    );
    const warning = this.#mainNavigated
      ? loadWarning(
        to,
        toPage.documentResponse(),
        failedDocs.findLast((r) => r.errorText !== "canceled") ?? failedDocs.at(-1),
      )
      : undefined;
    const net = await networkSummary(requests, this.#writeSessions);
    return {
      navigation,
      newTabs: await Promise.all(
        this.#newTabs.slice(0, MAX_NEW_TABS).map(async (p) => ({
          index: this.#session.tabs.indexOf(p),
          url: reportedUrl(p.url, p.documentResponse()?.method),
          title: await p.title().catch(() => ""),
        })),
      ),
      newTabCount: this.#newTabs.length,
      // Said, not left to the agent to infer from newTabs: later calls go to this tab.
      ...(active !== this.#page && !active.isClosed
        ? { activeTab: this.#session.tabs.indexOf(active) }
        : {}),
      ...(this.#refusedTabs ? { refusedTabs: this.#refusedTabs } : {}),
      ...(this.#closedTabs.length ? { closedTabs: this.#closedTabs.map((url) => ({ url })) } : {}),
      console: {
        errors: consoleEntries.filter((c) => c.level === "error").slice(0, 10).map((c) =>
          c.text.slice(0, 300)
        ),
        warnings: consoleEntries.filter((c) => c.level === "warning").length,
      },
      pageErrors: consoleEntries.filter((c) => c.level === "exception").slice(0, 10).map((c) =>
        c.text.slice(0, 300)
      ),
      network: {
        ...net,
        ...routedOf(this.#session.routes.since(this.#routedMark)),
      },
      ...dialogList(this.#dialogs),
      activePage: active,
      fullLoad: this.#mainNavigated,
      ...(warning ? { loadWarning: warning } : {}),
      stillLoading,
      fileChooser: this.#fileChooser,
    };
  }

  /** Stops listening without summarizing (the action failed early). */
  dispose(): void {
    this.#unsubscribe();
  }
}
