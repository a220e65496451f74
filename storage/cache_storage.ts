/**
 * The Cache API (`window.caches`) of one origin, read and written for the
 * `caches_*` tools: reads over CDP's CacheStorage domain, writes (which CDP
 * does not offer) through the Cache API in browxai's isolated world of the
 * page, which shares the page's origin and storage but none of its scripts.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import { ProtocolError } from "../cdp/errors.ts";
import type { Page } from "../cdp/page.ts";
import type { Protocol } from "../cdp/types.ts";

/** One named cache of an origin. */
export interface CacheRef {
  /** CDP's opaque id of the cache (`storageKey|name` in Chromium). */
  cacheId: string;
  /** The name the page gave it (`caches.open(name)`). */
  cacheName: string;
}

/** One entry of a cache, without its body. */
export interface CacheEntry {
  /** The request URL (absolute, no fragment). */
  url: string;
  /** The request method (the Cache API stores `GET` only). */
  method: string;
  /** HTTP status of the stored response. */
  status: number;
  /** Response headers, names as stored (lower case for responses built in script). */
  headers: Record<string, string>;
  /** The stored request's headers (needed to read a response whose `Vary` names them). */
  requestHeaders: Protocol.CacheStorage.Header[];
}

/** Entries fetched per `CacheStorage.requestEntries` call. */
const PAGE_SIZE = 200;

/**
 * The caches of a storage key, in the order Chromium reports them.
 * CDP: `CacheStorage.requestCacheNames`.
 *
 * @param session The tab's CDP session.
 * @param storageKey From `frameStorageKey` (e.g. `"http://127.0.0.1:8080/"`).
 */
export async function listCaches(session: CdpSession, storageKey: string): Promise<CacheRef[]> {
  const { caches } = await session.send("CacheStorage.requestCacheNames", { storageKey });
  return caches.map((c) => ({ cacheId: c.cacheId, cacheName: c.cacheName }));
}

function toEntry(e: Protocol.CacheStorage.DataEntry): CacheEntry {
  const headers: Record<string, string> = {};
  for (const h of e.responseHeaders) {
    headers[h.name] = h.name in headers ? `${headers[h.name]}, ${h.value}` : h.value;
  }
  return {
    url: e.requestURL,
    method: e.requestMethod,
    status: e.responseStatus,
    headers,
    requestHeaders: e.requestHeaders,
  };
}

/**
 * Entries of a cache whose request URL contains `urlPattern` (a
 * case-sensitive substring; all entries when absent), at most `limit` of them.
 * CDP: `CacheStorage.requestEntries`, paged.
 *
 * @returns `entries` (at most `limit`) and `total`, the number of matches.
 * @throws ProtocolError `Invalid cache id` when the cache was deleted meanwhile.
 */
export async function listCacheEntries(
  session: CdpSession,
  cacheId: string,
  options: {
    urlPattern?: string | undefined;
    limit: number;
    /** The URL as the caller shows it (e.g. secrets masked): what `urlPattern` is looked for in. */
    urlView?: (url: string) => string;
  },
): Promise<{ entries: CacheEntry[]; total: number }> {
  const entries: CacheEntry[] = [];
  let total = 0;
  const view = options.urlView ?? ((u: string) => u);
  await scanEntries(session, cacheId, undefined, (e) => {
    if (options.urlPattern !== undefined && !view(e.requestURL).includes(options.urlPattern)) {
      return;
    }
    total++;
    if (entries.length < options.limit) entries.push(toEntry(e));
  });
  return { entries, total };
}

/** Calls `visit` for every entry (narrowed by CDP's path filter), page by page. */
async function scanEntries(
  session: CdpSession,
  cacheId: string,
  pathFilter: string | undefined,
  visit: (e: Protocol.CacheStorage.DataEntry) => boolean | void,
): Promise<void> {
  for (let skip = 0;; skip += PAGE_SIZE) {
    const r = await session.send("CacheStorage.requestEntries", {
      cacheId,
      skipCount: skip,
      pageSize: PAGE_SIZE,
      ...(pathFilter ? { pathFilter } : {}),
    });
    for (const e of r.cacheDataEntries) if (visit(e) === true) return;
    if (r.cacheDataEntries.length < PAGE_SIZE) return;
  }
}

/**
 * The entry of a cache stored for exactly `url` (absolute, compared as
 * stored), or undefined. CDP: `CacheStorage.requestEntries` with the URL's
 * path as `pathFilter`.
 */
export async function findCacheEntry(
  session: CdpSession,
  cacheId: string,
  url: string,
): Promise<CacheEntry | undefined> {
  let found: CacheEntry | undefined;
  await scanEntries(session, cacheId, new URL(url).pathname, (e) => {
    if (e.requestURL !== url) return false;
    found = toEntry(e);
    return true;
  });
  return found;
}

/**
 * The body of a cached response, base64. CDP: `CacheStorage.requestCachedResponse`.
 *
 * @returns undefined when the entry went away meanwhile.
 */
