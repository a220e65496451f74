/**
 * `idb_clear`: deletes every record of a store. Each record is keyed by (dbName, storeName, key);
 * no tool creates or upgrades a database or a store (that is the app's schema). The CDP work is in
 * `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { clearStore } from "../../storage/indexed_db.ts";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { dbNameField, requireStore, storeNameField, write } from "./idb_fields.ts";

/** The `idb_clear` tool. */
export const idbClearTool = defineTool({
  name: "idb_clear",
  title: "Clear IndexedDB store",
  description: "Delete every record of a store.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    cleared: z.number(),
    dbName: z.string(),
    storeName: z.string(),
    origin: z.string(),
  }),
  inputSchema: z.object({ dbName: dbNameField, storeName: storeNameField, session: sessionField }),
  async handler(ctx, args) {
    return await write(ctx, "idb_clear", args.session, async (s) => {
      await requireStore(s, args);
      const cleared = await clearStore(s.page.session, s.storageKey, args);
      const { dbName, storeName } = args;
      return { structured: { ok: true, cleared, dbName, storeName, origin: s.origin } };
    });
  },
});
