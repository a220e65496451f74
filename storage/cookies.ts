/**
 * Cookies of one browser context over CDP: the cookie shape browxai reports, and get / set /
 * delete / clear. The URL filter (which cookies a request to a URL would carry) is in
 * `cookie_match.ts`.
 *
 * Every call goes to the browser endpoint with the context's `browserContextId` (undefined:
 * the browser's default context, as in persistent and attached sessions), so no tab and no
 * navigation is needed. CDP: `Storage.getCookies`, `Storage.setCookies`, `Storage.clearCookies`.
 *
 * @module
 */
import type { Connection } from "../cdp/connection.ts";
import type { Protocol } from "../cdp/types.ts";
import { ProtocolError } from "../cdp/errors.ts";
import { bareDomain, domainMatches, filterCookies, pathMatches } from "./cookie_match.ts";

/** SameSite values, as CDP and Playwright spell them. */
export const SAME_SITE = ["Strict", "Lax", "None"] as const;

/** One cookie as browxai reports it (Playwright's shape, which `dump_storage_state` shares). */
export interface Cookie {
  name: string;
  value: string;
  /** `example.com`: host-only; `.example.com`: the domain and its subdomains. */
  domain: string;
  path: string;
  /** Expiry in seconds since the Unix epoch; `-1` for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  /** Absent when the cookie declares none (Chromium then treats it as `Lax`). */
  sameSite?: Protocol.Network.CookieSameSite;
  /** CHIPS partition, when the cookie is partitioned. */
  partitionKey?: Protocol.Network.CookiePartitionKey;
}

/** Where cookie calls go: the browser connection and the context (undefined: default). */
export interface CookieScope {
  connection: Connection;
  browserContextId?: string | undefined;
}

/** What `setCookie` stores. Either `url`, or both `domain` and `path`. */
export interface CookieInit {
  name: string;
  value: string;
  /** http(s) URL: gives a host-only domain, the URL's directory as path, and `secure` for https. */
  url?: string | undefined;
  /** A leading dot makes a domain cookie (subdomains too); without it the cookie is host-only. */
  domain?: string | undefined;
  path?: string | undefined;
  /** Seconds since the Unix epoch; `-1` or absent: a session cookie. */
  expires?: number | undefined;
  httpOnly?: boolean | undefined;
  /** Default: true for an https `url`, else false. */
  secure?: boolean | undefined;
  sameSite?: Protocol.Network.CookieSameSite | undefined;
}

/** Which cookies `deleteCookies` removes: `name`, narrowed by `url`, or `domain` and/or `path`. */
export interface CookieFilter {
  name: string;
  /** Cookies whose domain and path match this URL (the secure flag is not considered). */
  url?: string | undefined;
  /** Exact domain (a leading dot is ignored on both sides). */
  domain?: string | undefined;
  /** Exact path. */
  path?: string | undefined;
}

/** Bad cookie input, or a cookie Chromium would not store; `hint` says what to do instead. */
export class CookieError extends Error {
  /** The next step for the caller. */
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.name = "CookieError";
    this.hint = hint;
  }
}

/** The largest `expires` Playwright accepts (9999-12-31T23:59:59Z), seconds. */
const MAX_EXPIRES = 253402300799;

/** Converts a CDP cookie to the reported shape (drops size, priority, source scheme/port). */
export function toCookie(raw: Protocol.Network.Cookie): Cookie {
  return {
    name: raw.name,
    value: raw.value,
    domain: raw.domain,
    path: raw.path,
    // CDP sends null for an expiry JSON cannot hold (±Inf).
    expires: raw.session || raw.expires === null ? -1 : raw.expires,
    httpOnly: raw.httpOnly,
    secure: raw.secure,
    ...(raw.sameSite ? { sameSite: raw.sameSite } : {}),
    ...(raw.partitionKey ? { partitionKey: raw.partitionKey } : {}),
  };
}

/**
 * Parses an http(s) URL given for a cookie.
 *
 * @throws CookieError for a relative URL or another scheme.
 */
export function parseCookieUrl(raw: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CookieError(
      `Invalid ${field} "${raw}": it must be an absolute URL`,
      "pass a full URL like https://example.com/",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CookieError(
      `Invalid ${field} "${raw}": cookies belong to http(s) URLs, not "${url.protocol}"`,
      "pass an http(s) URL like https://example.com/",
    );
  }
  return url;
}

/**
 * The CDP parameters for a cookie. With `url`, the domain is the URL's host (host-only),
 * the path the URL's directory (`/app/page` → `/app/`) and `secure` defaults to https —
 * Playwright's `addCookies` rules.
 *
 * @throws CookieError for an empty name, when neither `url` nor both `domain` and `path` are given, when `url`
 *   comes with `domain` or `path`, for a bad URL, a path without a leading `/`, or an
 *   `expires` that is neither -1 nor a positive number of seconds up to year 9999.
 */
