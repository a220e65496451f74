/**
 * The action window: from just before an acting tool acts to the moment the
 * page settled. One disposable object owns everything installed for it —
 * the downloads gate, the recorder's listeners, the dialogs' armed answer,
 * the navigation guard's window, the hold on the session's between-calls
 * news (what happens meanwhile is the window's), file chooser interception,
 * the timer watch armed in the frames acted on —
 * and removes exactly what it added, on the way out of its `await using`
 * scope whatever happened.
 *
 * @module
 */
import type { SendCandidate } from "../injected/form_types.ts";
import type { CdpSession } from "../../cdp/connection.ts";
import type { Page } from "../../cdp/page.ts";
import type { ToolError } from "../tool_error.ts";
import type { BlockedNavigation } from "../nav_guard/nav_guard.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { DownloadWindow } from "./downloads_window.ts";
import type { BlockedDownload, DownloadEntry } from "../sessions/download_types.ts";
import { blockedNavigation, sortStopped } from "./guard_outcome.ts";
import { ActionRecorder } from "./recorder.ts";
import { type Recording, unansweredNote } from "./recording.ts";
import { isWriteMethod } from "../network_writes.ts";
import { PageTimers } from "../sessions/page_timers.ts";
import { ARMED_GRACE_MS, undeliveredNote } from "../sessions/dialogs.ts";
import { STAYED_NOTE } from "./beforeunload_stay.ts";
import { MAX_TABS } from "../sessions/tab_cap.ts";
import { closeUnlistedBlank } from "../sessions/unlisted_tab.ts";

/** What an action window is opened with. */
export interface WindowOptions {
  /** The tool, for the downloads gate's messages. */
  action: string;
  /** The call declared `download: true` (pays for one file). */
  declaredDownload: boolean;
  /** The call may send a form (declared `submits`, or a tool that asked its own hook). */
  submits: boolean;
  /** Where a human approved the forms send (see `GuardWindow.approvedSends`). */
  approvedSends?: readonly string[] | undefined;
  /** The ways of sending a human approved, with their data (see `GuardWindow.approvedData`). */
  approvedData?: readonly SendCandidate[] | undefined;
  /** A URL the action requests itself (navigate): the guard lets it pass. */
  requestedUrl?: string | undefined;
  /** The action replays a history entry: the guard never resends a POST. */
  replay?: boolean | undefined;
  /**
   * The call's signal: when it aborted by the time the window is disposed, a navigation of
   * the tab still loading is stopped (`Page.stopLoading`).
   */
  signal?: AbortSignal | undefined;
  /**
   * Intercept file choosers the action opens, so the recording can say one opened (default
   * false; `upload_file` handles its chooser itself).
   */
  fileChooser?: boolean | undefined;
  /**
   * Arm the timer watch (`page_timers.ts`) in these frames of the page for `ms`: the window
   * stays open while timers the action set there are still to run. Without `ms`, the frames
   * are watched unarmed: the documents the action loads there count their own start. Omitted:
   * no watch.
   */
  timers?: {
    frames: string[];
    /** The page's other frames, armed beside `frames` without holding the action (`PageTimers.arm`). */
    children?: string[] | undefined;
    ms?: number | undefined;
    /**
     * The watch armed already in `frames` (the caller armed it beside its last checks):
     * taken instead of arming again; the window disarms it as its own.
     */
    armed?: Promise<PageTimers> | undefined;
  } | undefined;
  /**
   * How long the page must be quiet (no event, no request pending) before the window asks
   * the timer watch and closes, ms (default: the recorder's 75). A navigation, whose new
   * document counts its own start, needs less.
   */
  quietMs?: number | undefined;
}

/** What a closed window saw. */
export interface WindowOutcome {
  /** The recorder's facts (navigation, tabs, console, network, dialogs, active tab). */
  recording: Recording;
  /** Files saved, and downloads cancelled, during the window. */
  downloads: { downloads: DownloadEntry[]; blocked: BlockedDownload[] };
  /** The page settled before the deadline (or the recorder's cap): nothing left pending. */
  settled: boolean;
  /**
   * The window closed on the answer to its last quiet question (no timer of the action still
   * due): what `onQuiet` sent alongside it saw the page as it settled.
   */
  closedOnQuiet: boolean;
  /** Warnings, in order: the downloads', the guard's notes, a page still loading. */
  warnings: string[];
  /** `download-blocked` when a download began and nothing was saved. */
  downloadError?: ToolError | undefined;
  /** `blocked-by-policy` when the guard stopped a navigation: what happened, over any error. */
  blocked?: ToolError | undefined;
}

/**
 * One acting call's window on `session`, acting on `page`. Open with
 * {@link ActionWindow.open} in an `await using` declaration; {@link close}
 * once the action ran to collect what it did.
 */
