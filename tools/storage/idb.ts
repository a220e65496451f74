/**
 * `idb_list_databases`, `idb_list_stores`, `idb_get`, `idb_put`,
 * `idb_delete`, `idb_clear`: IndexedDB of the active tab's origin. Each
 * record is keyed by (dbName, storeName, key). No tool creates or upgrades a
 * database or a store (that is the app's schema). Reads need `read`, writes
 * `action`; toolset `storage`. The CDP work is in `storage/indexed_db.ts`.
 *
 * @module
 */
import { z } from "zod";
import { isMethodNotFound } from "../../storage/origin_key.ts";
import {
  clearStore,
  deleteRecord,
  describeDatabase,
  getRecord,
  type IdbDatabase,
  type IdbKey,
  IdbWriteError,
  InvalidKeyError,
  listDatabaseNames,
  NonJsonValueError,
  putRecord,
  toCdpKey,
} from "../../storage/indexed_db.ts";
import { defineTool } from "../define_tool.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { originAccess, type OriginScope } from "../../browser/storage/origin_scope.ts";

const dbNameField = z.string().describe("Database name");
const storeNameField = z.string().describe("Store name");
const keyField = z.any().describe("Key: string, number or array");

const { scope, write } = originAccess("IndexedDB");

/** Checks a key argument; @throws ToolError invalid-argument. */
function checkKey(key: unknown, field = "key"): IdbKey {
  try {
    toCdpKey(key);
    return key as IdbKey;
  } catch (e) {
    if (!(e instanceof InvalidKeyError)) throw e;
    throw new ToolError(
      "invalid-argument",
      `Invalid "${field}": ${key === undefined ? "required" : e.message}`,
      "pass a string, a number or an array of those (idb_list_stores shows key paths)",
    );
  }
}

/** The database; @throws ToolError not-found naming the origin's databases. */
async function requireDb(s: OriginScope, dbName: string): Promise<IdbDatabase> {
  const db = await describeDatabase(s.page.session, s.storageKey, dbName);
  if (db) return db;
  const names = await listDatabaseNames(s.page.session, s.storageKey);
  throw new ToolError(
    "not-found",
    `No IndexedDB database "${dbName}" on ${s.origin}`,
    names.length
      ? `use one of: ${names.map((n) => `"${n}"`).join(", ")}`
      : "this origin has no databases (the app creates them)",
    { origin: s.origin },
  );
}

/** The database and store; @throws ToolError not-found naming the stores. */
async function requireStore(
  s: OriginScope,
  args: { dbName: string; storeName: string },
  /** The writing tool, which refuses (rather than fails) to write to a missing store. */
  refusing?: string,
): Promise<IdbDatabase> {
  const db = await requireDb(s, args.dbName);
  if (db.stores.some((st) => st.name === args.storeName)) return db;
  const names = db.stores.map((st) => `"${st.name}"`).join(", ") || "none";
  throw new ToolError(
    "not-found",
    `${refusing ? `Refused "${refusing}": no` : "No"} object store "${args.storeName}" in ` +
      `database "${args.dbName}" (stores: ${names})`,
    refusing
      ? "idb_put never creates stores (that needs a version upgrade: the app's schema); " +
        "write to an existing store (idb_list_stores)"
      : "use an existing store (idb_list_stores)",
    { origin: s.origin },
  );
}

/** The `idb_list_databases` tool. */
export const idbListDatabasesTool = defineTool({
  name: "idb_list_databases",
  title: "List databases",
  description: "List the IndexedDB databases of the active tab's origin.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
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
      if (db) databases.push({ name, version: db.version });
    }
    return {
      structured: { count: databases.length, databases, origin: s.origin, supported: true },
    };
  },
});

/** The `idb_list_stores` tool. */
export const idbListStoresTool = defineTool({
  name: "idb_list_stores",
  title: "List object stores",
  description: "List a database's object stores without upgrading it.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({ dbName: dbNameField, session: sessionField }),
  async handler(ctx, args) {
    const s = await scope(ctx, "idb_list_stores", args.session);
    const db = await requireDb(s, args.dbName);
    return {
      structured: {
        count: db.stores.length,
        stores: db.stores,
        dbName: db.name,
        version: db.version,
        origin: s.origin,
      },
    };
  },
});

/** The `idb_get` tool. */
export const idbGetTool = defineTool({
  name: "idb_get",
  title: "Get record",
  description: "Read a record's value as JSON.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
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

/** The `idb_put` tool. */
export const idbPutTool = defineTool({
  name: "idb_put",
  title: "Put record",
  description: "Write a record to an existing store; an in-line keyPath overrides key.",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({
    dbName: dbNameField,
    storeName: storeNameField,
    key: keyField.optional(),
    value: z.any().describe("JSON value"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const key = args.key === undefined ? undefined : checkKey(args.key);
    return await write(ctx, "idb_put", args.session, async (s) => {
      await requireStore(s, args, "idb_put");
      let put;
      try {
        put = await putRecord(s.page, { ...args, key, value: args.value });
      } catch (e) {
        if (!(e instanceof IdbWriteError)) throw e;
        throw new ToolError(
          "invalid-argument",
          `IndexedDB refused the record: ${e.message}`,
          "an in-line keyPath must be in the value; an out-of-line store without a key " +
            "generator needs key (idb_list_stores shows which)",
        );
      }
      if (!put) {
        throw new ToolError(
          "not-found",
          `Refused: database "${args.dbName}" or its store "${args.storeName}" went away`,
          "check with idb_list_stores, then call again",
        );
      }
      return {
        structured: {
          ok: true,
          dbName: args.dbName,
          storeName: args.storeName,
          ...put,
          origin: s.origin,
        },
      };
    });
  },
});

/** The `idb_delete` tool. */
export const idbDeleteTool = defineTool({
  name: "idb_delete",
  title: "Delete record",
  description: "Delete a record by key.",
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: true },
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

/** The `idb_clear` tool. */
export const idbClearTool = defineTool({
  name: "idb_clear",
  title: "Clear object store",
  description: "Delete every record of a store.",
  capability: "action",
  toolset: "storage",
  annotations: { destructiveHint: true },
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
