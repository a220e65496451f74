/**
 * Network writes (requests by a method that changes state on the server) and how they reach
 * the agent: by their query keys, never their values (the network log, an action's result).
 *
 * @module
 */

/** A URL with its query values removed (`?a&b`): writes are reported by keys, never values. */
export function keysOnly(url: string): string {
  try {
    const u = new URL(url);
    const keys = [...new Set(u.searchParams.keys())];
    return `${u.origin}${u.pathname}${keys.length ? `?${keys.join("&")}` : ""}`;
  } catch {
    return url.split(/[?#]/)[0]!;
  }
}

const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * True for HTTP methods that write (`POST`, `PUT`, `PATCH`, `DELETE`; upper case, as CDP
 * reports them): their URLs are shown by keys, and one sent after a click means a form left.
 */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method);
}

/** A request's URL as the agent is shown it: a write's by its keys ({@link keysOnly}). */
export function shownUrl(request: { method: string; url: string }): string {
  return isWriteMethod(request.method) ? keysOnly(request.url) : request.url;
}
