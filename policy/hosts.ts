/**
 * Host predicates, in one place: loopback hosts (who may reach the HTTP listener without a
 * token, which origins are trustworthy over plain http), hosts a scheme-less URL most likely
 * meant over http, and the site (registrable domain) of a URL for per-site approvals.
 *
 * @module
 */
import { getDomain } from "tldts";
import { isHostless, reachesLoopback } from "./sites.ts";

/**
 * True for loopback host names and addresses: `localhost`, `::1` (bracketed or not), and
 * numeric `127.x.y.z`. Case-insensitive.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  // Numeric only: "127.attacker.example" is a name anyone can point anywhere.
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * True for hosts a scheme-less address most likely meant over plain http: local names
 * (`localhost`, `*.localhost`), IPv6 literals (bracketed) and IPv4 addresses — local servers,
 * which rarely have a certificate (none is issued for a bare IP).
 */
export function prefersHttp(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h.startsWith("[") ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(h);
}

/**
 * The site of a URL: its registrable domain (`docs.example.co.uk` →
 * `example.co.uk`, private suffixes such as `github.io` included); for a host with no
 * registrable domain (an IP address, `localhost`, `*.localhost`, a single-label name) its
 * host (a trailing dot dropped) and port (`127.0.0.1:8080`, the scheme's default port when none is written): each port of one
 * address is a different server (an app on one, its admin on another), so approving one does
 * not approve the rest. Null for hostless URLs.
 */
export function siteOf(url: string): string | null {
  if (isHostless(url)) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  // `localhost.` is `localhost`; left in, `a.b.localhost.:1` and `c.b.localhost.:2` were one site.
  const host = u.hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return null;
  // Loopback names (`app.localhost`) too: tldts gives them a registrable domain. Each spelling
  // stays its own site (`127.0.0.1:A` approved does not approve `[::1]:A`, maybe another server).
  const local = IP_HOST.test(host) || reachesLoopback(host);
  const domain = local ? null : getDomain(host, { allowPrivateDomains: true });
  if (domain) return domain;
  const secure = u.protocol === "https:" || u.protocol === "wss:";
  return `${host}:${u.port || (secure ? "443" : "80")}`;
}

/** An IPv4 address or a bracketed IPv6 one: no registrable domain, whatever tldts says. */
const IP_HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[.*\])$/;

/**
 * The registrable domain of a host (`docs.example.co.uk` → `example.co.uk`),
 * or null when the host is itself a public suffix (`com`, `co.uk`,
 * `github.io`): what an allowlist wildcard must at least name.
 */
export function registrableDomain(host: string): string | null {
  return getDomain(host, { allowPrivateDomains: true });
}

/** Options of {@link originOf}. */
export interface OriginOfOptions {
  /**
   * What a URL with an opaque origin (`data:`, `about:`, `file:`, `javascript:`) gives:
   * `"null"` (its serialized origin, the default), `"scheme"` (`"data:"`: what was acted on,
   * for messages) or `"none"` (undefined, as for a URL that does not parse).
   */
  opaque?: "null" | "scheme" | "none";
}

/**
 * The origin of a URL, `scheme://host[:port]` (a `blob:` URL gives its creator's); for an
 * opaque origin see {@link OriginOfOptions.opaque}. Undefined when `url` does not parse:
 * each caller says what it shows instead (the URL, a cut of it, `"null"`).
 */
export function originOf(url: string, options: OriginOfOptions = {}): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.origin !== "null") return u.origin;
  const opaque = options.opaque ?? "null";
  return opaque === "null" ? "null" : opaque === "scheme" ? u.protocol : undefined;
}