export function cookieParam(init: CookieInit): Protocol.Network.CookieParam {
  if (init.name === "") {
    throw new CookieError("A cookie needs a name", 'pass name, e.g. "session_id"');
  }
  const forms = 'pass url (e.g. "https://example.com/"), or both domain and path ' +
    '(e.g. domain "example.com", path "/")';
  if (init.url !== undefined && (init.domain !== undefined || init.path !== undefined)) {
    throw new CookieError(
      `Cookie "${init.name}" has both url and ${init.domain !== undefined ? "domain" : "path"}`,
      `${forms}, not both`,
    );
  }
  if (init.url === undefined && (init.domain === undefined || init.path === undefined)) {
    const missing = init.domain === undefined && init.path === undefined
      ? "url, or domain and path"
      : init.domain === undefined
      ? "domain (path alone is not enough)"
      : "path (domain alone is not enough)";
    throw new CookieError(`Cookie "${init.name}" needs ${missing}`, forms);
  }
  const expires = init.expires;
  if (expires !== undefined && expires !== -1 && !(expires > 0 && expires <= MAX_EXPIRES)) {
    throw new CookieError(
      `Invalid expires ${expires} for cookie "${init.name}"`,
      "pass seconds since the Unix epoch (e.g. Math.floor(Date.now() / 1000) + 3600), " +
        "or -1 (or nothing) for a session cookie",
    );
  }
  const common = {
    name: init.name,
    value: init.value,
    ...(expires !== undefined && expires !== -1 ? { expires } : {}),
    ...(init.httpOnly !== undefined ? { httpOnly: init.httpOnly } : {}),
    ...(init.sameSite !== undefined ? { sameSite: init.sameSite } : {}),
  };
  if (init.url !== undefined) {
    const url = parseCookieUrl(init.url);
    const path = url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1) || "/";
    return {
      ...common,
      // The URL gives Chromium the host, scheme and port; the path is ours.
      url: url.origin + path,
      path,
      secure: init.secure ?? url.protocol === "https:",
    };
  }
  if (!init.path!.startsWith("/")) {
    throw new CookieError(
      `Invalid path "${init.path}" for cookie "${init.name}": it must start with "/"`,
      'pass a path like "/" or "/app"',
    );
  }
  if (bareDomain(init.domain!) === "") {
    throw new CookieError(`Invalid domain "${init.domain}" for cookie "${init.name}"`, forms);
  }
  return {
    ...common,
    domain: init.domain!,
    path: init.path!,
    ...(init.secure !== undefined ? { secure: init.secure } : {}),
  };
}

/**
 * Why Chromium may have dropped a cookie (it drops some without an error, e.g. SameSite=None
 * without Secure), as a hint naming the rule the cookie breaks; a generic hint when none is
 * known.
 */
export function cookieRejectionReason(param: Protocol.Network.CookieParam): string {
  const reasons: string[] = [];
  if (param.sameSite === "None" && !param.secure) reasons.push("sameSite None needs secure: true");
  if (param.expires !== undefined && param.expires * 1000 < Date.now()) {
    reasons.push("expires is in the past (use cookies_delete to remove a cookie)");
  }
  if (/^__(Secure|Host)-/i.test(param.name) && !param.secure) {
    reasons.push("a __Secure-/__Host- name needs secure: true");
  }
  if (/^__Host-/i.test(param.name) && (param.domain !== undefined || param.path !== "/")) {
    reasons.push('a __Host- name needs url and path "/"');
  }
  return reasons.length
    ? reasons.join("; ")
    : "check the domain (a public suffix or another host than url's is refused) and the flags";
}

/** The context's cookies, as CDP reports them. CDP: `Storage.getCookies`. */
export async function getRawCookies(scope: CookieScope): Promise<Protocol.Network.Cookie[]> {
  const { cookies } = await scope.connection.send("Storage.getCookies", contextParam(scope));
  return cookies;
}

/** The context's cookies, optionally only those sent to any of `urls`. CDP: `Storage.getCookies`. */
export async function listCookies(
  scope: CookieScope,
  options: { urls?: readonly URL[] | undefined } = {},
): Promise<Cookie[]> {
  return filterCookies((await getRawCookies(scope)).map(toCookie), options.urls ?? []);
}

function contextParam(scope: CookieScope): { browserContextId?: string } {
  return scope.browserContextId ? { browserContextId: scope.browserContextId } : {};
}

