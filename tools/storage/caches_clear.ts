/**
 * `caches_clear`: deletes every entry of a cache of the active tab's origin. Each entry is keyed by
 * (cacheName, url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import { clearCache } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { cacheNameField, requireCache, write } from "./cache_fields.ts";

/** The `caches_clear` tool. */
export const cachesClearTool = defineTool({
  name: "caches_clear",
  title: "Clear cache",
  description: "Delete every entry of a cache.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ cleared: z.number(), cacheName: z.string(), origin: z.string() }),
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
