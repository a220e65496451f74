/**
 * The `Network.setBlockedURLs` patterns of `--blocked-origins`: every request of a target
 * (fetch, XHR, images, scripts, styles) to a blocked origin fails in the browser, not only
 * the documents the navigation guard holds.
 *
 * @module
 */
import { ipv4Mapped, ipv4Unmapped, type OriginPattern } from "./sites.ts";

/** Schemes a URLPattern can name a host of; an entry of another scheme has no sub-requests. */
const NETWORK_SCHEMES = new Set(["http", "https", "ws", "wss"]);
/** An IPv4 or IPv6 literal: no trailing-dot form. */
const IP_LITERAL = /^(\[.*\]|\d+\.\d+\.\d+\.\d+)$/;

/**
 * The URLPattern strings (`Network.BlockPattern.urlPattern`, Chromium's constructor-string
 * syntax) matching exactly the URLs {@link import("./sites.ts").matchesPattern} matches for
 * `patterns`: http and https when an entry names no scheme; the host itself (and its
 * trailing-dot form, `localhost.`), or only its
 * subdomains for `*.host`; any port, or the one named (the scheme's default port is written
 * nowhere in a URL, and URLPattern canonicalizes it away alike). Entries of a scheme with
 * no host (`file://*`) give none. Pure.
 *
 * Chromium does not apply these to WebSocket handshakes (measured: `ws://`, `http://` and
 * `*://` patterns all let one through), nor does `Fetch` pause them: a page can still open a
 * WebSocket to a blocked origin (README says so).
 */
export function blockedUrlPatterns(patterns: readonly OriginPattern[]): string[] {
  const out: string[] = [];
  for (const p of patterns) {
    const schemes = p.scheme ? [p.scheme] : ["http", "https"];
    // `:` starts a named group in a URLPattern: an IPv6 literal's colons are escaped.
    const escape = (h: string) => h.startsWith("[") ? h.replaceAll(":", "\\:") : h;
    const host = p.host === "*" ? "*" : p.subdomains ? `*.${p.host}` : escape(p.host);
    // A name with its trailing dot (`localhost.`) is the same host to DNS, another to a pattern;
    // an IPv4 address is also reached as its IPv4-mapped IPv6 literal (`[::ffff:7f00:2]`).
    const plain = ipv4Unmapped(p.host);
    const mapped = ipv4Mapped(plain);
    const hosts = host === "*"
      ? [host]
      : IP_LITERAL.test(p.host)
      ? [...new Set([plain, ...(mapped ? [mapped] : [])].map(escape))]
      : [host, `${host}.`];
    for (const scheme of schemes) {
      if (!NETWORK_SCHEMES.has(scheme)) continue;
      for (const h of hosts) out.push(`${scheme}://${h}:${p.port ?? "*"}/*`);
    }
  }
  return out;
}
