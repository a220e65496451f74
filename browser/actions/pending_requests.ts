/**
 * Which of an action window's requests still hold it open (`recorder.ts`): a request counts
 * until its response headers arrived (a script's a moment more, for its body), and never when
 * it streams, is the browser's own favicon fetch, is older than {@link SETTLE_CAP_MS}, or
 * belongs to a document its frame no longer shows.
 *
 * @module
 */
import type { NetworkEntry } from "../sessions/page_logs.ts";

/** How long the recorder waits for the page to settle at most (and a request counts), ms. */
export const SETTLE_CAP_MS = 5000;
/** Requests of scripts, whose body the page reads and renders. */
const BODY_TYPES = new Set(["XHR", "Fetch"]);
/** How long past its headers a script's request may take to finish its body, ms. */
const BODY_WAIT_MS = 1000;
// Long-lived connections never finish; do not wait for them.
const STREAMING_TYPES = new Set(["EventSource", "WebSocket", "Ping", "Manifest"]);

/**
 * The browser's own favicon fetch (type `Other`; a script's fetch of the same URL is `Fetch`):
 * not something the page did. Chromium starts it once the main frame stopped loading, so it
 * neither holds a navigation's window nor restarts its quiet (it was ~20 ms of every load's
 * result plus the quiet window after it).
 */
export function isBrowserFavicon(type: string | undefined, url: string): boolean {
  return type === "Other" && /\/favicon\.ico(\?|$)/.test(url);
}

/**
 * The requests of `entries` (the window's network log) still pending; `orphaned(requestId)`:
 * the request's document is no longer its frame's (not waited for).
 */
export function pendingRequests(
  entries: NetworkEntry[],
  orphaned: (requestId: string) => boolean,
): NetworkEntry[] {
  // A request counts as settled once its response headers arrived: a page
  // that never reads a body leaves loadingFinished pending forever. A script's
  // request (fetch, XHR) gets a moment more for its body: the page renders
  // what it reads from it.
  const now = Date.now();
  return entries.filter((r) =>
    !r.done && !STREAMING_TYPES.has(r.type) && now - r.timestamp < SETTLE_CAP_MS &&
    !isBrowserFavicon(r.type, r.url) &&
    !orphaned(r.requestId) &&
    (r.status === undefined ||
      (BODY_TYPES.has(r.type) && now - (r.respondedAt ?? now) < BODY_WAIT_MS))
  );
}
