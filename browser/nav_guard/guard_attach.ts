/**
 * The navigation guard's attach half (`nav_guard.ts`): what a page target and a worker get while
 * they wait for the debugger, and how the guard answers their paused requests (a document's,
 * a script's). The {@link NavGuard} holds the state; these functions are handed its parts.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import { watchNavigations } from "./guard_navigations.ts";
import type { PassedRequests } from "./passed_requests.ts";
import type { PausedAnswers } from "./paused_answers.ts";
import type { GuardPending } from "./guard_pending.ts";
import type { PausedRequest } from "./secret_leaks.ts";
import {
  answerDocumentRequest,
  type PausedDocument,
  SUBMIT_MATCH_MS,
} from "./document_requests.ts";
import { answerScriptRequest, roundTrip } from "./script_requests.ts";
import { installGuardListener } from "./new_tab_clicks.ts";
import type { SessionRoutes } from "../routes/routes.ts";
import type { PausedForRoute } from "../routes/route_answer.ts";
import { fetchPatterns, noteRefusedRoute, passToRoutes } from "./guard_routes.ts";
import type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";
import { guardWorker, hasOwnNetwork, refusesWorker } from "./worker_guard.ts";
import type { HeldDocuments } from "./unheld_requests.ts";
import { watchWebSockets } from "./websocket_leaks.ts";
import type { ApprovedHold } from "./approved_hold.ts";
import type { AnnouncedRequests } from "./announced_requests.ts";

/**
 * The state of one session's guard that its attach half reads and writes (the `NavGuard`'s own
 * maps and helpers, by reference): what a field is for is said on `NavGuard`'s field.
 */
export interface GuardParts {
  readonly policy: NavPolicy;
  /** The session's routes: they answer what the policy lets through. */
  readonly routes: SessionRoutes | undefined;
  /** Told of each request a route answered (network request id, the route's pattern). */
  readonly routed: (networkId: string, pattern: string) => void;
  /** Told of each request the guard answered itself (network request id, why). */
  readonly refused: (networkId: string, why: string) => void;
  /** The current acting call's window, if any. */
  readonly window: () => GuardWindow | undefined;
  /** Records a stop (`NavGuard.#block`). */
  readonly block: (b: BlockedNavigation) => void;
  /** The last stop of the current window. */
  readonly lastBlocked: () => BlockedNavigation | undefined;
  /** `NavGuard.guardsUnload`. */
  readonly guardsUnload: () => boolean;
  readonly hold: ApprovedHold;
  readonly submissions: Map<string, number>;
  readonly scriptSubmits: Map<string, number>;
  readonly sessions: Map<string, CdpSession>;
  readonly workers: Map<string, CdpSession>;
  readonly urls: Map<string, string>;
  readonly pending: GuardPending;
  readonly passed: PassedRequests;
  readonly stops: Map<string, AbortController>;
  readonly answers: PausedAnswers;
  readonly held: HeldDocuments;
  readonly announced: AnnouncedRequests;
}

/** A page target to guard: see `NavGuard.attach`. */
export interface GuardedPage {
  targetId: string;
  from: () => string;
  frame?: boolean | undefined;
  url?: string | undefined;
  divert?: ((url: string, method: string) => (() => void) | undefined) | undefined;
  deferScript?: boolean | undefined;
}

/**
 * Starts holding a page target's navigations (see `NavGuard.attach`); returns the guard
 * listener's utility-world script with `deferScript`. CDP: `Fetch.enable`,
 * `Network.setBlockedURLs`, `Page.setPrerenderingAllowed`, `Fetch.failRequest`.
 */
