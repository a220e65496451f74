/**
 * One browxai session: a browser context (incognito), a profile's own
 * Chromium (persistent) or someone else's browser (attached); its tabs, the
 * active tab, console and network logs, dialog handling (`dialogs.ts`), device
 * emulation (`emulation.ts`), and the ref registry. Its types are in
 * `browser_session_types.ts`, its turn queue in `session_turns.ts`, its tabs' navigation
 * guarding in `session_guard.ts`, whether it is closed or crashed in `session_life.ts`, its
 * tabs' events in `session_events.ts`, letting go of its browser in `session_release.ts`.
 *
 * @module
 */
import { HumanState } from "./human_state.ts";
import { installPageTimers, newTimerKey } from "./page_timers.ts";
import type { Page } from "../../cdp/page.ts";
import type { AttachedTarget } from "../../cdp/target_manager.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import { ToolError } from "../tool_error.ts";
import type { NavGuard } from "../nav_guard/nav_guard.ts";
import { leaveBeforeClose } from "../nav_guard/leave_before_close.ts";
import type { UnheldJudge } from "../nav_guard/unheld_requests.ts";
import { RefRegistry } from "../snapshot/refs.ts";
import { NamedRefs } from "../snapshot/named_refs.ts";
import type { SnapshotCache } from "../snapshot/capture.ts";
import type { RoutedBrowser } from "./browser_host.ts";
import { SessionTurns } from "./session_turns.ts";
import { clipboardStep } from "./shared_clipboard.ts";
import { currentCallScope } from "./call_scope.ts";
import { pageBlocked, tabCrashed } from "./session_errors.ts";
import { SessionLife } from "./session_life.ts";
import { BetweenCalls } from "./between_calls.ts";
import { pageEventRouter } from "./session_events.ts";
import { releaseBrowser } from "./session_release.ts";
import { SessionDialogs } from "./dialogs.ts";
import { leaveLostDialog } from "./stuck_dialogs.ts";
import { SessionGuard } from "./session_guard.ts";
import { adoptWorker } from "./session_workers.ts";
import { SessionEmulation } from "./emulation.ts";
import { PageLogs } from "./page_logs.ts";
import { SessionSlots } from "./session_slots.ts";
import { SessionRoutes } from "../routes/routes.ts";
import { watchWorkerTraffic } from "./worker_traffic.ts";
import { TabCap } from "./tab_cap.ts";
import type {
  BrowserSessionOptions,
  SessionListener,
  SessionMode,
} from "./browser_session_types.ts";

/**
 * How long a new tab may take to attach and be set up, ms: a ceiling only (a call's own budget
 * ends its wait first); a loaded machine can take well over the usual tens of ms.
 */
const NEW_TAB_WAIT_MS = 60_000;

