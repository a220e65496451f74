/**
 * `caches_list_storages`, `caches_list`, `caches_get`, `caches_put`,
 * `caches_delete`, `caches_clear`, `caches_delete_storage`: the Cache API
 * (`window.caches`, which Service Workers fill) of the active tab's origin.
 * Each entry is keyed by (cacheName, url). Reads need `read` (a response
 * body also `network-body`), writes `action`; toolset `storage`. The CDP
 * work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { z } from "zod";
import { EvaluationError } from "../../cdp/page.ts";
import {
  CacheUnavailableError,
  clearCache,
  decodeText,
  deleteCache,
  deleteCacheEntry,
  findCacheEntry,
  fromBase64,
  isTextContentType,
  listCacheEntries,
  listCaches,
  putCacheEntry,
  readCachedBody,
  toBase64,
} from "../../storage/cache_storage.ts";
import type { CacheRef } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { originAccess, type OriginScope } from "../../browser/storage/origin_scope.ts";

/** Most entries `caches_list` returns (`truncated` and `total` say when there are more). */
export const MAX_LISTED_ENTRIES = 1000;
/** Most body bytes `caches_get` returns (`truncated` says when the body is longer). */
export const MAX_BODY_BYTES = 512 * 1024;

const cacheNameField = z.string().describe("Cache name");
const urlField = z.string().describe("Request URL");

const { scope, write } = originAccess("Cache API");

/**
 * The absolute request URL an argument names: resolved against the page,
 * fragment dropped (the Cache API ignores it).
 *
 * @throws ToolError invalid-argument when it is not an http(s) URL.
 */
