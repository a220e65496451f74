/// <reference lib="dom" />
/**
 * IndexedDB of one origin for the `idb_*` tools: reads, deletes and clears
 * over CDP's IndexedDB domain (which opens databases without a version and
 * aborts any upgrade, so it never creates or changes a schema); writes, which
 * CDP does not offer, are in `indexed_db_put.ts`.
 *
 * Values come back as JSON. IndexedDB stores structured-clonable values
 * (Date, Blob, Map, typed arrays, cycles, …): what JSON cannot carry is shown
 * by a marker (`{"$date": "…"}`, see `deepToMarkedJson`) and its place listed,
 * never silently changed.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import { ProtocolError } from "../cdp/errors.ts";
import type { Protocol } from "../cdp/types.ts";
import { deepToMarkedJson, type MarkedPlace, NonJsonValueError } from "./deep_json.ts";

export { type MarkedPlace, NonJsonValueError };

/** A key as JSON carries it: a string, a number, or an array of keys. */
export type IdbKey = string | number | IdbKey[];

/** One object store of a database. */
export interface IdbStore {
  name: string;
  /** In-line key path (`"id"`, `["a","b"]`), or null for out-of-line keys. */
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  /** Names of its indexes. */
  indexes: string[];
}

/** A database and its object stores. */
export interface IdbDatabase {
  name: string;
  version: number;
  stores: IdbStore[];
}

/** Where a record lives: database, object store. */
export interface IdbStoreRef {
  dbName: string;
  storeName: string;
}

/** A key that is not a valid IndexedDB key (NaN, an object, a boolean, …). */
export class InvalidKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidKeyError";
  }
}

/** A write the IndexedDB API refused (e.g. `DataError: …` for a missing key). */
export class IdbWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IdbWriteError";
  }
}

/**
 * Converts a JSON key to CDP's key shape.
 *
 * @throws InvalidKeyError for anything but finite numbers, strings and arrays of keys.
 */