/** True when `c` is the cookie `param` names (same name, path and domain, dots ignored). */
export function sameKey(
  c: Pick<Cookie, "name" | "domain" | "path">,
  param: Protocol.Network.CookieParam,
): boolean {
  const domain = param.domain ?? new URL(param.url!).hostname;
  return c.name === param.name && c.path === param.path &&
    bareDomain(c.domain) === bareDomain(domain);
}

/**
 * Stores (or replaces) one cookie and returns it as Chromium stored it.
 * CDP: `Storage.setCookies`, then `Storage.getCookies` to read it back.
 *
 * @throws CookieError for bad input (see {@link cookieParam}), or when Chromium refuses the
 *   cookie or drops it (e.g. SameSite=None without secure); ProtocolError and connection
 *   errors otherwise.
 */
export async function setCookie(scope: CookieScope, init: CookieInit): Promise<Cookie> {
  const param = cookieParam(init);
  try {
    await scope.connection.send("Storage.setCookies", { cookies: [param], ...contextParam(scope) });
  } catch (e) {
    if (!(e instanceof ProtocolError)) throw e;
    throw new CookieError(
      `Chromium refused cookie "${init.name}": ${e.originalMessage}`,
      "check the name and value (no ; or control characters) and the domain",
    );
  }
  const stored = (await getRawCookies(scope)).find((c) => sameKey(c, param));
  if (!stored) {
    throw new CookieError(
      `Chromium did not store cookie "${init.name}"`,
      cookieRejectionReason(param),
    );
  }
  return toCookie(stored);
}

/** True when `cookie` is one `filter` selects. */
export function cookieMatchesFilter(
  cookie: Pick<Cookie, "name" | "domain" | "path">,
  filter: CookieFilter,
): boolean {
  if (cookie.name !== filter.name) return false;
  if (filter.url !== undefined) {
    const url = parseCookieUrl(filter.url);
    if (!domainMatches(cookie.domain, url.hostname) || !pathMatches(cookie.path, url.pathname)) {
      return false;
    }
  }
  if (filter.domain !== undefined && bareDomain(cookie.domain) !== bareDomain(filter.domain)) {
    return false;
  }
  return filter.path === undefined || cookie.path === filter.path;
}

/**
 * Deletes the cookies `filter` selects; idempotent. Each is overwritten by an expired copy
 * (same name, domain, path, flags and partition), which Chromium's cookie store treats as a
 * deletion: this reaches any context from the browser endpoint, where `Network.deleteCookies`
 * would need a tab of the context. CDP: `Storage.getCookies`, `Storage.setCookies`.
 *
 * @param options.allowed Whether a selected cookie may go (the caller's policy); the others
 *   stay and are named in `skipped` (`domain` + `path`). Default: every one.
 * @returns How many cookies were removed, and those the policy kept.
 * @throws CookieError for a bad `url`, or a cookie Chromium would not delete.
 */
export async function deleteCookies(
  scope: CookieScope,
  filter: CookieFilter,
  options: { allowed?: (c: Pick<Cookie, "domain" | "path" | "secure">) => boolean } = {},
): Promise<{ deleted: number; skipped: string[] }> {
  if (filter.url !== undefined) parseCookieUrl(filter.url);
  const selected = (await getRawCookies(scope)).filter((c) => cookieMatchesFilter(c, filter));
  const allowed = options.allowed ?? (() => true);
  const doomed = selected.filter((c) => allowed(c));
  const skipped = selected.filter((c) => !allowed(c)).map((c) => `${c.domain}${c.path}`);
  if (doomed.length === 0) return { deleted: 0, skipped };
  await scope.connection.send("Storage.setCookies", {
    cookies: doomed.map((c) => ({
      name: c.name,
      value: "",
      domain: c.domain,
      path: c.path,
      secure: c.secure,
      httpOnly: c.httpOnly,
      expires: 1,
      ...(c.partitionKey ? { partitionKey: c.partitionKey } : {}),
    })),
    ...contextParam(scope),
  });
  const key = (c: Protocol.Network.Cookie) => `${c.name}\n${c.domain}\n${c.path}`;
  const gone = new Set(doomed.map(key));
  const left = (await getRawCookies(scope)).filter((c) => gone.has(key(c)));
  if (left.length > 0) {
    throw new CookieError(
      `Chromium kept cookie "${filter.name}" on ${left.map((c) => `"${c.domain}${c.path}"`)}`,
      "try cookies_clear to remove every cookie of the session",
    );
  }
  return { deleted: doomed.length, skipped };
}

/**
 * Deletes every cookie of the context (web storage is untouched).
 * CDP: `Storage.getCookies` (to count), `Storage.clearCookies`.
 *
 * @returns How many cookies there were.
 */
export async function clearCookies(scope: CookieScope): Promise<number> {
  const count = (await getRawCookies(scope)).length;
  await scope.connection.send("Storage.clearCookies", contextParam(scope));
  return count;
}
