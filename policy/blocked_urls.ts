/**
 * The `Network.setBlockedURLs` patterns of `--blocked-origins`: every request of a target
 * (fetch, XHR, images, scripts, styles) to a blocked origin fails in the browser, not only
 * the documents the navigation guard holds.
 *
 * @module
 */
import type { OriginPattern } from "./sites.ts";

/** Schemes a URLPattern can name a host of; an entry of another scheme has no sub-requests. */
const NETWORK_SCHEMES = new Set(["http", "https", "ws", "wss"]);

/**
 * The URLPattern strings (`Network.BlockPattern.urlPattern`, Chromium's constructor-string
 * syntax) matching exactly the URLs {@link import("./sites.ts").matchesPattern} matches for
 * `patterns`: http and https when an entry names no scheme; the host itself, or only its
 * subdomains for `*.host`; any port, or the one named (the scheme's default port is written
 * nowhere in a URL, and URLPattern canonicalizes it away alike). Entries of a scheme with
 * no host (`file://*`) give none. Pure.
 */
export function blockedUrlPatterns(patterns: readonly OriginPattern[]): string[] {
  const out: string[] = [];
  for (const p of patterns) {
    const schemes = p.scheme ? [p.scheme] : ["http", "https"];
    // `:` starts a named group in a URLPattern: an IPv6 literal's colons are escaped.
    const name = p.host.startsWith("[") ? p.host.replaceAll(":", "\\:") : p.host;
    const host = p.host === "*" ? "*" : p.subdomains ? `*.${name}` : name;
    for (const scheme of schemes) {
      if (!NETWORK_SCHEMES.has(scheme)) continue;
      out.push(`${scheme}://${host}:${p.port ?? "*"}/*`);
    }
  }
  return out;
}