export class ActionWindow implements AsyncDisposable {
  #session: BrowserSession;
  #page: Page;
  #options: WindowOptions;
  #downloads: DownloadWindow;
  #recorder: ActionRecorder;
  /** The recorder still listens. */
  #recording = true;
  /** The dialogs' and the guard's windows are open. */
  #live = true;
  /** An abandoned call's loading was stopped already (dispose is idempotent). */
  #stoppedLoading = false;
  /** Gives the session's between-calls news back (what happens after is no longer ours). */
  #releaseBetween: () => void;
  /** Sessions file choosers are intercepted on, until the window ends. */
  #choosers: Set<CdpSession> | undefined;
  /** The timer watch armed for the action, until the window ends. */
  #timers: PageTimers | undefined;

  private constructor(
    session: BrowserSession,
    page: Page,
    options: WindowOptions,
    downloads: DownloadWindow,
    timers: PageTimers | undefined,
  ) {
    this.#session = session;
    this.#timers = timers;
    this.#page = page;
    this.#options = options;
    this.#downloads = downloads;
    this.#recorder = new ActionRecorder(session, page);
    this.#releaseBetween = session.between.hold();
    if (options.fileChooser) this.#choosers = interceptChoosers(page);
    session.dialogs.actionWindow(true);
    session.navGuard?.begin({
      submits: options.submits,
      approvedSends: options.approvedSends,
      approvedData: options.approvedData,
      expectUrl: options.requestedUrl,
      replay: options.replay,
    });
  }

  /**
   * Opens the window: the downloads gate (CDP `Browser.setDownloadBehavior`
   * through the session's downloads), the recorder, the armed dialog answer
   * and the guard's window, in that order.
   */
  static async open(
    session: BrowserSession,
    page: Page,
    options: WindowOptions,
  ): Promise<ActionWindow> {
    const [downloads, timers] = await Promise.all([
      DownloadWindow.open(session, {
        action: options.action,
        declared: options.declaredDownload,
      }),
      options.timers?.ms === undefined
        ? options.timers && PageTimers.watch(page, session.timerKey, options.timers.frames)
        : options.timers.armed ?? PageTimers.arm(page, session.timerKey, {
          frames: options.timers.frames,
          children: options.timers.children,
          ms: options.timers.ms,
          signal: options.signal,
        }),
    ]);
    try {
      const window = new ActionWindow(session, page, options, downloads, timers);
      // A human's yes: its hold on new WebSockets is on before the action acts.
      if (options.approvedSends) await session.navGuard?.ready();
      return window;
    } catch (e) {
      timers?.disarm();
      await downloads.dispose();
      throw e;
    }
  }