/** One browxai session. */
export class BrowserSession {
  readonly id: string;
  readonly mode: SessionMode;
  readonly created = Date.now();
  /** The name of this session's timer watch in its pages (`page_timers.ts`). */
  readonly timerKey = newTimerKey();
  lastUsed = Date.now();
  readonly logs: PageLogs;
  readonly refs = new RefRegistry();
  /** Names the agent gave to refs (`name_ref`), aliases resolved through {@link refs}. */
  readonly named = new NamedRefs(this.refs);
  /** The last full snapshot of each tab (by target id), reused while unchanged. */
  readonly snapshots: SnapshotCache = new Map();
  /** What other modules keep per session (downloads, upload copies, a backgrounded tab). */
  readonly slots = new SessionSlots();
  readonly profileDir: string | undefined;
  /** Its browser's windows are shown (see {@link BrowserSessionOptions.headful}). */
  readonly headful: boolean;
  /** Its Chromium serves other clients too (see {@link BrowserSessionOptions.sharedWithClients}). */
  readonly sharedWithClients: boolean;
  #routed: RoutedBrowser;
  #contextId: string | undefined;
  #ownsContext: boolean;
  #ownsBrowser: boolean;
  #tabs: Page[] = [];
  #active: Page | undefined;
  #listeners = new Set<SessionListener>();
  /** Each CDP event of a tab: logs, dialogs, the next result, the listeners. */
  readonly #onPageEvent = pageEventRouter(this, this.#listeners);
  /** Closed, crashed, the crash told. */
  readonly #life: SessionLife;
  #ownTabs = new Set<string>();
  #creatingOwn = 0;
  #opening = new Set<string>();
  /** Dialog answering: the policy, the answer armed for the next acting call. */
  readonly dialogs = new SessionDialogs();
  /** The tabs under the navigation guard. */
  readonly #guard = new SessionGuard(this);
  /** Sites (registrable domains) a human approved for this session (per-site approvals). */
  readonly approvedSites = new Set<string>();
  /** Network routes (`route`): answered by the navigation guard's Fetch handler of every tab. */
  readonly routes = new SessionRoutes();
  /** Device emulation knobs, re-applied to every new tab, popup and OOPIF before it runs. */
  readonly emulation = new SessionEmulation();
  /** The human half: control, console viewers, asks, highlights, picks (issue 15). */
  readonly human = new HumanState();
  /** What happened outside the session's action windows, for its next result (`sinceLastCall`). */
  readonly between: BetweenCalls<Page>;
  /** Shared and service workers whose requests are logged, by target id (`worker_traffic.ts`). */
  #workers = new Map<string, CdpSession>();
  /** Tabs pages open past the cap: closed at once (`tab_cap.ts`). */
  readonly #tabCap = new TabCap();
  /** Tabs a call is closing (closeTab): their closing is no news. */
  #ownClosing = new Set<string>();
  /** The tabs the session found when it started are no news. */
  #claiming = false;

