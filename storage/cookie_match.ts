/**
 * Which cookies a request to a URL would carry (RFC 6265 domain and path matching, the secure
 * flag), and which of several is the most specific: the URL filter of `cookies.ts`.
 *
 * @module
 */

/** Where a cookie applies: the fields of `Cookie` (`cookies.ts`) the matching reads. */
export interface CookiePlace {
  /** `example.com`: host-only; `.example.com`: the domain and its subdomains. */
  domain: string;
  path: string;
  secure: boolean;
}

/** A cookie domain without its leading dots, lower-cased. */
export function bareDomain(domain: string): string {
  return domain.replace(/^\.+/, "").toLowerCase();
}

/** Hosts Chromium treats as secure contexts over plain http (Playwright's rule). */
function isLocalHost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" ||
    host === "[::1]";
}

/** RFC 6265 §5.1.3: a host-only cookie matches its host; a domain cookie also its subdomains. */
export function domainMatches(cookieDomain: string, host: string): boolean {
  const h = host.toLowerCase();
  if (!cookieDomain.startsWith(".")) return h === cookieDomain.toLowerCase();
  const d = bareDomain(cookieDomain);
  return h === d || h.endsWith("." + d);
}

/** RFC 6265 §5.1.4 path-match. */
export function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/**
 * True when a request to `url` would carry the cookie: its domain and path match, and a
 * secure cookie needs https or a local host. SameSite and ports are not considered
 * (Playwright's `cookies(urls)` filter, made exact for host-only cookies).
 */
export function cookieMatchesUrl(
  cookie: CookiePlace,
  url: URL,
): boolean {
  if (!domainMatches(cookie.domain, url.hostname)) return false;
  if (!pathMatches(cookie.path, url.pathname || "/")) return false;
  return !cookie.secure || url.protocol === "https:" || isLocalHost(url.hostname);
}

/** The cookies a request to any of `urls` would carry; all of them when `urls` is empty. */
export function filterCookies<T extends CookiePlace>(
  cookies: readonly T[],
  urls: readonly URL[],
): T[] {
  if (urls.length === 0) return [...cookies];
  return cookies.filter((c) => urls.some((u) => cookieMatchesUrl(c, u)));
}

/**
 * The most specific of several cookies for one request: longest path first, then the
 * longest domain (the order a browser sends them in).
 */
export function mostSpecific<T extends Pick<CookiePlace, "domain" | "path">>(
  cookies: readonly T[],
): T | undefined {
  return [...cookies].sort((a, b) =>
    b.path.length - a.path.length || bareDomain(b.domain).length - bareDomain(a.domain).length
  )[0];
}
