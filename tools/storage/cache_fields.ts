/**
 * What the Cache API tools (`caches_list_storages`, `caches_list`, `caches_get`, `caches_put`,
 * `caches_delete`, `caches_clear`, `caches_delete_storage`) share: their fields, the active tab's
 * origin scope (`window.caches`, which Service Workers fill), request URLs and cache look-ups.
 * Reads need `read` (a response body also `network-body`), writes `action`; toolset `storage`.
 *
 * @module
 */
import { z } from "zod";
import { listCaches } from "../../storage/cache_storage.ts";
import type { CacheRef } from "../../storage/cache_storage.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { originAccess, type OriginScope } from "../../browser/storage/origin_scope.ts";

/** The cache name field. */
export const cacheNameField = z.string().describe("Cache name");

/** The request URL field. */
export const urlField = z.string().describe("Request URL");

/** The active tab's origin for the Cache API: `scope` to read, `write` to change it. */
export const { scope, write } = originAccess("Cache API");

/**
 * The absolute request URL an argument names: resolved against the page,
 * fragment dropped (the Cache API ignores it).
 *
 * @throws ToolError invalid-argument when it is not an http(s) URL.
 */
export function requestUrl(url: string, pageUrl: string): string {
  let parsed: URL | undefined;
  try {
    if (url.trim()) parsed = new URL(url, pageUrl);
  } catch { /* below */ }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new ToolError(
      "invalid-argument",
      `Invalid "url": "${url}" is not an http(s) URL`,
      "pass an absolute http(s) URL or a path on the page's origin (e.g. /app.js)",
    );
  }
  parsed.hash = "";
  return parsed.href;
}

/** The named cache, or undefined. */
export async function findCache(s: OriginScope, cacheName: string): Promise<CacheRef | undefined> {
  return (await listCaches(s.page.session, s.storageKey)).find((c) => c.cacheName === cacheName);
}

/** The named cache; @throws ToolError not-found naming the origin's caches. */
export async function requireCache(s: OriginScope, cacheName: string): Promise<CacheRef> {
  const all = await listCaches(s.page.session, s.storageKey);
  const cache = all.find((c) => c.cacheName === cacheName);
  if (cache) return cache;
  const names = all.map((c) => `"${c.cacheName}"`).join(", ");
  throw new ToolError(
    "not-found",
    `No cache "${cacheName}" on ${s.origin}`,
    names ? `use one of: ${names}` : "this origin has no caches (caches_put creates one)",
    { origin: s.origin },
  );
}
