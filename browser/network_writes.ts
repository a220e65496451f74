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

// Query keys whose values are credentials wherever they appear (a GET form with a password
// field, a token in a link): shown as `…` even in a read's URL.
const CREDENTIAL_KEY =
  /^(pw|pwd|pin|otp|cvc|cvv|ssn|sid|sig|code|auth|key|apikey|api_key|signature)$|pass|secret|token|session|credential/i;

/**
 * A read's URL with the values of credential-like query keys (`pw`, `password`, `token`,
 * `session`, `api_key`, …) and credential matrix parameters (`;jsessionid=`) taken out
 * (`…`), the user name and password dropped; other values kept (a search's `?q=shoes` tells
 * the agent where it is). A string that does not parse is returned as it is.
 */
export function withoutCredentials(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!u.search && !u.username && !u.password && !u.pathname.includes(";")) return url;
  let changed = !!(u.username || u.password);
  const path = u.pathname.replace(/;([^;/=]*)=([^;/]*)/g, (all, k: string) => {
    if (!CREDENTIAL_KEY.test(decodeKey(k))) return all;
    changed = true;
    return `;${k}=…`;
  });
  const query = u.search.slice(1).split("&").map((part) => {
    const eq = part.indexOf("=");
    if (eq < 0 || !CREDENTIAL_KEY.test(decodeKey(part.slice(0, eq)))) return part;
    changed = true;
    return `${part.slice(0, eq)}=…`;
  }).join("&");
  if (!changed) return url;
  return `${u.origin}${path}${query ? `?${query}` : ""}${u.hash}`;
}

/**
 * A request's URL as the agent is shown it, uncut: a write's by its keys ({@link keysOnly}),
 * a read's without credential values ({@link withoutCredentials}). `method` undefined: a read.
 * {@link reportedUrl} is this, cut.
 */
export function shownUrl(request: { method?: string | undefined; url: string }): string {
  return isWriteMethod(request.method) ? keysOnly(request.url) : withoutCredentials(request.url);
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
