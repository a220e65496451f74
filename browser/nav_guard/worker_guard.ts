/**
 * The navigation guard's part in workers. A dedicated worker's fetches and XHRs already pass
 * the page's `Fetch` handler (Chromium pauses them on the page's session: the script-write and
 * bound-secret checks see them), but `Network.setBlockedURLs` on the page does not reach a
 * worker: each worker gets its own, sent while it waits for the debugger.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";

/**
 * Blocks `--blocked-origins` in a worker (dedicated, shared or service) before its first
 * request: nothing to do when no origin is blocked. Failures are reported, never thrown.
 * CDP: `Network.enable`, `Network.setBlockedURLs` (on the worker's session).
 *
 * @param blockedUrls URL patterns (`policy/blocked_urls.ts`).
 */
export function guardWorker(
  session: CdpSession,
  blockedUrls: readonly string[],
  report: (error: unknown) => void = defaultReport,
): void {
  if (!blockedUrls.length) return;
  session.send("Network.enable").catch(report);
  session.send("Network.setBlockedURLs", {
    urlPatterns: blockedUrls.map((urlPattern) => ({ urlPattern, block: true })),
  }).catch(report);
}

function defaultReport(err: unknown): void {
  if (!isTargetClosedError(err)) console.error("browxai: navigation guard (worker):", err);
}