export async function readCachedBody(
  session: CdpSession,
  cacheId: string,
  entry: CacheEntry,
): Promise<string | undefined> {
  try {
    const r = await session.send("CacheStorage.requestCachedResponse", {
      cacheId,
      requestURL: entry.url,
      requestHeaders: entry.requestHeaders,
    });
    return r.response.body;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * Deletes the entries stored for `url`. CDP: `CacheStorage.deleteEntry`.
 *
 * @returns false when there was none.
 */
export async function deleteCacheEntry(
  session: CdpSession,
  cacheId: string,
  url: string,
): Promise<boolean> {
  try {
    await session.send("CacheStorage.deleteEntry", { cacheId, request: url });
    return true;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

/**
 * Deletes every entry of a cache, which stays (empty).
 * CDP: `CacheStorage.requestEntries`, then `CacheStorage.deleteEntry` per URL.
 *
 * @returns How many entries were deleted.
 */
export async function clearCache(session: CdpSession, cacheId: string): Promise<number> {
  const urls = new Set<string>();
  await scanEntries(session, cacheId, undefined, (e) => void urls.add(e.requestURL));
  let cleared = 0;
  for (const url of urls) if (await deleteCacheEntry(session, cacheId, url)) cleared++;
  return cleared;
}

/** Deletes a whole cache. CDP: `CacheStorage.deleteCache`. */
export async function deleteCache(session: CdpSession, cacheId: string): Promise<void> {
  await session.send("CacheStorage.deleteCache", { cacheId });
}

function isNotFound(e: unknown): boolean {
  return e instanceof ProtocolError && /not found|Invalid cache id/i.test(e.originalMessage);
}

/** A response to store with {@link putCacheEntry}. */
export interface CachePut {
  cacheName: string;
  /** Absolute http(s) request URL. */
  url: string;
  /** HTTP status, 200–599. */
  status: number;
  headers: Record<string, string>;
  /** UTF-8 text body (a `text/plain;charset=UTF-8` type unless headers say otherwise). */
  text?: string | undefined;
  /** Binary body, base64 (exclusive with `text`; neither: empty body). */
  base64?: string | undefined;
}

/** Thrown by {@link putCacheEntry} when the page's origin has no Cache API (not a secure context). */
export class CacheUnavailableError extends Error {
  constructor(origin: string) {
    super(
      `The Cache API is not available on ${origin} (it needs a secure context: https or localhost)`,
    );
    this.name = "CacheUnavailableError";
  }
}

/**
 * Stores a response in a named cache of the page's origin, creating the cache
 * when missing: `caches.open(name)` then `cache.put(url, new Response(…))`,
 * run in browxai's isolated world (its own `Response`, `atob`, `caches`: the
 * page's scripts cannot see or patch them). CDP: `Runtime.callFunctionOn`.
 *
 * @throws CacheUnavailableError when the origin has no `caches`;
 *   EvaluationError with the DOMException/TypeError text when the Cache API
 *   refuses (a bad header name, a body on a null-body status, quota).
 */
export async function putCacheEntry(page: Page, put: CachePut): Promise<void> {
  const r = await page.call<{ ok: boolean }>(
    async (
      cacheName: string,
      url: string,
      status: number,
      headers: Record<string, string>,
      text: string | null,
      base64: string | null,
    ) => {
      if (typeof caches === "undefined") return { ok: false };
      let body: BodyInit | null = text;
      if (base64 !== null) {
        const bin = atob(base64);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        body = bytes;
      }
      // Statuses that carry no body refuse even an empty one.
      if ([101, 103, 204, 205, 304].includes(status) && !text && !base64) body = null;
      const cache = await caches.open(cacheName);
      await cache.put(url, new Response(body, { status, headers }));
      return { ok: true };
    },
    [put.cacheName, put.url, put.status, put.headers, put.text ?? null, put.base64 ?? null],
  );
  if (!r.ok) throw new CacheUnavailableError(new URL(put.url).origin);
}

/**
 * True for content types whose bodies are text: `text/*`,
 * `application/json|javascript|xml|x-www-form-urlencoded`, `+json` / `+xml`
 * types, and anything that names a `charset=`.
 */
export function isTextContentType(contentType: string): boolean {
  const t = contentType.toLowerCase().trim();
  return t.startsWith("text/") ||
    /^application\/(json|javascript|xml|x-www-form-urlencoded)\s*(;|$)/.test(t) ||
    /^[\w.+-]+\/[\w.-]+\+(json|xml)\s*(;|$)/.test(t) ||
    /;\s*charset=/.test(t);
}

/**
 * Decodes a text body by the content type's `charset` (UTF-8 when absent or
 * unknown); invalid bytes become U+FFFD.
 */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  const label = /;\s*charset="?([\w.:-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(label ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/** Decodes standard base64 to bytes. @throws DOMException on invalid base64. */
export function fromBase64(base64: string): Uint8Array {
  const bin = atob(base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Encodes bytes as standard base64. */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}
