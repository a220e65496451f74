/**
 * What a guarded target's navigations tell the navigation guard (`nav_guard.ts`): the form
 * submissions it requested (a later request of the form is declared or refused by them), the
 * navigations requested in the current window (judged before the window closes), and the URL
 * each main frame shows. A main-frame document no request announced (a page restored from the
 * back/forward cache, one a speculation rule prefetched or prerendered) that the policy would
 * not have let the tab reach is stopped and undone: the tab goes back (`history_return.ts`).
 *
 * CDP: `Page.frameRequestedNavigation`, `Page.navigatedWithinDocument`,
 * `Page.frameStoppedLoading`, `Page.frameNavigated` (listened to).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { withoutFragment } from "./blocked_page.ts";
import { returnTo } from "./history_return.ts";
import type { GuardPending } from "./guard_pending.ts";
import type { PassedRequests } from "./passed_requests.ts";
import type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";

/** The guard's state and steps a target's navigations update (`NavGuard`'s own). */
export interface NavigationWatch {
  /** The page target. */
  targetId: string;
  /** An out-of-process iframe: its commits are not undone (where the tab goes is its page's). */
  frame: boolean;
  policy: NavPolicy;
  /** The acting call's window, if one is open. */
  window: () => GuardWindow | undefined;
  /** Per page target: the URL its main frame shows (its last committed document). */
  urls: Map<string, string>;
  /** Form submissions requested, by URL without its fragment → when (ms since the epoch). */
  submissions: Map<string, number>;
  /** Per page target: when its page last dispatched a `submit` event (ms). */
  scriptSubmits: Map<string, number>;
  /** Navigations requested in the window not judged yet, tabs moving back. */
  pending: GuardPending;
  /** Main-frame document requests let through, until they commit. */
  passed: PassedRequests;
  /** Records a stop. */
  block: (b: BlockedNavigation) => void;
  /** What the target's main frame shows now. */
  shown: () => string;
  /** Reports an unexpected error (a closed target's are not). */
  report: (err: unknown) => void;
  /** The target's main frame committed a new document (of this loader). */
  committed?: (loaderId: string) => void;
}

/** Listens to `session`'s navigations for the guard (see the module doc). */
export function watchNavigations(session: CdpSession, g: NavigationWatch): void {
  session.on("Page.frameRequestedNavigation", (e) => {
    if (e.reason === "formSubmissionGet" || e.reason === "formSubmissionPost") {
      g.submissions.set(withoutFragment(e.url), Date.now());
    }
    // Its request may come after the action looks settled: the window waits for the verdict.
    if (g.window() && e.disposition === "currentTab") {
      g.pending.requested(e.frameId);
    }
  });
  session.on("Page.navigatedWithinDocument", (e) => g.pending.judged(e.frameId));
  session.on("Page.frameStoppedLoading", (e) => g.pending.judged(e.frameId));
  session.on("Page.frameNavigated", (e) => {
    g.pending.judged(e.frame.id);
    if (e.frame.parentId) return;
    const before = g.urls.get(g.targetId) ?? "about:blank";
    const now = e.frame.url + (e.frame.urlFragment ?? "");
    g.urls.set(g.targetId, now);
    // A new document: a submit event of the one before no longer marks its requests.
    g.scriptSubmits.delete(g.targetId);
    g.committed?.(e.frame.loaderId);
    // A page restored from the back/forward cache (history.back(), Alt+Left), or one a
    // speculation rule prefetched or prerendered, made no request to hold: when policy
    // would not have let the tab go there, go back at once.
    const unheld = e.type === "BackForwardCacheRestore" || !g.passed.take(g.targetId, now);
    if (
      !g.frame && unheld && before !== "about:blank" && /^(https?|wss?):/i.test(now) &&
      g.policy.refusal(now, before) !== undefined
    ) {
      g.block({ url: now, reason: "site", frameId: e.frame.id });
      const back = returnTo(session, {
        back: before,
        refused: now,
        shows: () => g.shown(),
      })
        .catch(g.report);
      g.pending.returning(back);
    }
  });
}