  /**
   * Waits for the page to settle (bounded by `deadline`, epoch ms, and the
   * recorder's cap), closes the dialogs' and the guard's windows, then
   * collects what the window saw: the recording, the downloads (waited for
   * up to `deadline`) and what the guard stopped. Tabs a page opened whose
   * first navigation the guard stopped are closed (left blank, one would
   * become the active tab).
   *
   * `onQuiet` is called each time the page looked quiet and the timer watch is about to be
   * asked whether the action's timers are all done: a caller can send its next question
   * alongside (the page answers them in order); the outcome's `closedOnQuiet` says whether the
   * last call saw the page as it settled.
   *
   * `inputAnsweredAt` (epoch ms): when the action's last input event was answered, when what
   * it did after only read the page: the quiet period counts from then (or from the page's
   * last activity, if later), not from this call (`ActionRecorder.inputAnswered`).
   *
   * @throws the signal's reason as soon as `signal` (the call's) aborts: nobody waits for
   *   the outcome any more (dispose the window as usual).
   */
  async close(
    deadline: number,
    signal?: AbortSignal,
    options: {
      onQuiet?: (() => void) | undefined;
      inputAnsweredAt?: number | undefined;
    } = {},
  ): Promise<WindowOutcome> {
    let settled: boolean;
    // The last quiet question's answer ("none" pending: the window closes on it).
    let lastDue: number | "none" | undefined;
    // Requests the action's input started, unanswered at the last question.
    let ownRequests = 0;
    try {
      const timers = this.#timers;
      const onQuiet = options.onQuiet;
      const due = timers && (async (s?: AbortSignal, d?: number) => {
        lastDue = undefined;
        onQuiet?.();
        const next = await timers.nextDue(s, d);
        lastDue = next ?? "none";
        ownRequests = timers.ownRequests;
        return next;
      });
      if (options.inputAnsweredAt !== undefined) {
        this.#recorder.inputAnswered(options.inputAnsweredAt);
      }
      // The requests the action's input started are waited for up to the deadline.
      const stretch = () => ownRequests > 0;
      const quietMs = this.#options.quietMs;
      settled = await this.#recorder.settle(deadline, signal, due, quietMs, stretch);
      // Navigations the guard has yet to judge, a refused restore being undone: waited for.
      if (await this.#session.navGuard?.settled(deadline, signal)) {
        settled = await this.#recorder.settle(deadline, signal, due, quietMs, stretch);
      }
    } finally {
      this.#endLive();
    }
    const stopped = this.#stopped;
    // A tab the browser opened itself whose first document the guard refused may attach only
    // after the window (a busy machine): closed now, it is never left blank.
    const unlisted = await this.#closeUnlistedTabs(stopped);
    this.#recording = false;
    // The recorder stops listening now: what happens from here on is between calls.
    this.#releaseBetween();
    const recording = await this.#recorder.finish(!settled, this.#options.requestedUrl);
    // A tool that answers its own chooser (upload_file) intercepts it itself: not news.
    if (!this.#options.fileChooser) recording.fileChooser = false;
    const dl = await this.#downloads.finish(deadline, signal);
    const policy = sortStopped(stopped);
    const warnings = [...dl.warnings, ...policy.notes];
    for (const d of recording.dialogs) if (d.undelivered) warnings.push(undeliveredNote(d));
    if (recording.refusedTabs) {
      warnings.push(
        `the page tried to open ${recording.refusedTabs} more tab(s) than the ${MAX_TABS} a ` +
          "session keeps open: each was closed as soon as it opened",
      );
    }
    if (recording.dialogsOmitted) {
      warnings.push(
        `the page raised ${recording.dialogsOmitted} more dialogs than listed (each answered as the list's are)`,
      );
    }
    if (recording.dialogs.some((d) => d.kind === "beforeunload" && d.handledAs === "dismissed")) {
      warnings.push(STAYED_NOTE);
    }
    if (this.#armedUnused) {
      // A frame's (or another tab's) dialog in the list is not the page's own: say why it did
      // not take the answer, lest the list read as a contradiction.
      const others = recording.dialogs.some((d) => d.frame !== undefined);
      warnings.push(
        `the answer armed with handle_dialog was not used (no confirm, prompt or beforeunload of this page${
          others
            ? " itself; a frame's dialogs take the session's policy, open_session({ dialogs })"
            : ""
        } during the call): it stays armed for ${
          ARMED_GRACE_MS / 1000
        } s for a dialog the page raises next, then lapses`,
      );
    }
    const byDefault = this.#session.dialogs.policy === "default" &&
      recording.dialogs.find((d) =>
        (d.kind === "confirm" || d.kind === "prompt") && d.handledAs === "dismissed" &&
        !d.armed && !d.undelivered && d.frame === undefined
      );
    if (byDefault) {
      // Nobody chose this answer: the page's action may have been cancelled by it.
      warnings.push(
        `the ${byDefault.kind} "${
          byDefault.message.slice(0, 80)
        }" was dismissed by the session's default (the page got ${
          byDefault.kind === "confirm" ? "false" : "null"
        }): to accept it, call handle_dialog({ accept: true }) and repeat the action`,
      );
    }
    let blocked: ToolError | undefined;
    if (policy.errors.length) {
      // A form sent into a new tab (target=_blank): that tab is the one stopped, this one stays.
      const opened = this.#session.tabs.find((t) =>
        t !== this.#page && t.target.targetId === policy.errors[0]!.frameId
      );
      const openedTab = opened && this.#session.tabs.indexOf(opened);
      await this.#closeBlankTabs(policy.errors);
      blocked = opened
        ? blockedNavigation(policy.errors, this.#page.url, {
          openedTab,
          openedClosed: opened.isClosed || !this.#session.tabs.includes(opened),
        })
        : unlisted.has(policy.errors[0]!.frameId)
        ? blockedNavigation(policy.errors, this.#page.url, { unlistedTab: true })
        : blockedNavigation(policy.errors, recording.activePage.url);
    }
    const unanswered = recording.network.requests.filter((r) =>
      r.pending && !isWriteMethod(r.method)
    );
    if (ownRequests > 0 && unanswered.length) {
      // Named: the page shows what it shows until they are answered ("Searching…").
      warnings.push(unansweredNote(unanswered));
    } else if (!settled) {
      // Loading, or requests/timers the action started still running: what they do comes
      // with the next call (sinceLastCall, or its delta).
      warnings.push(
        this.#recorder.loading
          ? stillLoadingNote(this.#recorder.loadHolders())
          : "the page had not settled when the result was taken (requests or timers the action started were still running)",
      );
    }
    return {
      recording,
      settled,
      closedOnQuiet: settled && lastDue === "none",
      downloads: { downloads: dl.downloads, blocked: dl.blocked },
      warnings,
      downloadError: dl.error,
      blocked,
    };
  }

  /** Navigations the guard stopped, taken when its window ended. */
  #stopped: BlockedNavigation[] = [];
  /** The call ended with a dialog answer armed and unused (`SessionDialogs.actionWindow`). */
  #armedUnused = false;

  #endLive(): void {
    if (!this.#live) return;
    this.#live = false;
    this.#armedUnused = this.#session.dialogs.actionWindow(false);
    this.#timers?.disarm();
    this.#timers = undefined;
    this.#stopped = this.#session.navGuard?.end() ?? [];
    // Choosers the page opens later are the browser's again (headless: none shown).
    for (const s of this.#choosers ?? []) {
      s.send("Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => {});
    }
    this.#choosers = undefined;
  }

  /**
   * Closes the blank tabs of `stopped` (main-frame stops of tabs other than this one) that are
   * no tab of the session yet; returns their target ids.
   */
  async #closeUnlistedTabs(stopped: BlockedNavigation[]): Promise<Set<string>> {
    const closed = new Set<string>();
    for (const b of stopped) {
      if (b.subframe || b.request || b.webSocket || closed.has(b.frameId)) continue;
      if (b.frameId === this.#page.target.targetId) continue;
      if (await closeUnlistedBlank(this.#session, b.frameId)) closed.add(b.frameId);
    }
    return closed;
  }

  /** Closes tabs a page opened whose first navigation the guard stopped. */
  async #closeBlankTabs(stopped: BlockedNavigation[]): Promise<void> {
    for (const b of stopped) {
      const tab = this.#session.tabs.find((t) => t.target.targetId === b.frameId);
      // Never committed a document ("") or only the initial one.
      if (!tab || tab === this.#page || (tab.url !== "" && tab.url !== "about:blank")) continue;
      await this.#session.closeTab(tab).catch(() => {});
    }
  }

  /**
   * Removes what the window installed and is still there: the recorder's
   * listeners, the dialogs' and the guard's windows, the downloads gate
   * (downloads already admitted keep going). Idempotent. A call abandoned
   * (its signal aborted) while the tab was loading stops the loading
   * (`Page.stopLoading`): until a navigation commits, Chromium holds every
   * command to the tab, and the next call would find it unresponsive.
   */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#recording) {
      this.#recording = false;
      this.#recorder.dispose();
    }
    this.#releaseBetween();
    this.#endLive();
    await this.#downloads.dispose();
    if (this.#options.signal?.aborted && this.#recorder.loading && !this.#stoppedLoading) {
      this.#stoppedLoading = true;
      await this.#page.session.send("Page.stopLoading").catch(() => {});
    }
  }
}

/**
 * Intercepts file choosers on every session of the tab (its own and its out-of-process
 * iframes'): a chooser the action opens is then announced (`Page.fileChooserOpened`, which
 * the recorder notes) instead of shown, and nothing waits on it. Not awaited: a command sent
 * on the tab's session before the input is handled before it (one pipe, in order).
 * CDP: `Page.setInterceptFileChooserDialog`.
 */
function interceptChoosers(page: Page): Set<CdpSession> {
  const sessions = new Set([page.session, ...page.frames().map((f) => f.session)]);
  for (const s of sessions) {
    s.send("Page.setInterceptFileChooserDialog", { enabled: true }).catch(() => {});
  }
  return sessions;
}

/** How {@link stillLoadingNote} begins. */
const STILL_LOADING = "the page was still loading when the result was taken";

/**
 * The warning of a result taken while the page still loaded, naming what it waited on (the
 * first 2 requests with no answer: a slow image, a tracker pixel).
 */
export function stillLoadingNote(
  holders: ReadonlyArray<{ url: string; type: string; timestamp: number }>,
): string {
  if (!holders.length) return STILL_LOADING;
  const now = Date.now();
  const named = holders.slice(0, 2).map((r) =>
    `${r.type.toLowerCase()} ${r.url.length > 120 ? r.url.slice(0, 120) + "…" : r.url} ` +
    `(no answer after ${((now - r.timestamp) / 1000).toFixed(1)} s)`
  );
  const more = holders.length > 2 ? ` and ${holders.length - 2} more` : "";
  return `${STILL_LOADING}: it waited on ${named.join(", ")}${more}`;
}

/**
 * `warnings` with a way around a load held by slow requests added to {@link stillLoadingNote}'s
 * warning (navigate waiting for `load`: `waitUntil: "domcontentloaded"`).
 */
export function loadWaitHint(warnings: string[]): string[] {
  return warnings.map((w) =>
    w.startsWith(`${STILL_LOADING}: it waited on`)
      ? `${w}; its text may be readable already: navigate with waitUntil: "domcontentloaded" ` +
        "to not wait for the load"
      : w
  );
}
