/**
 * Holds page-initiated navigations to the policy (seed 004): a click, a
 * key, a script or a redirect that would take a tab somewhere the agent was
 * not allowed to go, and a form submission the agent did not declare, are
 * stopped before the request leaves (`Fetch.requestPaused` → a `204 No
 * Content` answer from `Fetch.fulfillRequest`, which cancels a navigation),
 * so the tab has not moved. The acting call then
 * answers `blocked-by-policy` with where the tab stands.
 *
 * Iframes are held to the same policy: an iframe's document (same-process or
 * out-of-process, loaded by the page, a script or a form with `target=<name>`)
 * from where the policy does not allow is never requested; the frame gets a
 * small page of ours saying "blocked by policy: <origin>" instead (sandboxed,
 * opaque origin, no scripts of the page run), which is what a snapshot shows.
 * A form whose target is refused is not sent even when the call declared it.
 *
 * What no request announces is judged when it commits (a bfcache restore,
 * a prefetched page) and undone (`guard_navigations.ts`); a request carrying a bound secret to an
 * origin off its list is refused (`secret_leaks.ts`); clicks that open a tab
 * Chromium does not hold for us are refused (`new_tab_clicks.ts`). A document
 * request is answered in `document_requests.ts`, a script's in `script_requests.ts`.
 * Routes meet the guard in `guard_routes.ts`; what a result waits for is kept in
 * `guard_pending.ts`, the answers in flight in `paused_answers.ts`. What a target gets as it
 * attaches, and how its paused requests are answered, is `guard_attach.ts`.
 *
 * CDP: `Fetch.enable` (documents and script requests, and `--blocked-origins`' URLs; every
 * request with bound secrets) and `Network.setBlockedURLs` (`--blocked-origins`) on every page target, sent while the target waits for the
 * debugger, so even a popup's first navigation is held;
 * `Page.setPrerenderingAllowed` false; `Page.frameRequestedNavigation`
 * tells a form submission (`formSubmissionGet`/`formSubmissionPost`) from a link.
 *
 * The guard's `Fetch.requestPaused` listener is the only one of a target: what
 * the policy lets through goes on to the session's routes (`../routes/`), which
 * answer it or continue it; a request the policy refuses is refused even when
 * a route matches it (the route's event says so). With routes set, `Fetch.enable`
 * also covers their URLs (the patterns follow every change of the routes).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { noteOrigin } from "./blocked_page.ts";
import { PassedRequests } from "./passed_requests.ts";
import { PausedAnswers } from "./paused_answers.ts";
import { GuardPending } from "./guard_pending.ts";
import type { PausedRequest } from "./secret_leaks.ts";
import type { SessionRoutes } from "../routes/routes.ts";
import { fetchPatterns } from "./guard_routes.ts";
import type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";
import { HeldDocuments, judgeUnheld } from "./unheld_requests.ts";
import { ApprovedHold } from "./approved_hold.ts";
import { AnnouncedRequests } from "./announced_requests.ts";
import { attachPage, attachWorker, type GuardParts } from "./guard_attach.ts";

export { noteOrigin } from "./blocked_page.ts";
export type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";

/** The guard of one session's tabs. */
export class NavGuard {
  #policy: NavPolicy;
  #window: GuardWindow | undefined;
  /** A human's yes, held across the session's targets while the window lasts. */
  #hold = new ApprovedHold((b) => this.#block(b));
  /** When the current window began (ms since the epoch). */
  #windowAt = 0;
  #blocked: BlockedNavigation[] = [];
  #stoppedBetween: (b: BlockedNavigation) => void;
  /**
   * Form submissions requested in any tab or frame of the session, by URL
   * without its fragment → when: the request may come from another target
   * (a `target=_blank` form opens a tab; an iframe's form may load the top).
   */
  #submissions = new Map<string, number>();
  /** Per page target: when its page last dispatched a `submit` event (ms). */
  #scriptSubmits = new Map<string, number>();
  /** The CDP session of each guarded target. */
  #sessions = new Map<string, CdpSession>();
  /** Shared and service workers under the guard's own Fetch handler, by target id. */
  #workers = new Map<string, CdpSession>();
  /** Per page target: the URL its main frame shows (its last committed document). */
  #urls = new Map<string, string>();
  /** Navigations requested in this window not judged yet, tabs moving back (see settled). */
  #pending = new GuardPending();
  /** Main-frame document requests let through, until they commit. */
  #passed = new PassedRequests();
  /** Per page target, in the current window: aborted when a main-frame navigation is stopped. */
  #stops = new Map<string, AbortController>();
  /** Paused requests being answered, per target (what a closing tab waits for). */
  #answers = new PausedAnswers();
  /** Document requests let through here, until the browser-level net sees them. */
  #held = new HeldDocuments();
  /** Requests announced and not paused yet (with bound secrets or blocked origins only). */
  #announced = new AnnouncedRequests();

