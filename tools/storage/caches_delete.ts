/**
 * `caches_delete`: deletes a cache entry of the active tab's origin. Each entry is keyed by
 * (cacheName, url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import { deleteCacheEntry } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, findCache, requestUrl, urlField, write } from "./cache_fields.ts";

/** The `caches_delete` tool. */
export const cachesDeleteTool = defineTool({
  name: "caches_delete",
  title: "Delete cache entry",
  description: "Delete a cache entry by URL.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    existed: z.boolean(),
    cacheName: z.string(),
    url: z.string(),
    origin: z.string(),
  }),
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
