/**
 * `idb_list_stores`: a database's object stores and how many records each holds, without
 * upgrading it. Each record is keyed by (dbName, storeName, key); no tool creates or upgrades a
 * database or a store (that is the app's schema). The CDP work is in `storage/indexed_db.ts` and
 * `storage/indexed_db_list.ts`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { countRecords } from "../../storage/indexed_db_list.ts";
import { dbNameField, requireDb, scope } from "./idb_fields.ts";

/** The `idb_list_stores` tool. */
export const idbListStoresTool = defineTool({
  name: "idb_list_stores",
  title: "List IndexedDB stores",
  description: "List a database's object stores and record counts without upgrading it.",
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
    stores: objectList,
    dbName: z.string(),
    version: z.number(),
    origin: z.string(),
  }),
  inputSchema: z.object({ dbName: dbNameField, session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "idb_list_stores", args.session);
    const db = await requireDb(s, args.dbName);
    const stores = await Promise.all(db.stores.map(async (st) => ({
      ...st,
      records: await countRecords(s.page.session, s.storageKey, {
        dbName: db.name,
        storeName: st.name,
      }),
    })));
    return {
      structured: {
        count: db.stores.length,
        stores,
        dbName: db.name,
        version: db.version,
        origin: s.origin,
      },
    };
  },
});