  /** Told of each request the guard answered itself (see the constructor). */
  #refused: (networkId: string, why: string) => void;
  /** The session's routes: they answer what the policy lets through. */
  #routes: SessionRoutes | undefined;
  /** Told of each request a route answered (network request id, the route's pattern). */
  #routed: (networkId: string, pattern: string) => void;
  /** The state above, as the attach half (`guard_attach.ts`) reads and writes it. */
  #parts: GuardParts;

  /**
   * `refused`: told the network request id (`Fetch.requestPaused.networkId`)
   * and the reason of each request the guard stopped or answered itself, so
   * the network log does not show the guard's own answer as the server's.
   * `options.routes`: the session's routes, asked after the policy (see the
   * module doc); `options.routed`: told the network request id and the pattern
   * of each request a route answered.
   */
  constructor(
    policy: NavPolicy,
    refused: (networkId: string, why: string) => void = () => {},
    options: {
      routes?: SessionRoutes;
      routed?: (networkId: string, pattern: string) => void;
      /** A stop while no call's window is open (for the next result's `sinceLastCall`). */
      stoppedBetween?: (b: BlockedNavigation) => void;
    } = {},
  ) {
    this.#stoppedBetween = options.stoppedBetween ?? (() => {});
    this.#policy = policy;
    this.#refused = refused;
    this.#routes = options.routes;
    this.#routed = options.routed ?? (() => {});
    this.#parts = {
      policy,
      routes: this.#routes,
      routed: this.#routed,
      refused,
      window: () => this.#window,
      block: (b) => this.#block(b),
      lastBlocked: () => this.#blocked.at(-1),
      guardsUnload: () => this.guardsUnload,
      hold: this.#hold,
      submissions: this.#submissions,
      scriptSubmits: this.#scriptSubmits,
      sessions: this.#sessions,
      workers: this.#workers,
      urls: this.#urls,
      pending: this.#pending,
      passed: this.#passed,
      stops: this.#stops,
      answers: this.#answers,
      held: this.#held,
      announced: this.#announced,
    };
    // New routes: every target's interception covers their URLs from now on.
    options.routes?.onChange(() =>
      Promise.all(
        [...this.#sessions.values(), ...this.#liveWorkers()].map((session) =>
          session.send("Fetch.enable", { patterns: fetchPatterns(this.#policy, this.#routes) })
            .catch(() => {})
        ),
      )
    );
  }

  /**
   * Starts holding a page target's navigations. Call synchronously while the
   * target waits for the debugger (an attach hook), so its first request is
   * held too; `from` is where a new tab comes from (its opener's URL). With `deferScript`,
   * returns the guard listener's utility-world script for the caller to send
   * (`installGuardListener`).
   */
  attach(
    session: CdpSession,
    targetId: string,
    from: () => string,
    options: {
      frame?: boolean;
      url?: string;
      /**
       * Asked of each main-frame document request before the policy: a function takes it off
       * the page's hands (the guard fails it, `Aborted`, then calls that function, which
       * navigates its own way); undefined leaves it to the policy.
       */
      divert?: (url: string, method: string) => (() => void) | undefined;
      deferScript?: boolean;
    } = {},
  ): string | undefined {
    return attachPage(session, { targetId, from, ...options }, this.#parts);
  }

  /**
   * True when a tab must leave its page before it closes (`leave_before_close.ts`): with
   * bound secrets or `--blocked-origins`, what a page sends while it unloads must meet this
   * guard, and once its target is closed nothing holds a request.
   */
  get guardsUnload(): boolean {
    return this.#policy.secretLeak !== undefined || (this.#policy.blockedFetch?.length ?? 0) > 0;
  }

  /**
   * Resolves once no request of `targetId` has been paused for `quietMs` and every one the
   * guard paused is answered, or at `deadline` (ms since the epoch): see
   * {@link PausedAnswers.answered}.
   */
  answered(targetId: string, quietMs: number, deadline: number): Promise<void> {
    return this.#answers.answered(targetId, quietMs, deadline);
  }

  /**
   * Resolves once every request a guarded page or dedicated worker announced at or before
   * `since` (ms since the epoch) was paused, failed or finished, or at `deadline`: see
   * {@link AnnouncedRequests.reached}. Only with bound secrets or blocked origins
   * ({@link guardsUnload}); else at once.
   */
  reached(since: number, deadline: number): Promise<void> {
    return this.guardsUnload ? this.#announced.reached(since, deadline) : Promise.resolve();
  }

  /**
   * Guards a worker of this session's context (`worker_guard.ts`): `--blocked-origins`, and for
   * a shared or service worker its requests, answered as a page script's of this session (a
   * submit in any of its tabs counts). Call synchronously while it waits for the debugger.
   * Returns `"close"` for a shared worker the guard cannot hold while the policy needs it to
   * (see {@link refusesWorker}): the caller closes it before it runs.
   */
  attachWorker(worker: { session: CdpSession; targetId: string; type: string }): void | "close" {
    return attachWorker(worker, this.#parts);
  }

  /** The guarded workers' sessions still attached (the detached ones forgotten). */
  #liveWorkers(): CdpSession[] {
    for (const [id, s] of this.#workers) if (s.detached) this.#workers.delete(id);
    return [...this.#workers.values()];
  }

  /** True (once) when a tab's guard let `frameId`'s document request to `url` through. */
  held(frameId: string, url: string): boolean {
    return this.#held.take(frameId, url);
  }

  /**
   * Judges the document request of tab `targetId` that no tab guard saw (the browser opened
   * the tab itself: `unheld_requests.ts`); `from`: where the tab comes from. Returns why it
   * may not go (recorded as stopped, like a tab's own), or undefined.
   */
  judgeUnheld(targetId: string, request: PausedRequest, from: string): string | undefined {
    const why = judgeUnheld(targetId, request, {
      policy: this.#policy,
      window: this.#window,
      from,
      block: (b) => this.#block(b),
    });
    if (why === undefined) this.#passed.mark(targetId, request.url);
    return why;
  }

  /**
   * Resolves once the guard has judged every navigation the page requested in the current
   * window and every tab it is moving back is back, or at `deadline` (ms since the epoch); true
   * when there was something to wait for. See {@link GuardPending.settled}.
   *
   * @throws the signal's reason as soon as `signal` (the call's) aborts.
   */
  settled(deadline: number, signal?: AbortSignal): Promise<boolean> {
    return this.#pending.settled(deadline, signal);
  }

  /**
   * The line a snapshot shows in place of a frame whose document the policy
   * refuses — one that loaded before the guard attached (an attached
   * browser) or that a service worker answered — or undefined to read it.
   * `top`: the URL of the frame's tab. Hostless frames (`about:`, `data:`,
   * `blob:`) hold their page's own content: read.
   */
  frameNote(url: string, top: string): string | undefined {
    if (!/^(https?|wss?):/i.test(url)) return undefined;
    const why = this.#policy.refusal(url, top);
    return why === undefined ? undefined : `(blocked by policy: ${noteOrigin(url)} (${why}))`;
  }

  /** Forgets a closed tab. */
  detach(targetId: string): void {
    this.#answers.forget(targetId);
    this.#urls.delete(targetId);
    this.#sessions.delete(targetId);
    this.#scriptSubmits.delete(targetId);
    this.#passed.forget(targetId);
    this.#hold.forget(targetId);
  }

  /**
   * Records a stop: for the window's result, and when no call runs, also for the next result's
   * `sinceLastCall` (`stoppedBetween`).
   */
  #block(b: BlockedNavigation): void {
    this.#blocked.push(b);
    if (!this.#window) this.#stoppedBetween(b);
  }

  /**
   * True when the current window stopped the first document of tab `targetId` (a tab the
   * browser opened itself, refused by the browser-level hold): it stays blank, and is no tab
   * loading to wait for.
   */
  stoppedTab(targetId: string): boolean {
    return this.#blocked.some((b) => b.frameId === targetId && !b.subframe);
  }

  /** True while an acting call's window is open ({@link begin} to {@link end}). */
  get acting(): boolean {
    return this.#window !== undefined;
  }

  /** Starts an acting call's window; navigations it stops are collected for its result. */
  begin(window: GuardWindow): void {
    this.#window = window;
    this.#windowAt = Date.now();
    this.#blocked = [];
    this.#hold.begin(window.approvedSends && { sends: window.approvedSends });
    this.#stops.clear();
    this.#pending.clear();
  }

  /** Resolves once a held yes's socket rule is on every target (`approved_hold.ts`). */
  ready(): Promise<void> {
    return this.#hold.ready();
  }

  /**
   * Aborted when, in the current window, the guard stops a navigation of
   * `targetId`'s main frame: a wait for that navigation can end at once.
   */
  stopSignal(targetId: string): AbortSignal {
    let stop = this.#stops.get(targetId);
    if (!stop) this.#stops.set(targetId, stop = new AbortController());
    return stop.signal;
  }

  /**
   * Ends the window; returns what was stopped during it. The submissions a
   * window that declared one saw are spent with it: what the form sent was
   * judged there, and a link or a script's request of the next call, within
   * `SUBMIT_MATCH_MS` (`document_requests.ts`), is not that form. (An undeclared window's are kept:
   * a late request of a form nobody declared is still refused.)
   */
  end(): BlockedNavigation[] {
    if (this.#window?.submits) {
      const since = this.#windowAt;
      for (const [key, at] of this.#submissions) if (at >= since) this.#submissions.delete(key);
      for (const [id, at] of this.#scriptSubmits) if (at >= since) this.#scriptSubmits.delete(id);
    }
    this.#window = undefined;
    this.#hold.end();
    this.#stops.clear();
    this.#pending.clear();
    const out = this.#blocked;
    this.#blocked = [];
    return out;
  }
}
