/**
 * The navigation guard's answer to a paused request that is not a document:
 * a script's fetch/XHR/beacon (and, with bound secrets, any subresource).
 * Reads pass; a write (POST, PUT, PATCH, DELETE) that follows a `submit`
 * event is a form the page sends itself: stopped when the call did not
 * declare it, or when it goes off the allowlist; any request carrying a bound
 * secret off its origins, or to a blocked origin, is stopped (answered `BlockedByClient`).
 *
 * CDP: `Fetch.continueRequest`, `Fetch.failRequest`, `Runtime.evaluate` (a
 * round trip that flushes the page's submit report).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { BlockedNavigation, NavPolicy } from "./nav_guard_types.ts";
import { bodyOf, leakBlocked, type PausedRequest } from "./secret_leaks.ts";
import type { SendCandidate } from "../injected/form_types.ts";
import { approvedSend, dataChanges, sentEntries } from "./approved_data.ts";

/** Methods that only read: never held. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Longest wait for a round trip that flushes the page's submit report, ms. */
const ROUND_TRIP_MS = 250;

/** What the guard knows when it answers. */
export interface ScriptRequestContext {
  policy: NavPolicy;
  /** The acting call declared it sends a form (`submits: true`). */
  declared: boolean;
  /**
   * What a human approved the acting call to send (`GuardWindow.approvedSends`/`approvedData`),
   * when one was asked: then that is the only write the call may make (red team s15 #4).
   */
  approved?: {
    sends?: readonly string[] | undefined;
    data?: readonly SendCandidate[] | undefined;
    /** The approved send went already in this window: a yes covers one. */
    spent?: boolean;
    /** Records that it went. */
    spend?: () => void;
  } | undefined;
  /** True when the request's page dispatched a `submit` event lately. */
  recentSubmit: () => boolean;
  /** Records what was stopped (for the acting call's result). */
  block: (b: BlockedNavigation) => void;
  /** Tells the network log the request was refused, and why. */
  refused: (why: string) => void;
  /** Lets a request through (a route may answer it); default `Fetch.continueRequest`. */
  pass?: () => Promise<void>;
  /**
   * One round trip to every renderer whose submit report may be on its way (default: the
   * request's own session; a worker's: its session's tabs), bounded by {@link ROUND_TRIP_MS}.
   */
  flush?: () => Promise<void>;
}

/**
 * One round trip to `session`'s renderer, at most {@link ROUND_TRIP_MS}: any report it sent
 * before is delivered by then. Never rejects. CDP: `Runtime.evaluate`.
 */
export function roundTrip(session: CdpSession): Promise<void> {
  return session.send("Runtime.evaluate", { expression: "0" }, { timeoutMs: ROUND_TRIP_MS })
    .then(() => {}, () => {});
}

/** Answers one paused request of a page (see the module doc). */
export async function answerScriptRequest(
  session: CdpSession,
  e: { requestId: string; request: PausedRequest; frameId: string },
  g: ScriptRequestContext,
): Promise<void> {
  const fail = () =>
    session.send("Fetch.failRequest", { requestId: e.requestId, errorReason: "BlockedByClient" });
  // `--blocked-origins`: Chromium's own blocking misses some requests (see NavPolicy.blocked).
  if (g.policy.blocked?.(e.request.url)) {
    g.refused("blocked origin (--blocked-origins)");
    await fail();
    return;
  }
  const secret = g.policy.secretLeak?.(e.request.url, bodyOf(e.request), e.request.headers);
  if (secret !== undefined) {
    g.block({ ...leakBlocked(e.request.url, e.frameId, secret), request: true });
    g.refused("a bound secret off its origins");
    await fail();
    return;
  }
  const write = !READ_METHODS.has(e.request.method.toUpperCase());
  const unapproved = write ? notApproved(e.request, g.approved) : undefined;
  if (unapproved) {
    g.block({ ...unapproved, frameId: e.frameId, request: true });
    g.refused("not the write the human approved");
    await fail();
    return;
  }
  let submitted = write && g.recentSubmit();
  if (write && !submitted && (!g.declared || !g.policy.allowlisted(e.request.url))) {
    // The submit report and the request travel different ways: one round trip to the
    // renderer delivers any report it sent before the request.
    await (g.flush ? g.flush() : roundTrip(session));
    submitted = g.recentSubmit();
  }
  // A form a script sends: refused undeclared, and, declared, where the allowlist does not reach.
  const offList = submitted && g.declared && !g.policy.allowlisted(e.request.url);
  if (submitted && (!g.declared || offList)) {
    g.block({
      url: e.request.url,
      frameId: e.frameId,
      request: true,
      ...(offList
        ? { reason: "site" as const, form: true as const, why: "not on the allowlist" }
        : { reason: "submit" as const }),
    });
    g.refused(offList ? "not on the allowlist" : "form not declared");
    await fail();
    return;
  }
  if (g.pass) await g.pass();
  else await session.send("Fetch.continueRequest", { requestId: e.requestId });
}

/**
 * When a human approved what the acting call sends (`approved.sends`), why the write `request`
 * is not that send — a script's write after the yes (a `submit` listener added while the person
 * read, its `fetch` or `sendBeacon` with other data or to another URL) is refused like an
 * undeclared form, by method and URL (`approvedSend`) and, when the data was read, by its
 * entries (`dataChanges`; a body that is not form data is never the approved form's), and
 * once only (`again`: the approved send went already). Undefined when no human was asked or it
 * is the approved send (then spent).
 */
function notApproved(
  request: PausedRequest,
  approved: ScriptRequestContext["approved"],
): Omit<BlockedNavigation, "frameId"> | undefined {
  const sends = approved?.sends;
  if (!approved || !sends?.length) return undefined;
  const { method, url, headers } = request;
  const base = { url, reason: "submit" as const, form: true as const, unapproved: sends };
  if (!approvedSend(sends, method, url)) return base;
  if (approved.spent) return { ...base, again: true };
  const data = approved.data;
  if (!data?.length) return void approved.spend?.();
  const type = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === "content-type")
    ?.[1];
  const changed = dataChanges(data, {
    method,
    url,
    entries: sentEntries(method, url, bodyOf(request), type),
  });
  if (changed) return { ...base, dataChanged: changed };
  approved.spend?.();
  return undefined;
}
