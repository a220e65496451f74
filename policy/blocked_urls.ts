/**
 * The `Network.setBlockedURLs` patterns of `--blocked-origins`: every request of a target
 * (fetch, XHR, images, scripts, styles) to a blocked origin fails in the browser, not only
 * the documents the navigation guard holds.
 *
 * @module
 */
import { ipv4Mapped, ipv4Unmapped, type OriginPattern, reachesLoopback } from "./sites.ts";

/** Schemes a URLPattern can name a host of; an entry of another scheme has no sub-requests. */
const NETWORK_SCHEMES = new Set(["http", "https", "ws", "wss"]);
/** An IPv4 or IPv6 literal: no trailing-dot form. */
const IP_LITERAL = /^(\[.*\]|\d+\.\d+\.\d+\.\d+)$/;

/**
 * What a loopback entry also blocks (`matchesPattern`'s `loopbackAliases`), as URL hosts: the
 * names and the one address per form a URLPattern can write (it reads `127.*` as an IPv4
 * number, so the rest of 127.0.0.0/8 is left to the Fetch globs, {@link LOOPBACK_GLOBS}).
 */
const LOOPBACK_HOSTS = [
  "localhost",
  "localhost.",
  "*.localhost",
  "*.localhost.",
  "127.0.0.1",
  "[::ffff:7f00:1]",
  "0.0.0.0",
  "[::ffff:0:0]",
  "[::1]",
  "[::]",
];
/** Fetch globs for the rest of 127.0.0.0/8, dotted and IPv4-mapped (`[::ffff:7f00:2]`). */
const LOOPBACK_GLOBS = ["127.*", "[::ffff:7f*"];

/**
 * The URLPattern strings (`Network.BlockPattern.urlPattern`, Chromium's constructor-string
 * syntax) matching exactly the URLs {@link import("./sites.ts").matchesPattern} matches for
 * `patterns`: http and https when an entry names no scheme; the host itself (and its
 * trailing-dot form, `localhost.`), or only its
 * subdomains for `*.host`; any port, or the one named (the scheme's default port is written
 * nowhere in a URL, and URLPattern canonicalizes it away alike); for a loopback entry every
 * loopback name on its port too, but of 127.0.0.0/8 only 127.0.0.1 (the rest match the Fetch
 * globs only). Entries of a scheme with no host (`file://*`) give none. Pure.
 *
 * Chromium does not apply these to WebSocket handshakes (measured: `ws://`, `http://` and
 * `*://` patterns all let one through), nor does `Fetch` pause them: a page can still open a
 * WebSocket to a blocked origin (README says so).
 */
export function blockedUrlPatterns(patterns: readonly OriginPattern[]): string[] {
  return blockedPlaces(patterns).map(({ scheme, host, port }) =>
    `${scheme}://${host}:${port ?? "*"}/*`
  );
}

/** The default port of each scheme a URL leaves unwritten. */
const DEFAULT_PORTS: Record<string, string> = { http: "80", https: "443", ws: "80", wss: "443" };

/**
 * `Fetch.RequestPattern.urlPattern` globs (`*` any run, `\` escapes) that match at least
 * every URL {@link blockedUrlPatterns} matches: the navigation guard pauses these requests
 * too, so a blocked origin is refused where `Network.setBlockedURLs` does not reach (a
 * worklet's module, a keepalive fetch or beacon sent while a page unloads). A glob may match
 * more (`*.host` any prefix): the guard judges each paused request exactly. Pure.
 */
export function blockedFetchPatterns(patterns: readonly OriginPattern[]): string[] {
  const out = new Set<string>();
  const places = blockedPlaces(patterns);
  for (const p of patterns) {
    if (p.host === "*" || !reachesLoopback(p.host)) continue;
    for (const scheme of p.scheme ? [p.scheme] : ["http", "https"]) {
      if (!NETWORK_SCHEMES.has(scheme)) continue;
      for (const host of LOOPBACK_GLOBS) places.push({ scheme, host, port: p.port });
    }
  }
  for (const { scheme, host, port } of places) {
    if (port === undefined || port === DEFAULT_PORTS[scheme]) out.add(`${scheme}://${host}/*`);
    out.add(port === undefined ? `${scheme}://${host}:*` : `${scheme}://${host}:${port}/*`);
  }
  return [...out];
}

/**
 * Each scheme, host (as a URL writes it, `:` escaped with `\\`) and port (undefined: any)
 * that `patterns` block, in order.
 */
function blockedPlaces(
  patterns: readonly OriginPattern[],
): Array<{ scheme: string; host: string; port: string | undefined }> {
  const out: Array<{ scheme: string; host: string; port: string | undefined }> = [];
  for (const p of patterns) {
    const schemes = p.scheme ? [p.scheme] : ["http", "https"];
    // `:` starts a named group in a URLPattern: an IPv6 literal's colons are escaped.
    const escape = (h: string) => h.startsWith("[") ? h.replaceAll(":", "\\:") : h;
    const host = p.host === "*" ? "*" : p.subdomains ? `*.${p.host}` : escape(p.host);
    // A name with its trailing dot (`localhost.`) is the same host to DNS, another to a pattern;
    // an IPv4 address is also reached as its IPv4-mapped IPv6 literal (`[::ffff:7f00:2]`).
    const plain = ipv4Unmapped(p.host);
    const mapped = ipv4Mapped(plain);
    const own = host === "*"
      ? [host]
      : IP_LITERAL.test(p.host)
      ? [plain, ...(mapped ? [mapped] : [])]
      : [host, `${host}.`];
    // A loopback entry: every other way to the same listeners (matchesPattern's loopbackAliases).
    const loopback = host !== "*" && reachesLoopback(p.host);
    const hosts = [...new Set([...own, ...(loopback ? LOOPBACK_HOSTS : [])].map(escape))];
    for (const scheme of schemes) {
      if (!NETWORK_SCHEMES.has(scheme)) continue;
      for (const h of hosts) out.push({ scheme, host: h, port: p.port });
    }
  }
  return out;
}
