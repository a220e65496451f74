/**
 * What the IndexedDB tools (`idb_list_databases`, `idb_list_stores`, `idb_get`, `idb_put`,
 * `idb_delete`, `idb_clear`) share: their fields, the active tab's origin scope, key checks and
 * database and store look-ups. Reads need `read`, writes `action`; toolset `storage`.
 *
 * @module
 */
import { z } from "zod";
import {
  describeDatabase,
  type IdbDatabase,
  type IdbKey,
  InvalidKeyError,
  listDatabaseNames,
  toCdpKey,
} from "../../storage/indexed_db.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { originAccess, type OriginScope } from "../../browser/storage/origin_scope.ts";

/** The database name field. */
export const dbNameField = z.string().describe("DB name");

/** The object store name field. */
export const storeNameField = z.string().describe("Store name");

/** The record key field ("Key" restates its name, so tools/list drops it; the types say it). */
export const keyField = z.union([z.string(), z.number(), z.array(z.unknown())]).describe("Key");

/** The active tab's origin for IndexedDB: `scope` to read, `write` to change it. */
export const { scope, write } = originAccess("IndexedDB");

/** Checks a key argument; @throws ToolError invalid-argument. */
export function checkKey(key: unknown, field = "key"): IdbKey {
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
export async function requireDb(s: OriginScope, dbName: string): Promise<IdbDatabase> {
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
export async function requireStore(
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
