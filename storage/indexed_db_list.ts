/**
 * Listing an object store of one origin for `idb_get` without a key, and
 * counting its records for `idb_list_stores`: over CDP's IndexedDB domain,
 * in key order, a page at a time, with values as marked JSON
 * (`storage/indexed_db.ts`, `remoteToJson`).
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import type { Protocol } from "../cdp/types.ts";
import {
  candidateKeys,
  entriesAt,
  type IdbKey,
  type IdbStoreRef,
  type MarkedPlace,
  releaseEntries,
  remoteToJson,
} from "./indexed_db.ts";

/** Records whose keys and values are read at once (their CDP calls overlap). */
const READ_AHEAD = 8;

/** One listed record: its primary key as JSON (Date keys as ISO strings) and its value. */
export interface IdbListedRecord {
  key: unknown;
  value: unknown;
  /** Places of the value shown by markers (absent when the value is plain JSON). */
  marked?: MarkedPlace[];
}

/** A page of records. */
export interface IdbRecordPage {
  records: IdbListedRecord[];
  /** More records follow the last one listed: pass its key as `after`. */
  hasMore: boolean;
}

/** What to list: records after a key (exclusive), at most `limit`, values within `maxChars`. */
export interface IdbListRange {
  after?: IdbKey | undefined;
  /** Most records in the page (1 or more). */
  limit: number;
  /**
   * Character budget of the page's values as JSON: a page stops before the record that would
   * pass it (it always holds at least one record), and says `hasMore`.
   */
  maxChars: number;
}

/**
 * The records of a store in key order after `range.after`.
 * An ISO date string as `after` names the Date key it stands for when the store holds one
 * (Date keys are listed as ISO strings), else the string key.
 * CDP: `IndexedDB.requestData` (with an open lower bound), `Runtime.callFunctionOn` (deep
 * serialization of keys and values), `Runtime.releaseObject`.
 */
export async function listRecords(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef & IdbListRange,
): Promise<IdbRecordPage> {
  const lower = ref.after === undefined ? undefined : await boundKey(session, storageKey, ref);
  const r = await session.send("IndexedDB.requestData", {
    storageKey,
    databaseName: ref.dbName,
    objectStoreName: ref.storeName,
    skipCount: 0,
    pageSize: ref.limit,
    ...(lower ? { keyRange: { lower, lowerOpen: true, upperOpen: false } } : {}),
  });
  const entries = r.objectStoreDataEntries;
  const records: IdbListedRecord[] = [];
  let chars = 0;
  try {
    // A few records at a time (their reads overlap), and no more once the budget is spent.
    outer: for (let at = 0; at < entries.length; at += READ_AHEAD) {
      const read = await Promise.all(
        entries.slice(at, at + READ_AHEAD).map((e) =>
          Promise.all([remoteToJson(session, e.value), remoteToJson(session, e.primaryKey)])
        ),
      );
      for (const [value, key] of read) {
        chars += JSON.stringify(value.value)?.length ?? 0;
        if (records.length && chars > ref.maxChars) break outer;
        records.push({
          key: keyJson(key.value),
          value: value.value,
          ...(value.marked.length ? { marked: value.marked } : {}),
        });
      }
    }
  } finally {
    await releaseEntries(session, entries);
  }
  return { records, hasMore: r.hasMore || records.length < entries.length };
}

/** How many records a store holds. CDP: `IndexedDB.getMetadata`. */
export async function countRecords(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef,
): Promise<number> {
  const { entriesCount } = await session.send("IndexedDB.getMetadata", {
    storageKey,
    databaseName: ref.dbName,
    objectStoreName: ref.storeName,
  });
  return entriesCount;
}

/** The CDP key of `after`: for an ISO string, the Date key when the store holds one. */
async function boundKey(
  session: CdpSession,
  storageKey: string,
  ref: IdbStoreRef & { after?: IdbKey | undefined },
): Promise<Protocol.IndexedDB.Key> {
  const [asIs, asDate] = candidateKeys(ref.after!);
  if (asDate) {
    const held = await entriesAt(session, storageKey, ref, asDate);
    await releaseEntries(session, held);
    if (held.length) return asDate;
  }
  return asIs!;
}

/** A key as the agent passes it back: Date keys (`{"$date": …}`) as their ISO strings. */
function keyJson(k: unknown): unknown {
  if (Array.isArray(k)) return k.map(keyJson);
  if (k && typeof k === "object" && "$date" in k) return (k as { $date: unknown }).$date;
  return k;
}
