/// <reference lib="dom" />
/**
 * Writing one IndexedDB record through the page's own IndexedDB API (`idb_put`): never creates
 * or upgrades a database or a store.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import { type IdbKey, type IdbStoreRef, IdbWriteError } from "./indexed_db.ts";

/** What {@link putRecord} wrote. */
export interface PutOutcome {
  /** The record's primary key as JSON (Date keys as ISO strings). */
  key: unknown;
  /** The store's in-line key path, or null (out-of-line keys). */
  keyPath: string | string[] | null;
  /** A `key` was passed and ignored: the in-line key path read off the value wins. */
  keyIgnored: boolean;
}

/**
 * Writes a JSON value into an existing object store (`store.put`): with an
 * in-line key path the key comes from the value (a passed `key` is ignored),
 * otherwise `key` is the out-of-line key (or the key generator's, when the
 * store has one and no key is passed). Never creates or upgrades a database
 * or a store: opens without a version and aborts an upgrade. Runs in
 * browxai's isolated world of the page. CDP: `Runtime.callFunctionOn`.
 *
 * @returns undefined when the database or the store does not exist.
 * @throws IdbWriteError with the DOMException (`DataError: …`, `QuotaExceededError: …`).
 */
export async function putRecord(
  page: Page,
  put: IdbStoreRef & { key?: IdbKey | undefined; value: unknown },
): Promise<PutOutcome | undefined> {
  const r = await page.call<
    { missing: true } | { error: string } | PutOutcome
  >(
    async (
      dbName: string,
      storeName: string,
      hasKey: boolean,
      key: IDBValidKey,
      value: unknown,
    ) => {
      const done = <T>(req: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
      const opening = indexedDB.open(dbName);
      // A missing database would be created: abort, it is the app's schema.
      opening.onupgradeneeded = () => opening.transaction?.abort();
      let db: IDBDatabase;
      try {
        db = await done(opening);
      } catch {
        return { missing: true as const };
      }
      try {
        if (!db.objectStoreNames.contains(storeName)) return { missing: true as const };
        const tx = db.transaction(storeName, "readwrite");
        const committed = new Promise((resolve, reject) => {
          tx.oncomplete = resolve;
          tx.onabort = () => reject(tx.error ?? new DOMException("aborted", "AbortError"));
        });
        const store = tx.objectStore(storeName);
        const inline = store.keyPath !== null;
        const written = await done(inline || !hasKey ? store.put(value) : store.put(value, key));
        await committed;
        const json = (k: unknown): unknown =>
          k instanceof Date ? k.toISOString() : Array.isArray(k) ? k.map(json) : k;
        return { key: json(written), keyPath: store.keyPath, keyIgnored: inline && hasKey };
      } catch (e) {
        return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
      } finally {
        db.close();
      }
    },
    [put.dbName, put.storeName, put.key !== undefined, put.key ?? null, put.value],
  );
  if ("missing" in r) return undefined;
  if ("error" in r) throw new IdbWriteError(r.error);
  return r;
}
