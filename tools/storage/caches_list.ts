/**
 * `caches_list`: the entries of a cache of the active tab's origin. Each entry is keyed by
 * (cacheName, url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { maskedForAgent } from "../../browser/secret_scope.ts";
import { z } from "zod";
import { listCacheEntries } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, requireCache, scope } from "./cache_fields.ts";

/** Most entries `caches_list` returns (`truncated` and `total` say when there are more). */
export const MAX_LISTED_ENTRIES = 1000;

/** The `caches_list` tool. */
export const cachesListTool = defineTool({
  name: "caches_list",
  title: "List cache entries",
  description: "List a cache's entries (url, method).",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    count: z.number(),
    entries: objectList,
    origin: z.string(),
    cacheName: z.string(),
    truncated: z.boolean(),
    total: z.number(),
  }),
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
