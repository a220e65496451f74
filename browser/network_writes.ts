/**
 * How network writes reach the agent: by their query keys, never their values (the network
 * log, an action's result).
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
