/**
 * The navigation guard's part in workers.
 *
 * A dedicated worker's fetches and XHRs already pass the page's `Fetch` handler (Chromium
 * pauses them on the page's session: the script-write and bound-secret checks see them), but
 * `Network.setBlockedURLs` on the page does not reach a worker: each worker gets its own, sent
 * while it waits for the debugger.
 *
 * A shared worker's and a service worker's requests pass no page's handler at all: a page could
 * post a bound secret or a form it stopped itself to one of them, whose fetch sent it on
 * unseen (red team s14 #1). Each gets the guard's own `Fetch` handler, enabled while it waits
 * for the debugger, which answers its requests as a page script's (`script_requests.ts`). They
 * belong to one browser context, so to one browxai session (a context is never shared by two):
 * a form submit of any of that session's tabs counts as theirs. A service worker takes the
 * handler whenever it comes (Chromium pushes it to the running worker); a shared worker only
 * when it came before its network was set up, so under a policy that needs the guard a shared
 * worker is refused instead ({@link refusesWorker}).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import type { Protocol } from "../../cdp/types.ts";

/** Worker target types whose requests no page's `Fetch` handler sees. */
const OWN_NETWORK_TYPES = new Set(["shared_worker", "service_worker"]);

/**
 * True when a worker target of `type` (`Target.TargetInfo.type`) sends its requests outside
 * every page's network agent: `shared_worker`, `service_worker`.
 */
export function hasOwnNetwork(type: string): boolean {
  return OWN_NETWORK_TYPES.has(type);
}

/**
 * True when a worker of `type` is refused (closed before it runs) under `policy`: a shared
 * worker while secrets are bound, an allowlist limits origins, or a human confirms form sends
 * (after a yes, the approved send must be the only write: red team s15 round 2 sent a form
 * through an unheld one in 1 run of 3). Chromium cannot hold its
 * requests for sure: a shared worker's network is set up once, as it starts, and takes the
 * worker's own `Fetch.enable` only when that arrived first (measured: 1 run in 7 of a test
 * page sent a form through it unheld; Chromium does not push an interceptor to a running shared
 * worker), so a page could hand it a bound secret or a form to send unseen. Without such a
 * policy it runs, held when its `Fetch.enable` came in time (`--blocked-origins` holds in it
 * for sure: `Network.setBlockedURLs` is applied in the worker itself).
 */
export function refusesWorker(
  type: string,
  policy: { secretLeak?: unknown; limitsOrigins?: boolean; confirmsSends?: boolean },
): boolean {
  return type === "shared_worker" &&
    (policy.secretLeak !== undefined || policy.limitsOrigins === true ||
      policy.confirmsSends === true);
}

/** The `Fetch.enable` patterns (see `guard_routes.ts` `fetchPatterns`). */
export type FetchPatterns = NonNullable<Protocol.Fetch.EnableRequest["patterns"]>;

/** How a worker's requests are held (only for {@link hasOwnNetwork} types). */
export interface WorkerFetch {
  /** What to pause: the tabs' patterns (`fetchPatterns`). */
  patterns: FetchPatterns;
  /** Answers one paused request (continue, fail or fulfil it); rejections are reported. */
  paused: (e: Protocol.Fetch.RequestPausedEvent) => Promise<void>;
}

/**
 * Sets up a worker (dedicated, shared or service) before its first request: blocks
 * `--blocked-origins` in it, and with `fetch` holds its requests to the guard. Call
 * synchronously while it waits for the debugger. Failures are reported, never thrown.
 * CDP: `Network.enable`, `Network.setBlockedURLs`, `Fetch.enable` (on the worker's session).
 *
 * @param blockedUrls URL patterns (`policy/blocked_urls.ts`).
 */
export function guardWorker(
  session: CdpSession,
  blockedUrls: readonly string[],
  options: { fetch?: WorkerFetch | undefined; report?: (error: unknown) => void } = {},
): void {
  const report = options.report ?? defaultReport;
  if (blockedUrls.length) {
    session.send("Network.enable").catch(report);
    session.send("Network.setBlockedURLs", {
      urlPatterns: blockedUrls.map((urlPattern) => ({ urlPattern, block: true })),
    }).catch(report);
  }
  const fetch = options.fetch;
  if (!fetch) return;
  session.on("Fetch.requestPaused", (e) => {
    fetch.paused(e).catch(report);
  });
  session.send("Fetch.enable", { patterns: fetch.patterns }).catch(report);
}

function defaultReport(err: unknown): void {
  if (!isTargetClosedError(err)) console.error("browxai: navigation guard (worker):", err);
}
