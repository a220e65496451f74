/**
 * `caches_list_storages`: the caches of the active tab's origin. Each entry is keyed by (cacheName,
 * url); the CDP work is in `storage/cache_storage.ts`.
 *
 * @module
 */
import { z } from "zod";
import { listCaches } from "../../storage/cache_storage.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { scope } from "./cache_fields.ts";

/** The `caches_list_storages` tool. */
export const cachesListStoragesTool = defineTool({
  name: "caches_list_storages",
  title: "List Cache Storage caches",
  description: "List the caches of the active tab's origin.",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), names: z.array(z.string()), origin: z.string() }),
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "caches_list_storages", args.session);
    const names = (await listCaches(s.page.session, s.storageKey)).map((c) => c.cacheName);
    return { structured: { count: names.length, names, origin: s.origin } };
  },
});
