/**
 * `idb_list_databases`: the IndexedDB databases of the active tab's origin. Each record is keyed by
 * (dbName, storeName, key); no tool creates or upgrades a database or a store (that is the app's
 * schema). The CDP work is in `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { isMethodNotFound } from "../../storage/origin_key.ts";
import { describeDatabase, listDatabaseNames } from "../../storage/indexed_db.ts";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { scope } from "./idb_fields.ts";

/** The `idb_list_databases` tool. */
export const idbListDatabasesTool = defineTool({
  name: "idb_list_databases",
  title: "List IndexedDB databases",
  description: "List the IndexedDB databases of the active tab's origin.",
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
    databases: objectList,
    origin: z.string(),
    supported: z.boolean(),
  }),
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "idb_list_databases", args.session);
    let names: string[];
    try {
      names = await listDatabaseNames(s.page.session, s.storageKey);
    } catch (e) {
      if (!isMethodNotFound(e)) throw e;
      return { structured: { count: 0, databases: [], origin: s.origin, supported: false } };
    }
    const databases = [];
    for (const name of names) {
      const db = await describeDatabase(s.page.session, s.storageKey, name);
      // Deleted meanwhile: not listed.
      // Named as the other idb_* tools take it (dbName).
      if (db) databases.push({ dbName: name, version: db.version });
    }
    return {
      structured: { count: databases.length, databases, origin: s.origin, supported: true },
    };
  },
});
