/**
 * The navigation guard's answer to a paused document request (`nav_guard.ts`):
 * a tab's or a frame's navigation is judged (a bound secret off its origins,
 * a form the call did not declare or would send again, a site the policy
 * refuses), then let through (a route may answer it), cancelled with a `204`
 * (the tab keeps its document), or, for a subframe, answered with a blocked
 * note of ours.
 *
 * CDP: `Fetch.fulfillRequest`; `Runtime.evaluate` (a round trip to the other
 * tabs, which delivers a form submission they reported first).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { PausedForRoute } from "../routes/route_answer.ts";
import { BLOCKED_HEADERS, blockedPage, sameUrl, withoutFragment } from "./blocked_page.ts";
import type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";
import { bodyOf, leakBlocked, type PausedRequest } from "./secret_leaks.ts";
import { approvedSend, dataChanges, sentEntries } from "./approved_data.ts";

/** How recent a submission must be to mark the request that follows, ms. */
export const SUBMIT_MATCH_MS = 5_000;
/** Longest wait for a round trip that flushes another tab's reports, ms. */
const ROUND_TRIP_MS = 250;

/** A paused document request. */
export type PausedDocument = PausedForRoute & {
  request: PausedRequest;
  frameId: string;
  redirectedRequestId?: string;
};

/** What the guard knows, and how it records, when it answers a document request. */
export interface DocumentRequestContext {
  policy: NavPolicy;
  /** The current window (the acting call's), read when the request is judged. */
  window: () => GuardWindow | undefined;
  /** The target the request was paused on. */
  targetId: string;
  /** Its main frame's id; "" for an out-of-process iframe's target. */
  mainFrameId: string;
  /** Where a new tab comes from (its opener's URL). */
  from: () => string;
  /** What the target's main frame shows ("about:blank" before its first document). */
  current: string;
  /** Form submissions requested in the session, by URL without fragment → when (ms). */
  submissions: Map<string, number>;
  /** Per page target: when its page last dispatched a `submit` event (ms). */
  scriptSubmits: Map<string, number>;
  /** The CDP sessions of the other guarded targets. */
  others: () => CdpSession[];
  /** Records what was stopped (for the acting call's result). */
  block: (b: BlockedNavigation) => void;
  /** The last record so far. */
  lastBlocked: () => BlockedNavigation | undefined;
  /** The send a human approved went already (a yes covers one). */
  spent?: () => boolean;
  /**
   * The send a human approved went (a script's write of the same data after it is another);
   * `loader`: the request's network id (the document it loads is the site's answer).
   */
  spend?: (loader: string | undefined) => void;
  /** A main-frame request to `url` was let through (`PassedRequests.mark`). */
  passed: (url: string) => void;
  /** A main-frame navigation was stopped (aborts the window's stop signal). */
  stopped: () => void;
  /** Tells the network log and the routes the request was refused, and why. */
  refused: (why: string) => void;
  /** Lets the request through (a route may answer it). */
  pass: () => Promise<void>;
}

/** A document request: judged, then let through or answered 204 (the tab stays). */
export async function answerDocumentRequest(
  session: CdpSession,
  e: PausedDocument,
  g: DocumentRequestContext,
): Promise<void> {
  const { targetId, mainFrameId, current } = g;
  if (
    current === "about:blank" && e.frameId === mainFrameId && !e.redirectedRequestId &&
    !g.submissions.has(withoutFragment(e.request.url))
  ) {
    // A new tab's first document may come from a form in another tab (target=_blank): one
    // round trip to every other tab delivers the submission each may have reported first.
    await Promise.all(
      // Bounded: an opener still inside window.open() answers only after its popup loads.
      g.others().map((s) =>
        s.send("Runtime.evaluate", { expression: "0" }, { timeoutMs: ROUND_TRIP_MS }).catch(
          () => {},
        )
      ),
    );
  }
  // Chromium reports no navigation request for a form that opens a new tab: the submit
  // event another tab just reported stands for it.
  // One submit event opens at most one tab: it is spent here, so a link clicked next (a
  // target=_blank link of the results) is not taken for the same form.
  const opener = current === "about:blank" && e.frameId === mainFrameId &&
      !e.redirectedRequestId
    ? [...g.scriptSubmits].find(([id, at]) => id !== targetId && Date.now() - at < SUBMIT_MATCH_MS)
      ?.[0]
    : undefined;
  if (opener !== undefined) {
    g.scriptSubmits.delete(opener);
    g.submissions.set(withoutFragment(e.request.url), Date.now());
  }
  // A subframe is judged against its tab's page (an out-of-process frame's: the active tab's).
  const top = mainFrameId === "" || current === "about:blank" ? g.from() : current;
  const verdict = judge(e, top, g);
  if (verdict === "pass") {
    if (e.frameId === mainFrameId) g.passed(e.request.url);
    await g.pass();
  } else if (verdict === "stop") {
    if (e.frameId === mainFrameId) g.stopped();
    const last = g.lastBlocked();
    const why = last?.why ?? (last?.replay ? "would send a form again" : "form not declared");
    g.refused(why);
    // A 204 answer cancels a navigation and keeps the current document; failing the
    // request would commit an error page in its place (the tab would have moved).
    await session.send("Fetch.fulfillRequest", { requestId: e.requestId, responseCode: 204 });
  } else {
    // An iframe shows a note of ours instead: the off-list server never hears of it,
    // and the log must not show our note's 200 as its answer.
    g.refused(verdict.why);
    await session.send("Fetch.fulfillRequest", {
      requestId: e.requestId,
      responseCode: 200,
      responseHeaders: BLOCKED_HEADERS,
      body: btoa(blockedPage(e.request.url, verdict.why)),
    });
  }
}