export function attachPage(
  session: CdpSession,
  target: GuardedPage,
  parts: GuardParts,
): string | undefined {
  const { targetId, from } = target;
  const options = target;
  // An out-of-process iframe: its forms are judged; where the tab goes is its page's business.
  const mainFrameId = options.frame ? "" : targetId;
  const report = (err: unknown) => {
    if (!isTargetClosedError(err)) console.error("browxai: navigation guard:", err);
  };
  // A tab that was open already (an attached browser) shows a document: judged from there.
  parts.urls.set(targetId, options.url || "about:blank");
  parts.sessions.set(targetId, session);
  watchNavigations(session, {
    targetId,
    frame: options.frame === true,
    policy: parts.policy,
    window: parts.window,
    urls: parts.urls,
    submissions: parts.submissions,
    scriptSubmits: parts.scriptSubmits,
    pending: parts.pending,
    passed: parts.passed,
    block: parts.block,
    shown: () => shown(parts, targetId),
    report,
    ...(options.frame ? {} : { committed: (loader) => parts.hold.committed(targetId, loader) }),
  });
  // A form a script sends itself (the page handles `submit` and posts with fetch/XHR), and a
  // click that would open a tab Chromium does not hold for us: reported by our own world.
  const script = installGuardListener(session, report, {
    submitted: () => parts.scriptSubmits.set(targetId, Date.now()),
    newTab: (url) =>
      parts.block({
        url,
        reason: "site",
        frameId: mainFrameId,
        newTab: true,
        why: "a modifier or middle click opens a tab the guard cannot hold",
      }),
  }, { holdLinks: parts.policy.limitsNavigation === true, deferScript: options.deferScript });
  parts.hold.watch(session, targetId, mainFrameId || targetId);
  // No guard holds a WebSocket: one carrying a bound secret elsewhere is told at once.
  const find = parts.policy.secretLeak;
  if (find) {
    watchWebSockets(session, {
      find,
      frameId: mainFrameId || targetId,
      block: parts.block,
    });
  }
  // Speculation rules would load (prerender) and later show a page with no request to hold.
  if (!options.frame) {
    session.send("Page.setPrerenderingAllowed", { isAllowed: false }).catch(report);
  }
  // What a closing tab waits for (`still_subframes.ts`).
  if (parts.guardsUnload()) parts.announced.watch(session);
  session.on("Fetch.requestPaused", (e) => {
    if (e.networkId) parts.announced.seen(e.networkId);
    parts.answers.paused(targetId);
    if (e.resourceType !== "Document") {
      parts.answers.track(targetId, answerWrite(session, targetId, e, parts).catch(report));
      return;
    }
    const diverted = e.frameId === mainFrameId
      ? options.divert?.(e.request.url, e.request.method)
      : undefined;
    if (diverted) {
      session.send("Fetch.failRequest", { requestId: e.requestId, errorReason: "Aborted" })
        .catch(report).finally(diverted);
      return;
    }
    parts.answers.track(
      targetId,
      answerDocument(session, { targetId, mainFrameId, from, e }, parts).catch(report),
    );
  });
  // With bound secrets, every request is looked at (an image's URL can carry a value too).
  session.send("Fetch.enable", { patterns: fetchPatterns(parts.policy, parts.routes) }).catch(
    report,
  );
  // Blocked origins are never reached, by any request: Chromium fails them (no interception).
  const blocked = parts.policy.blockedUrls ?? [];
  if (blocked.length) {
    session.send("Network.setBlockedURLs", {
      urlPatterns: blocked.map((urlPattern) => ({ urlPattern, block: true })),
    }).catch(report);
  }
  return script;
}

/** Guards a worker of the session's context: see `NavGuard.attachWorker`. */
export function attachWorker(
  worker: { session: CdpSession; targetId: string; type: string },
  parts: GuardParts,
): void | "close" {
  const { session, targetId } = worker;
  if (refusesWorker(worker.type, parts.policy)) {
    console.error(
      "browxai: a page's shared worker was closed before it ran: its requests cannot be " +
        "held for sure, and secrets are bound, an allowlist limits origins or a human confirms sends",
    );
    return "close";
  }
  // A worker's WebSockets (and WebTransport sessions) show on its own session only, not the
  // page's (red team s15 #7: a dedicated, nested or service worker sent the value unreported).
  // Network is enabled on every worker (`session_workers.ts`, `worker_traffic.ts`).
  const find = parts.policy.secretLeak;
  if (find) watchWebSockets(session, { find, frameId: targetId, block: parts.block });
  parts.hold.watch(session, targetId, targetId);
  // A dedicated worker's requests are paused on its page's session (`attach`).
  if (worker.type === "worker" && parts.guardsUnload()) parts.announced.watch(session);
  const own = hasOwnNetwork(worker.type);
  if (own) parts.workers.set(targetId, session);
  guardWorker(session, parts.policy.blockedUrls ?? [], {
    fetch: own
      ? {
        patterns: fetchPatterns(parts.policy, parts.routes),
        paused: (e) => answerWrite(session, targetId, { ...e, frameId: e.frameId ?? "" }, parts),
      }
      : undefined,
  });
}