export function toCdpKey(key: unknown): Protocol.IndexedDB.Key {
  if (typeof key === "string") return { type: "string", string: key };
  if (typeof key === "number") {
    if (Number.isNaN(key)) throw new InvalidKeyError("NaN is not a valid key");
    return { type: "number", number: key };
  }
  if (Array.isArray(key)) return { type: "array", array: key.map(toCdpKey) };
  throw new InvalidKeyError(
    `a key is a string, a number or an array of keys, not ${key === null ? "null" : typeof key}`,
  );
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * The CDP keys a JSON key may stand for: itself, and for an ISO-8601 UTC
 * string (`2024-01-02T03:04:05.000Z`) also the Date key it names (Date keys
 * travel as ISO strings).
 */
export function candidateKeys(key: IdbKey): Protocol.IndexedDB.Key[] {
  const keys = [toCdpKey(key)];
  if (typeof key === "string" && ISO_DATE.test(key)) {
    const ms = Date.parse(key);
    if (Number.isFinite(ms)) keys.push({ type: "date", date: ms });
  }
  return keys;
}

function isMissingDatabase(e: unknown): boolean {
  // CDP opens without a version and aborts the upgrade a missing database would need.
  return e instanceof ProtocolError && /Aborted upgrade|not found/i.test(e.originalMessage);
}

function keyPathOf(p: Protocol.IndexedDB.KeyPath): string | string[] | null {
  if (p.type === "string") return p.string ?? "";
  if (p.type === "array") return p.array ?? [];
  return null;
}

/**
 * The names of the databases of a storage key.
 * CDP: `IndexedDB.requestDatabaseNames`.
 */
export async function listDatabaseNames(
  session: CdpSession,
  storageKey: string,
): Promise<string[]> {
  return (await session.send("IndexedDB.requestDatabaseNames", { storageKey })).databaseNames;
}

/**
 * A database's version and object stores, read without opening it for an
 * upgrade (a missing database is not created). CDP: `IndexedDB.requestDatabase`.
 *
 * @returns undefined when there is no such database.
 */
export async function describeDatabase(
  session: CdpSession,
  storageKey: string,
  dbName: string,
): Promise<IdbDatabase | undefined> {
  try {
    const { databaseWithObjectStores: db } = await session.send("IndexedDB.requestDatabase", {
      storageKey,
      databaseName: dbName,
    });
    return {
      name: db.name,
      version: db.version,
      stores: db.objectStores.map((s) => ({
        name: s.name,
        keyPath: keyPathOf(s.keyPath),
        autoIncrement: s.autoIncrement,
        indexes: s.indexes.map((i) => i.name),
      })),
    };
  } catch (e) {
    if (isMissingDatabase(e)) return undefined;
    throw e;
  }
}

/** A value as JSON, each place JSON cannot carry shown by a marker (`deepToMarkedJson`). */
export interface MarkedJson {
  value: unknown;
  /** The marked places (`{path, type}`), empty when the value is plain JSON. */
  marked: MarkedPlace[];
}

/**
 * Reads one record by primary key (and, for an ISO date string, the Date key
 * it names) and returns its value as JSON, with markers (`{"$date": …}`,
 * `{"$opaque": "Blob, …"}`, …) where JSON cannot carry it.
 * CDP: `IndexedDB.requestData` with a one-key range, then
 * `Runtime.callFunctionOn` with deep serialization (V8's own serializer, no
 * page script involved), then `Runtime.releaseObject`.
 *
 * @throws NonJsonValueError when V8 cannot serialize the value at all.
 */
export async function getRecord(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef & { key: IdbKey },
): Promise<{ found: false } | ({ found: true } & MarkedJson)> {
  for (const key of candidateKeys(ref.key)) {
    const entries = await entriesAt(session, storageKey, ref, key);
    const entry = entries[0];
    if (!entry) continue;
    try {
      return { found: true, ...await remoteToJson(session, entry.value) };
    } finally {
      await releaseEntries(session, entries);
    }
  }
  return { found: false };
}

const PRIMITIVE_MARKS: Record<string, (v: string) => unknown> = {
  bigint: (v) => ({ $bigint: v.replace(/n$/, "") }),
  number: (v) => ({ $number: v }),
};

/**
 * A remote value (of `IndexedDB.requestData`) as marked JSON.
 * CDP: `Runtime.callFunctionOn` (deep serialization), `Runtime.releaseObject`.
 *
 * @throws NonJsonValueError when V8 cannot serialize it.
 */
export async function remoteToJson(
  session: CdpSession,
  remote: Protocol.Runtime.RemoteObject,
): Promise<MarkedJson> {
  if (!remote.objectId) {
    // A primitive: CDP carries it by value (or as unserializableValue: NaN, 1n, …).
    if (remote.type === "undefined") {
      return { value: { $undefined: true }, marked: [{ path: "$", type: "undefined" }] };
    }
    const u = remote.unserializableValue;
    if (u !== undefined) {
      if (u === "-0") return { value: 0, marked: [] };
      const mark = PRIMITIVE_MARKS[remote.type] ?? PRIMITIVE_MARKS.number!;
      const type = remote.type === "bigint" ? "BigInt" : `number ${u}`;
      return { value: mark(u), marked: [{ path: "$", type }] };
    }
    return { value: remote.value ?? null, marked: [] };
  }
  const r = await session.send("Runtime.callFunctionOn", {
    objectId: remote.objectId,
    // Touches no global: the page's scripts cannot change what is read.
    functionDeclaration: "function () { return this; }",
    serializationOptions: { serialization: "deep" },
  });
  if (r.result.objectId) {
    session.send("Runtime.releaseObject", { objectId: r.result.objectId }).catch(() => {});
  }
  if (r.exceptionDetails || !r.result.deepSerializedValue) {
    throw new NonJsonValueError("$", remote.className ?? remote.type);
  }
  return deepToMarkedJson(r.result.deepSerializedValue);
}

/**
 * Deletes the record under a key (for an ISO date string, the one under the
 * Date key it names when no string key holds one). Idempotent.
 * CDP: `IndexedDB.requestData` (which key holds it), `IndexedDB.deleteObjectStoreEntries`.
 */
export async function deleteRecord(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef & { key: IdbKey },
): Promise<void> {
  const keys = candidateKeys(ref.key);
  let target = keys[0]!;
  // Which of the keys it may stand for holds the record (only asked when there is a choice).
  for (const key of keys.length > 1 ? keys : []) {
    const held = await entriesAt(session, storageKey, ref, key);
    await releaseEntries(session, held);
    if (held.length) {
      target = key;
      break;
    }
  }
  await session.send("IndexedDB.deleteObjectStoreEntries", {
    storageKey,
    databaseName: ref.dbName,
    objectStoreName: ref.storeName,
    keyRange: onlyKey(target),
  });
}

/** The key range of one key. */
function onlyKey(key: Protocol.IndexedDB.Key): Protocol.IndexedDB.KeyRange {
  return { lower: key, upper: key, lowerOpen: false, upperOpen: false };
}

/**
 * The entry under exactly `key` (none or one; the caller releases its remote objects).
 * CDP: `IndexedDB.requestData`.
 */
export async function entriesAt(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef,
  key: Protocol.IndexedDB.Key,
): Promise<Protocol.IndexedDB.DataEntry[]> {
  const r = await session.send("IndexedDB.requestData", {
    storageKey,
    databaseName: ref.dbName,
    objectStoreName: ref.storeName,
    skipCount: 0,
    pageSize: 1,
    keyRange: onlyKey(key),
  });
  return r.objectStoreDataEntries;
}

/** Releases the remote objects of `IndexedDB.requestData` entries. CDP: `Runtime.releaseObject`. */
export async function releaseEntries(
  session: CdpSession,
  entries: Protocol.IndexedDB.DataEntry[],
): Promise<void> {
  const ids = entries.flatMap((e) => [e.key, e.primaryKey, e.value]).map((o) => o.objectId)
    .filter((id): id is string => id !== undefined);
  await Promise.all(
    ids.map((objectId) => session.send("Runtime.releaseObject", { objectId }).catch(() => {})),
  );
}

/**
 * Deletes every record of an object store, which stays.
 * CDP: `IndexedDB.getMetadata` (how many), `IndexedDB.clearObjectStore`.
 *
 * @returns How many records there were.
 */
export async function clearStore(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef,
): Promise<number> {
  const params = { storageKey, databaseName: ref.dbName, objectStoreName: ref.storeName };
  const { entriesCount } = await session.send("IndexedDB.getMetadata", params);
  await session.send("IndexedDB.clearObjectStore", params);
  return entriesCount;
}

/** Deletes a whole database (idempotent). CDP: `IndexedDB.deleteDatabase`. */
export async function deleteDatabase(
  session: CdpSession,
  storageKey: string,
  dbName: string,
): Promise<void> {
  await session.send("IndexedDB.deleteDatabase", { storageKey, databaseName: dbName });
}
