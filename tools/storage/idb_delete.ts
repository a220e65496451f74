/**
 * `idb_delete`: deletes a record by key. Each record is keyed by (dbName, storeName, key); no tool
 * creates or upgrades a database or a store (that is the app's schema). The CDP work is in
 * `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { deleteRecord } from "../../storage/indexed_db.ts";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import {
  checkKey,
  dbNameField,
  keyField,
  requireStore,
  storeNameField,
  write,
} from "./idb_fields.ts";

/** The `idb_delete` tool. */
export const idbDeleteTool = defineTool({
  name: "idb_delete",
  title: "Delete IndexedDB record",
  description: "Delete a record by key.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    dbName: z.string(),
    storeName: z.string(),
    key: anyValue,
    origin: z.string(),
  }),
  inputSchema: z.object({
    dbName: dbNameField,
    storeName: storeNameField,
    key: keyField,
    session: sessionField,
  }),
  async handler(ctx, args) {
    const key = checkKey(args.key);
    return await write(ctx, "idb_delete", args.session, async (s) => {
      await requireStore(s, args);
      await deleteRecord(s.page.session, s.storageKey, { ...args, key });
      const { dbName, storeName } = args;
      return { structured: { ok: true, dbName, storeName, key, origin: s.origin } };
    });
  },
});