  constructor(options: BrowserSessionOptions) {
    this.id = options.id;
    this.mode = options.mode;
    this.#turns = new SessionTurns(this, this.id);
    this.#life = new SessionLife(this.id);
    this.#routed = options.routed;
    this.#contextId = options.browserContextId;
    this.#ownsContext = options.ownsContext;
    this.#ownsBrowser = options.ownsBrowser;
    this.profileDir = options.profileDir;
    this.headful = options.headful ?? false;
    this.sharedWithClients = options.sharedWithClients ?? false;
    this.logs = new PageLogs({ secretSpans: options.secretSpans });
    this.between = new BetweenCalls({ secretSpans: options.secretSpans });
    this.dialogs.onChange = (record) => this.between.dialogChanged(record);
    // An attached browser's tabs are the person's, whatever context they are in.
    const claimed = options.routed.router.claim(options.browserContextId, this, {
      allContexts: options.mode === "attached",
    });
    this.#claiming = true;
    for (const page of claimed) {
      this.pageAttached(page);
    }
    this.#claiming = false;
    options.routed.browser.closed.then((reason) => this.#life.browserClosed(reason));
  }

  /** The browser this session runs in. */
  get browser() {
    return this.#routed.browser;
  }

  /**
   * The browser context of a page target of this browser, gone ones for a while (a tab closed
   * as its download began): see `PageRouter.contextOf`.
   */
  targetContext(targetId: string): { browserContextId: string | undefined } | undefined {
    return this.#routed.router.contextOf(targetId);
  }

  /** The session's browser context id (undefined: default context). */
  get browserContextId(): string | undefined {
    return this.#contextId;
  }

  /** True when the browser went away under the session. */
  get crashed(): boolean {
    return this.#life.crashed;
  }

  /** True once a call told the agent that this session's browser crashed. */
  get crashReported(): boolean {
    return this.#life.crashReported;
  }

  /** A call that used this session failed: see {@link SessionLife.callFailed}. */
  callFailed(error: unknown): void {
    this.#life.callFailed(error);
  }

  /** True after close(). */
  get closed(): boolean {
    return this.#life.closed;
  }

  /** Aborted as {@link close} starts, unless the browser crashed: see {@link SessionLife}. */
  get closedSignal(): AbortSignal {
    return this.#life.closedSignal;
  }

  /** Subscribes to the session's events; returns the remover. */
  listen(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Holds page-initiated navigations to the policy (`browser/nav_guard/nav_guard.ts`);
   * set once, right after the session is made. Tabs open already are guarded from then on.
   */
  get navGuard(): NavGuard | undefined {
    return this.#guard.guard;
  }

  set navGuard(guard: NavGuard | undefined) {
    this.#guard.guard = guard;
  }

  /** PageOwner: judges requests of this session's tabs no tab guard saw (`session_guard.ts`). */
  get unheld(): UnheldJudge {
    return this.#guard.unheld;
  }

  /**
   * PageOwner: a worker of this session's context attached and waits for the debugger: the
   * guard holds its requests (or refuses it: `"close"`); a dedicated worker is adopted by the
   * tab that started it (its requests are that tab's), a shared or service worker's requests
   * are logged as the active tab's.
   */
  workerAttaching(target: AttachedTarget): void | "close" {
    if (this.#guard.guard?.attachWorker(target) === "close") return "close";
    const owner = adoptWorker(this.tabs, target);
    if (owner) {
      for (const l of [...this.#listeners]) l.workerStarted?.(owner);
      return;
    }
    const tab = () => this.activePage ?? this.#tabs[0];
    watchWorkerTraffic(target, tab, this.#onPageEvent, this.#workers);
  }

  /**
   * PageOwner: a tab attached and waits for the debugger. Returns the guard listener's script,
   * which the router sends with the utility world's own.
   */
  targetAttaching(target: AttachedTarget): string | undefined {
    // An existing tab (an attached browser) already shows a page: the guard starts from it.
    const script = this.#guard.attach(target, target.url, true);
    if (this.#tabCap.refused(target.targetId)) {
      // Closed once resumed: a popup closed while it waits for the debugger hung its opener's
      // next window.open() (they share a renderer). Its first request meets the guard.
      const close = () =>
        this.browser.connection.send("Target.closeTarget", { targetId: target.targetId })
          .catch(() => {});
      target.session.send("Runtime.runIfWaitingForDebugger").then(close, close);
    }
    this.emulation.attach(target);
    installPageTimers(target.session, this.timerKey);
    return script;
  }

  /**
   * Tabs this session's pages opened since it began (`refused`: of those, closed at once by the
   * tab cap): a call that ran out of time during a burst says so (mcp/call_session.ts).
   */
  readonly pageTabs = { opened: 0, refused: 0 };

  /** PageOwner: a tab of our context is being created. */
  pageCreating(targetId: string, openerId?: string): void {
    // Target.createTarget announces its tab before it answers: claim it here.
    if (this.#creatingOwn > 0 && !openerId) this.#ownTabs.add(targetId);
    if (this.#ownTabs.has(targetId)) return;
    this.pageTabs.opened++;
    // A page opening tabs past the cap (`tab_cap.ts`): closed as soon as it attaches (closed
    // here, while Chromium creates it, the opener's next window.open() hung).
    if (this.#tabCap.refuses(targetId, this.#tabs.length + this.#opening.size)) {
      this.pageTabs.refused++;
      for (const l of [...this.#listeners]) l.tabRefused?.(targetId);
      return;
    }
    this.#opening.add(targetId);
    for (const l of [...this.#listeners]) l.tabOpening?.(targetId);
  }

  /** Tabs the page is opening that have not attached yet. */
  get openingTabs(): number {
    return this.#opening.size;
  }

  /** PageOwner: a tab being opened closed before it attached (it was never one of ours). */
  pageGone(targetId: string): void {
    this.#opening.delete(targetId);
  }

  /** PageOwner: a tab of our context appeared. */
  pageAttached(page: Page): void {
    this.#opening.delete(page.target.targetId);
    if (this.#tabs.includes(page) || this.#tabCap.refused(page.target.targetId)) return;
    this.#tabs.push(page);
    // A tab that attached before this session claimed its context was not guarded yet, nor
    // given the session's emulation.
    this.#guard.attach(page.target, page.url);
    this.emulation.attach(page.target);
    page.onEvent((...args) => this.#onPageEvent(page, ...args));
    // Tabs a page opens (popups, target=_blank, even noopener ones) are
    // followed; tabs we open ourselves are activated by newTab().
    const ours = this.#ownTabs.delete(page.target.targetId) ||
      (this.#creatingOwn > 0 && !page.target.openerId);
    this.between.tabSeen(page);
    const had = this.activePage;
    if (!this.#active || !ours) this.#active = page;
    if (!ours && !this.#claiming) {
      this.between.tabOpened(page);
      if (had && had !== page) this.between.activeChanged();
    }
    for (const l of [...this.#listeners]) if (!ours) l.tabOpened?.(page);
  }

  /** PageOwner: a tab closed. */
  pageDetached(page: Page): void {
    this.#guard.detach(page.target.targetId);
    const i = this.#tabs.indexOf(page);
    if (i < 0) return;
    this.#tabs.splice(i, 1);
    this.#opening.delete(page.target.targetId);
    this.logs.dropTab(page.target.targetId);
    this.dialogs.dropTab(page.target.targetId);
    this.snapshots.delete(page.target.targetId);
    const byCall = this.#ownClosing.delete(page.target.targetId);
    if (!byCall) this.between.tabClosed(page);
    if (this.#active === page) {
      const opener = this.#tabs.find((t) => t.target.targetId === page.target.openerId);
      this.#active = opener ?? this.#tabs[this.#tabs.length - 1];
      if (!byCall && this.#active) this.between.activeChanged();
      // A background tab gets no frames, and input to it never completes.
      this.#active?.session.send("Page.bringToFront").catch(() => {});
    }
    for (const l of [...this.#listeners]) l.tabClosed?.(page);
  }

  /** Fails with `browser-crashed` when the browser is gone (the crash then counts as told). */
  ensureAlive(): void {
    this.#life.ensureAlive();
  }

  /** The tabs, in opening order. */
  get tabs(): readonly Page[] {
    return this.#tabs;
  }

  /** The active tab, if any (no tab is opened). */
  get activePage(): Page | undefined {
    return this.#active && !this.#active.isClosed ? this.#active : undefined;
  }

  /**
   * The active tab; opens one when the session has none.
   *
   * @throws ToolError page-crashed when the tab's renderer died, `timeout` when a dialog
   *   Chromium cannot answer stops its page's script (`SessionDialogs.blockedNote`), unless
   *   `allowCrashed`: navigate and reload are how such a tab recovers.
   */
  async page(options: { allowCrashed?: boolean } = {}): Promise<Page> {
    this.ensureAlive();
    this.lastUsed = Date.now();
    const active = this.activePage;
    if (active?.crashed && !options.allowCrashed) {
      throw tabCrashed(active.url);
    }
    const blocked = active && !options.allowCrashed
      ? this.dialogs.blockedNote(active.mainFrameId)
      : undefined;
    if (blocked) throw pageBlocked(blocked);
    if (active) return active;
    // Calls racing on a session without a tab share the one tab opened for them.
    this.#firstTab ??= this.newTab("about:blank", { shared: true }).finally(() =>
      this.#firstTab = undefined
    );
    return await this.#firstTab;
  }

  #firstTab: Promise<Page> | undefined;

  /** Exclusive steps of tool calls, one at a time (`session_turns.ts`). */
  readonly #turns: SessionTurns;

  /** True while a tool call acts on this session (an {@link exclusive} step runs). */
  get acting(): boolean {
    return this.#turns.acting;
  }

  /**
   * Runs `fn` after every earlier exclusive call of this session finished:
   * two actions never interleave on one session (their input events and
   * their recorded results would mix). A call cancelled (or over its budget) while it
   * waited for its turn does not run `fn`: it rejects with the call's abort reason.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Its Chromium's clipboard is the calling client's for the step (shared_clipboard.ts).
    return this.#turns.exclusive(this.sharedWithClients ? clipboardStep(this, fn) : fn);
  }

  /**
   * Takes this session's turn for the rest of the current tool call (released
   * when the call ends): calls after it wait, and the call's own exclusive
   * steps run inside the turn. Used before asking a human, so what was
   * approved is still what runs. No-op outside a call scope or when held.
   */
  holdForCall(): Promise<void> {
    return this.#turns.holdForCall();
  }

  /**
   * Opens a tab and makes it active. CDP: `Target.createTarget`.
   *
   * @param options.shared The tab is awaited by every call racing for the session's first tab:
   *   one call's cancel must not end the others' wait (it waits up to a minute).
   */
  async newTab(url = "about:blank", options: { shared?: boolean } = {}): Promise<Page> {
    this.#creatingOwn++;
    let targetId: string;
    try {
      ({ targetId } = await this.browser.connection.send("Target.createTarget", {
        url,
        ...(this.#contextId ? { browserContextId: this.#contextId } : {}),
      }));
    } finally {
      this.#creatingOwn--;
    }
    this.#ownTabs.add(targetId);
    this.#opening.delete(targetId);
    // A loaded machine can take more than the usual seconds to attach and set up a tab: the
    // wait ends with the call (its budget or cancel), not at a fixed 10 s of its own.
    const t = await this.browser.targets.waitForTarget(targetId, {
      timeoutMs: NEW_TAB_WAIT_MS,
      signal: options.shared ? undefined : currentCallScope()?.signal,
    });
    const page = this.#routed.router.page(t.targetId);
    if (!page) throw new ToolError("page-closed", "The new tab closed at once", "try again");
    this.pageAttached(page);
    this.#active = page;
    return page;
  }

  /** Makes a tab active and brings it to front. CDP: `Page.bringToFront`. */
  async activate(page: Page): Promise<void> {
    this.#active = page;
    await page.session.send("Page.bringToFront").catch(() => {});
  }

  /**
   * Closes one tab; one whose dialog Chromium lost is first left for `about:blank`
   * (`stuck_dialogs.ts`: closing it as it is crashed the browser), and so is every tab while
   * the guard holds what unloading pages send (`leave_before_close.ts`). CDP:
   * `Target.closeTarget`.
   */
  async closeTab(page: Page): Promise<void> {
    const targetId = page.target.targetId;
    if (this.#tabs.includes(page)) this.#ownClosing.add(targetId);
    await leaveLostDialog(this.dialogs, page);
    await leaveBeforeClose(page, this.navGuard);
    await this.browser.connection.send("Target.closeTarget", { targetId }).catch(() => {});
    this.pageDetached(page);
    this.#ownClosing.delete(targetId);
  }

  /**
   * Ends the session: disposes its context (incognito), closes its browser
   * (persistent), or just lets go (attached); drops its {@link slots}.
   * Idempotent; returns whether it was running.
   */
  async close(): Promise<boolean> {
    if (!this.#life.close()) return false;
    this.#listeners.clear();
    this.#routed.router.release(this.#contextId);
    try {
      if (this.#life.crashed) return false;
      await releaseBrowser(this.browser, {
        tabs: this.#tabs,
        contextId: this.#contextId,
        ownsContext: this.#ownsContext,
        ownsBrowser: this.#ownsBrowser,
        navGuard: this.navGuard,
        dialogs: this.dialogs,
      });
      return true;
    } finally {
      this.slots.clear();
    }
  }
}