/** True when `url` is on the origin of one of the `approved` destinations (`"METHOD url"`). */
function approvedOrigin(approved: readonly string[], url: string): boolean {
  const origin = (u: string) => URL.parse(u)?.origin;
  return approved.some((a) => origin(a.slice(a.indexOf(" ") + 1)) === origin(url));
}

/**
 * `pass`; `stop` (answered 204: the frame keeps its document); or a
 * subframe's document refused for where it comes from (shown a blocked note).
 */
function judge(
  e: { request: PausedRequest; frameId: string; redirectedRequestId?: string; networkId?: string },
  from: string,
  g: DocumentRequestContext,
): "pass" | "stop" | { why: string } {
  const url = e.request.url;
  const main = e.frameId === g.mainFrameId;
  // A bound secret never leaves for an origin it is not bound to, declared or not.
  const secret = g.policy.secretLeak?.(url, bodyOf(e.request), e.request.headers);
  if (secret !== undefined) {
    const b = leakBlocked(url, e.frameId, secret);
    g.block(main ? b : { ...b, subframe: true });
    return main ? "stop" : { why: b.why! };
  }
  const expected = g.window()?.expectUrl;
  // The agent's own navigation (navigate, open_session): judged before it started.
  if (main && expected !== undefined && !e.redirectedRequestId && sameUrl(url, expected)) {
    return "pass";
  }
  const key = withoutFragment(url);
  const submittedAt = g.submissions.get(key);
  const isSubmit = !e.redirectedRequestId && (
    e.request.method === "POST" ||
    (submittedAt !== undefined && Date.now() - submittedAt < SUBMIT_MATCH_MS)
  );
  if (isSubmit) g.submissions.delete(key);
  // A history move or a reload onto a POST entry would send its form again: never.
  const replay = main && g.window()?.replay === true && e.request.method === "POST";
  if (replay || (isSubmit && !g.window()?.submits)) {
    g.block({
      url,
      reason: "submit",
      frameId: e.frameId,
      ...(replay ? { replay: true as const } : {}),
    });
    return "stop";
  }
  // A human approved where the page's forms send (its frames' too): the page may not change
  // it as it sends, in the main document or in a frame.
  const approved = g.window()?.approvedSends;
  const unapproved = (to: readonly string[], more: Partial<BlockedNavigation> = {}) => {
    g.block({
      url,
      reason: "submit",
      frameId: e.frameId,
      form: true,
      unapproved: to,
      ...(main ? {} : { subframe: true as const }),
      ...more,
    });
    return "stop" as const;
  };
  // A 307/308 re-sends the approved body: never to an origin the human was not told of.
  if (
    e.redirectedRequestId && approved?.length && e.request.method !== "GET" &&
    !approvedOrigin(approved, url)
  ) {
    return unapproved(approved, { redirectedTo: url });
  }
  if (isSubmit && approved?.length) {
    if (!approvedSend(approved, e.request.method, url)) return unapproved(approved);
    // And what it sends: the page may rewrite the data as it is sent (its submit listener), or
    // send another form (a frame's, whose destination the question listed) instead.
    const data = g.window()?.approvedData;
    const to = data?.length ? [...new Set(data.map((c) => c.to))] : approved;
    if (data?.length) {
      const { method, headers } = e.request;
      if (!approvedSend(to, method, url)) return unapproved(to);
      const type = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === "content-type")
        ?.[1];
      const changed = dataChanges(data, {
        method,
        url,
        entries: sentEntries(method, url, bodyOf(e.request), type),
      });
      if (changed) return unapproved(to, { dataChanged: changed });
    }
    // A yes covers one send.
    if (g.spent?.()) return unapproved(to, { again: true });
    g.spend?.(e.networkId);
  }
  const why = g.policy.refusal(url, from);
  if (why === undefined) return "pass";
  g.block({
    url,
    ...(e.redirectedRequestId ? { redirectedTo: url } : {}),
    reason: "site",
    frameId: e.frameId,
    ...(main ? {} : { subframe: true as const }),
    ...(isSubmit ? { form: true as const } : {}),
    why,
  });
  return main ? "stop" : { why };
}
