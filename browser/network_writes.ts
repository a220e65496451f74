/**
 * Network writes (requests by a method that may change state on the server) and the one rule
 * for how a URL reaches the agent in a result ({@link reportedUrl}): a write's URL by its query
 * keys, never their values (the network log, every URL of an action's result).
 *
 * @module
 */

/** Longest URL a result shows, characters (cut with `…`). */
export const MAX_REPORTED_URL = 200;

/**
 * A URL with every value taken out, for a write: origin and path, each path segment's matrix
 * parameters by name (`/a;jsessionid=x` → `/a;jsessionid`), the query by its keys (`?a&b`:
 * each key once; a part with no `=`, such as `?token`, is all value: shown as `…`). The
 * user name and password, the fragment and the values are dropped. A string that does not
 * parse keeps what stands before its first `;`, `?` or `#`.
 */
export function keysOnly(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/;([^;/=]*)=[^;/]*/g, ";$1");
    const keys = new Set<string>();
    for (const part of u.search.slice(1).split("&")) {
      if (!part) continue;
      const eq = part.indexOf("=");
      keys.add(eq < 0 ? "…" : decodeKey(part.slice(0, eq)));
    }
    return `${u.origin}${path}${keys.size ? `?${[...keys].join("&")}` : ""}`;
  } catch {
    return url.split(/[;?#]/)[0]!;
  }
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, " "));
  } catch {
    return key;
  }
}

/** Methods that only read (RFC 9110's safe methods); every other method counts as a write. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/**
 * True for HTTP methods that may write: every method but `GET`, `HEAD`, `OPTIONS` and `TRACE`,
 * in any case (`POST`, `PUT`, `PATCH`, `DELETE`, an XHR's `pAtCh`, which Chromium sends as the
 * page spelled it, a WebDAV `MKCOL`): their URLs are shown by keys, and one sent after a click
 * means a form left. False for no method (unknown).
 */
export function isWriteMethod(method: string | undefined): boolean {
  return !!method && !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * A request's URL as the agent is shown it, uncut: a write's by its keys ({@link keysOnly}).
 * `method` undefined: a read. {@link reportedUrl} is this, cut.
 */
export function shownUrl(request: { method?: string | undefined; url: string }): string {
  return isWriteMethod(request.method) ? keysOnly(request.url) : request.url;
}

/**
 * The one rule for a URL in an action's result (`navigation.from`/`to`, `network.requests`,
 * `network.mutations`, `network.routed`, `structure.newTabs`): when the request that fetched it
 * was a write (`method`, see {@link isWriteMethod}; for a tab's address, the method that
 * fetched its document: a form's POST), by its keys only ({@link keysOnly}); else as it is.
 * Then cut to {@link MAX_REPORTED_URL} chars (with `…`). `method` undefined: a read.
 */
export function reportedUrl(url: string, method?: string): string {
  const shown = shownUrl({ method, url });
  return shown.length > MAX_REPORTED_URL ? shown.slice(0, MAX_REPORTED_URL) + "…" : shown;
}