/** A request the policy let through: see {@link passToRoutes}. */
function pass(
  session: CdpSession,
  targetId: string,
  e: PausedForRoute,
  parts: GuardParts,
): Promise<void> {
  const context = { policy: parts.policy, routes: parts.routes, targetId, routed: parts.routed };
  return passToRoutes(session, e, context);
}

/** A document request: see {@link answerDocumentRequest}. */
function answerDocument(
  session: CdpSession,
  paused: { targetId: string; mainFrameId: string; from: () => string; e: PausedDocument },
  parts: GuardParts,
): Promise<void> {
  const { targetId, mainFrameId, from, e } = paused;
  parts.pending.judged(e.frameId);
  return answerDocumentRequest(session, e, {
    policy: parts.policy,
    window: parts.window,
    targetId,
    mainFrameId,
    from,
    current: parts.urls.get(targetId) ?? "about:blank",
    submissions: parts.submissions,
    scriptSubmits: parts.scriptSubmits,
    others: () => [...parts.sessions].filter(([id]) => id !== targetId).map(([, s]) => s),
    block: parts.block,
    lastBlocked: parts.lastBlocked,
    spent: () => parts.hold.spent,
    spend: (loader) => parts.hold.spend(loader),
    passed: (url) => parts.passed.mark(targetId, url),
    stopped: () => parts.stops.get(targetId)?.abort(),
    refused: (why) => {
      if (e.networkId) parts.refused(e.networkId, why);
      noteRefusedRoute(parts.routes, { targetId, url: e.request.url, why });
    },
    pass: () => {
      parts.held.mark(e.frameId, e.request.url);
      return pass(session, targetId, e, parts);
    },
  });
}

/** A script's (or a subresource's) request: see {@link answerScriptRequest}. */
function answerWrite(
  session: CdpSession,
  targetId: string,
  e: PausedForRoute & { request: PausedRequest; frameId: string },
  parts: GuardParts,
): Promise<void> {
  // A worker's request: no tab of its own, so any tab's submit is its page's, and any tab's
  // report may be on its way.
  const worker = parts.workers.has(targetId);
  const window = parts.window();
  return answerScriptRequest(session, e, {
    policy: parts.policy,
    declared: window?.submits === true,
    // The yes covers every target's writes but those of the page the approved form loaded.
    approved: parts.hold.ownDocument(targetId) ? undefined : {
      sends: window?.approvedSends,
      data: window?.approvedData,
      spent: parts.hold.spent,
      spend: () => parts.hold.spend(),
    },
    recentSubmit: () => recentSubmit(parts, worker ? undefined : targetId),
    ...(worker
      ? { flush: () => Promise.all([...parts.sessions.values()].map(roundTrip)).then(() => {}) }
      : {}),
    block: parts.block,
    refused: (why) => {
      if (e.networkId) parts.refused(e.networkId, why);
      noteRefusedRoute(parts.routes, { targetId, url: e.request.url, why });
    },
    pass: () => pass(session, targetId, e, parts),
  });
}

/** True when `targetId`'s page (undefined: any tab's) dispatched a `submit` event lately. */
function recentSubmit(parts: GuardParts, targetId: string | undefined): boolean {
  const ats = targetId === undefined
    ? [...parts.scriptSubmits.values()]
    : [parts.scriptSubmits.get(targetId)];
  const now = Date.now();
  return ats.some((at) => at !== undefined && now - at < SUBMIT_MATCH_MS);
}

/** What a tab's main frame shows (its last committed document; "" once closed). */
function shown(parts: GuardParts, targetId: string): string {
  return parts.urls.get(targetId) ?? "";
}
