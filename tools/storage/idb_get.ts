/**
 * `idb_get`: a record's value as JSON. Each record is keyed by (dbName, storeName, key); no tool
 * creates or upgrades a database or a store (that is the app's schema). The CDP work is in
 * `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { getRecord, NonJsonValueError } from "../../storage/indexed_db.ts";
import { defineTool } from "../define_tool.ts";
import { anyValue, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import {
  checkKey,
  dbNameField,
  keyField,
  requireStore,
  scope,
  storeNameField,
} from "./idb_fields.ts";

/** The `idb_get` tool. */
export const idbGetTool = defineTool({
  name: "idb_get",
  title: "Get IndexedDB record",
  description: "Read a record's value as JSON.",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    found: z.boolean(),
    value: anyValue,
    valueType: z.string(),
    path: z.string(),
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
    const s = await scope(ctx, "idb_get", args.session);
    await requireStore(s, args);
    const where = { dbName: args.dbName, storeName: args.storeName, key, origin: s.origin };
    try {
      const r = await getRecord(s.page.session, s.storageKey, { ...args, key });
      return { structured: { ...r, ...where } };
    } catch (e) {
      if (!(e instanceof NonJsonValueError)) throw e;
      throw new ToolError(
        "not-json",
        `The record exists but its value cannot be returned as JSON: ${e.message}`,
        "the value stays untouched in the store; read it through the app (or eval_js), " +
          "or store JSON (binary as base64) if you control the app",
        { found: true, path: e.path, valueType: e.valueType, ...where },
      );
    }
  },
});
