/**
 * `caches_delete_storage`: deletes a whole cache of the active tab's origin. Each entry is keyed by
 * (cacheName, url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import { deleteCache } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, findCache, write } from "./cache_fields.ts";

/** The `caches_delete_storage` tool. */
export const cachesDeleteStorageTool = defineTool({
  name: "caches_delete_storage",
  title: "Delete cache",
  description: "Delete a whole cache.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ existed: z.boolean(), cacheName: z.string(), origin: z.string() }),
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