function requestUrl(url: string, pageUrl: string): string {
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
async function findCache(s: OriginScope, cacheName: string): Promise<CacheRef | undefined> {
  return (await listCaches(s.page.session, s.storageKey)).find((c) => c.cacheName === cacheName);
}

/** The named cache; @throws ToolError not-found naming the origin's caches. */
async function requireCache(s: OriginScope, cacheName: string): Promise<CacheRef> {
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

/** The `caches_list_storages` tool. */
export const cachesListStoragesTool = defineTool({
  name: "caches_list_storages",
  title: "List caches",
  description: "List the caches of the active tab's origin.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "caches_list_storages", args.session);
    const names = (await listCaches(s.page.session, s.storageKey)).map((c) => c.cacheName);
    return { structured: { count: names.length, names, origin: s.origin } };
  },
});

/** The `caches_list` tool. */
export const cachesListTool = defineTool({
  name: "caches_list",
  title: "List cache entries",
  description: "List a cache's entries (url, method).",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    cacheName: cacheNameField,
    urlPattern: z.string().optional().describe("URL substring filter"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const s = await scope(ctx, "caches_list", args.session);
    const cache = await requireCache(s, args.cacheName);
    const { entries, total } = await listCacheEntries(s.page.session, cache.cacheId, {
      urlPattern: args.urlPattern,
      limit: MAX_LISTED_ENTRIES,
      // The filter sees URLs as the agent reads them (masked): no oracle on secret values.
      urlView: maskedForAgent,
    });
    return {
      structured: {
        count: entries.length,
        entries: entries.map((e) => ({ url: e.url, method: e.method })),
        origin: s.origin,
        cacheName: args.cacheName,
        ...(total > entries.length ? { truncated: true, total } : {}),
      },
    };
  },
});

/** The `caches_get` tool. */
export const cachesGetTool = defineTool({
  name: "caches_get",
  title: "Get cache entry",
  description: "Read a cached response (its body needs network-body).",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({ cacheName: cacheNameField, url: urlField, session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "caches_get", args.session);
    const url = requestUrl(args.url, s.page.url);
    const where = { cacheName: args.cacheName, url, origin: s.origin };
    const cache = await requireCache(s, args.cacheName);
    const entry = await findCacheEntry(s.page.session, cache.cacheId, url);
    const base64 = entry && await readCachedBody(s.page.session, cache.cacheId, entry);
    if (!entry || base64 === undefined) return { structured: { found: false, ...where } };
    const bytes = fromBase64(base64);
    const contentType = Object.entries(entry.headers)
      .find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
    const kind = isTextContentType(contentType) ? "text" : "binary";
    const result: Record<string, unknown> = {
      found: true,
      kind,
      contentType,
      status: entry.status,
      headers: entry.headers,
      byteLength: bytes.length,
      ...where,
    };
    if (!ctx.config.capabilities.has("network-body")) {
      return {
        structured: {
          ...result,
          bodyOmitted: true,
          requiredCapability: "network-body",
          hint: "response bodies need the network-body capability: the operator can add it " +
            "to BROWX_CAPABILITIES",
        },
      };
    }
    const truncated = bytes.length > MAX_BODY_BYTES;
    const body = truncated ? bytes.subarray(0, MAX_BODY_BYTES) : bytes;
    const field = kind === "text" ? "text" : "contentBase64";
    result[field] = kind === "text"
      ? decodeText(body, contentType)
      : truncated
      ? toBase64(body)
      : base64;
    if (truncated) result.truncated = true;
    // Raw after the JSON: no escaping, and not cut at the per-field cap.
    return { structured: result, rawTextKeys: [field] };
  },
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The `caches_put` tool. */
export const cachesPutTool = defineTool({
  name: "caches_put",
  title: "Put cache entry",
  description:
    "Store a response in a cache (created if missing); one call's message at most 96 MiB.",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({
    cacheName: cacheNameField,
    url: urlField,
    response: z.strictObject({
      status: z.number().int().optional().describe("Status (default 200)"),
      headers: z.object({}).catchall(z.string()).optional().describe("Response headers"),
      body: z.string().optional().describe("UTF-8 text body"),
      contentBase64: z.string().optional().describe("Binary body as base64"),
    }).describe("Response"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const { body, contentBase64 } = args.response;
    if (body !== undefined && contentBase64 !== undefined) {
      throw new ToolError(
        "invalid-argument",
        'Invalid "response": pass body or contentBase64, not both',
        "text goes in body; binary bytes, base64-encoded, in contentBase64",
      );
    }
    if (contentBase64 !== undefined && !BASE64.test(contentBase64)) {
      throw new ToolError(
        "invalid-argument",
        'Invalid "response.contentBase64": not standard base64',
        "encode the bytes as standard base64 (A-Z a-z 0-9 + /, = padding, no line breaks)",
      );
    }
    const status = args.response.status ?? 200;
    if (status < 200 || status > 599) {
      throw new ToolError(
        "invalid-argument",
        `Invalid "response.status": ${status} is out of range`,
        "a stored response's status is 200 to 599 (default 200)",
      );
    }
    let put: { url: string; origin: string };
    try {
      put = await write(ctx, "caches_put", args.session, async (s) => {
        const url = requestUrl(args.url, s.page.url);
        await putCacheEntry(s.page, {
          cacheName: args.cacheName,
          url,
          status,
          headers: args.response.headers ?? {},
          text: body,
          base64: contentBase64,
        });
        return { url, origin: s.origin };
      });
    } catch (e) {
      if (e instanceof CacheUnavailableError) {
        throw new ToolError("refused", e.message, "use an https page (or localhost) of the site");
      }
      if (e instanceof EvaluationError) {
        throw new ToolError(
          "invalid-argument",
          `The Cache API refused the response: ${e.message}`,
          "fix the response (header names, a body on a no-body status like 204) and call again",
        );
      }
      throw e;
    }
    const byteLength = contentBase64 !== undefined
      ? fromBase64(contentBase64).length
      : new TextEncoder().encode(body ?? "").length;
    return {
      structured: { ok: true, cacheName: args.cacheName, ...put, status, byteLength },
    };
  },
});

/** The `caches_delete` tool. */
export const cachesDeleteTool = defineTool({
  name: "caches_delete",
  title: "Delete cache entry",
  description: "Delete a cache entry by URL.",
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: true },
  inputSchema: z.object({ cacheName: cacheNameField, url: urlField, session: sessionField }),
  async handler(ctx, args) {
    return await write(ctx, "caches_delete", args.session, async (s) => {
      const url = requestUrl(args.url, s.page.url);
      const cache = await findCache(s, args.cacheName);
      const existed = cache ? await deleteCacheEntry(s.page.session, cache.cacheId, url) : false;
      return {
        structured: { ok: true, existed, cacheName: args.cacheName, url, origin: s.origin },
      };
    });
  },
});

/** The `caches_clear` tool. */
export const cachesClearTool = defineTool({
  name: "caches_clear",
  title: "Clear cache",
  description: "Delete every entry of a cache.",
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: true },
  inputSchema: z.object({ cacheName: cacheNameField, session: sessionField }),
  async handler(ctx, args) {
    return await write(ctx, "caches_clear", args.session, async (s) => {
      const cleared = await clearCache(
        s.page.session,
        (await requireCache(s, args.cacheName)).cacheId,
      );
      return { structured: { ok: true, cleared, cacheName: args.cacheName, origin: s.origin } };
    });
  },
});

/** The `caches_delete_storage` tool. */
export const cachesDeleteStorageTool = defineTool({
  name: "caches_delete_storage",
  title: "Delete cache",
  description: "Delete a whole cache.",
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: true },
  inputSchema: z.object({ cacheName: cacheNameField, session: sessionField }),
  async handler(ctx, args) {
    return await write(ctx, "caches_delete_storage", args.session, async (s) => {
      const cache = await findCache(s, args.cacheName);
      if (cache) await deleteCache(s.page.session, cache.cacheId);
      const existed = cache !== undefined;
      return { structured: { ok: true, existed, cacheName: args.cacheName, origin: s.origin } };
    });
  },
});
