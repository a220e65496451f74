/**
 * The navigation guard's browser-level net: document requests no tab's guard saw.
 *
 * Chromium opens some tabs from the browser process and starts their first request at once,
 * before the tab is attached (a Ctrl/Shift/middle click on a link, even a synthetic one on a
 * link that is in no document or sits in a closed shadow root): measured, the new tab attaches
 * after its document was requested, and its own `Fetch.enable` never sees that request. The
 * browser target's own `Fetch.enable` (documents only) does: every document request of the
 * browser pauses there too, after the tab's guard let it through (a tab's interception runs
 * first). A request a tab's guard let through is continued at once; one no guard saw is judged
 * by the session that owns its tab (`NavGuard.judgeUnheld`) and, when the policy refuses it,
 * answered `204 No Content` (the tab stays blank and is reported as stopped; between calls it is
 * closed at once), so the server never hears of it.
 *
 * CDP: `Fetch.enable` (browser session, `Document` requests), `Fetch.requestPaused`,
 * `Fetch.continueRequest`, `Fetch.fulfillRequest`, `Target.closeTarget`.
 *
 * @module
 */
import type { Connection, Unsubscribe } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import { withoutFragment } from "./blocked_page.ts";
import { bodyOf, leakBlocked, type PausedRequest } from "./secret_leaks.ts";
import type { BlockedNavigation, GuardWindow, NavPolicy } from "./nav_guard_types.ts";

/** How long a let-through mark waits for its browser-level pause, ms. */
const MARK_MS = 60_000;
/** Marks kept at most per guard (older ones go first). */
const MARKS_KEPT = 256;

/** Document requests a tab's guard let through, by frame and URL, until the browser sees them. */
export class HeldDocuments {
  #marks = new Map<string, number[]>();
  #count = 0;

  /** A tab's guard let `frameId`'s document request to `url` through. */
  mark(frameId: string, url: string): void {
    const key = `${frameId} ${withoutFragment(url)}`;
    const now = Date.now();
    const list = (this.#marks.get(key) ?? []).filter((at) => now - at < MARK_MS);
    list.push(now);
    this.#marks.set(key, list);
    if (++this.#count > MARKS_KEPT) this.#prune(now);
  }

  /** True (and the mark spent) when `frameId`'s request to `url` was let through by its tab. */
  take(frameId: string, url: string): boolean {
    const key = `${frameId} ${withoutFragment(url)}`;
    const now = Date.now();
    const list = (this.#marks.get(key) ?? []).filter((at) => now - at < MARK_MS);
    const found = list.length > 0;
    list.shift();
    if (list.length) this.#marks.set(key, list);
    else this.#marks.delete(key);
    return found;
  }

  #prune(now: number): void {
    this.#count = 0;
    for (const [key, list] of this.#marks) {
      const kept = list.filter((at) => now - at < MARK_MS);
      if (kept.length) this.#marks.set(key, kept);
      else this.#marks.delete(key);
      this.#count += kept.length;
    }
    // Still too many (a page navigating frames in a loop): the oldest keys go.
    for (const key of this.#marks.keys()) {
      if (this.#count <= MARKS_KEPT) break;
      this.#count -= this.#marks.get(key)!.length;
      this.#marks.delete(key);
    }
  }
}

/** What judges a browser-level document request: one session's guard. */
export interface UnheldJudge {
  /** True when this session's tab guard let the request through already (see {@link HeldDocuments.take}). */
  held(frameId: string, url: string): boolean;
  /**
   * Why the main-frame document request of tab `targetId`, which no tab guard saw, may not go
   * (recorded as stopped by the guard), or undefined to let it go.
   */
  judge(targetId: string, request: PausedRequest): string | undefined;
  /**
   * True when a tab refused now is to be closed at once: no call is acting (a call's window
   * closes the blank tab itself and says so in its result).
   */
  closesRefused(): boolean;
}

/** Where {@link holdUnheldRequests} finds the judges. */
export interface UnheldJudges {
  /** Every session's judge (asked whether its tab guard saw the request). */
  all(): Iterable<UnheldJudge>;
  /**
   * The judge of the session owning the tab whose main frame is `frameId`; undefined when the
   * frame is not one of our tabs' main frames (a subframe, another party's tab).
   */
  of(frameId: string): Promise<UnheldJudge | undefined>;
}

/**
 * Turns on the browser-level net on `connection` (resolves once `Fetch.enable` is answered:
 * call before any tab of ours opens). Returns the remover of its listener.
 *
 * @throws what `Fetch.enable` throws (a browser without the Fetch domain on its browser target).
 */
export async function holdUnheldRequests(
  connection: Connection,
  judges: UnheldJudges,
): Promise<Unsubscribe> {
  const report = (err: unknown) => {
    if (!isTargetClosedError(err)) console.error("browxai: navigation guard (browser):", err);
  };
  const answer = async (requestId: string, frameId: string, request: PausedRequest) => {
    const go = () => connection.send("Fetch.continueRequest", { requestId });
    for (const j of judges.all()) if (j.held(frameId, request.url)) return void await go();
    const judge = await judges.of(frameId);
    if (judge?.judge(frameId, request) === undefined) return void await go();
    // A 204 answer cancels the navigation: the tab keeps its blank document.
    await connection.send("Fetch.fulfillRequest", { requestId, responseCode: 204 });
    // Between calls, a blank tab would become the active one: gone at once instead.
    if (judge.closesRefused()) await connection.send("Target.closeTarget", { targetId: frameId });
  };
  const off = connection.on("Fetch.requestPaused", (e) => {
    answer(e.requestId, e.frameId, e.request).catch((err) => {
      report(err);
      // Not judged: never let go (a request left paused would hang its tab).
      connection.send("Fetch.failRequest", {
        requestId: e.requestId,
        errorReason: "BlockedByClient",
      })
        .catch(() => {});
    });
  }, null);
  try {
    await connection.send("Fetch.enable", {
      patterns: [{ resourceType: "Document", requestStage: "Request" }],
    });
  } catch (e) {
    off();
    throw e;
  }
  return off;
}

/**
 * The verdict on a tab's document request no tab guard saw (see the module doc): a bound
 * secret off its origins, a form the call did not declare (a POST), a site the policy refuses
 * (`refusal(url, from)`) is recorded with `block` and its reason returned; undefined lets it go.
 */
export function judgeUnheld(
  targetId: string,
  request: PausedRequest,
  g: {
    policy: NavPolicy;
    /** The acting call's window, if one is open. */
    window: GuardWindow | undefined;
    /** Where the tab comes from (the session's active tab's URL). */
    from: string;
    block: (b: BlockedNavigation) => void;
  },
): string | undefined {
  const url = request.url;
  const secret = g.policy.secretLeak?.(url, bodyOf(request));
  if (secret !== undefined) {
    const b = leakBlocked(url, targetId, secret);
    g.block(b);
    return b.why;
  }
  if (request.method === "POST" && !g.window?.submits) {
    g.block({ url, reason: "submit", frameId: targetId });
    return "form not declared";
  }
  const why = g.policy.refusal(url, g.from);
  if (why !== undefined) g.block({ url, reason: "site", frameId: targetId, why });
  return why;
}
