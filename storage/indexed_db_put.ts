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
  /** Places (`$.when`, `$.tags[0]`) where a marker of `idb_get` was stored as its value. */
  revived: string[];
}

/**
 * A marker `idb_get` showed in place of a value (`{"$date": …}`, …) that cannot be written back:
 * `$opaque` (a Blob, a typed array, …) and `$cycle` carry no value.
 */
export class OpaqueMarkerError extends Error {
  constructor(readonly path: string, readonly marker: string) {
    super(`${path} is ${marker}, which carries no value to write`);
    this.name = "OpaqueMarkerError";
  }
}

/**
 * Writes a JSON value into an existing object store (`store.put`): with an
 * in-line key path the key comes from the value (a passed `key` is ignored),
 * otherwise `key` is the out-of-line key (or the key generator's, when the
 * store has one and no key is passed). The markers `idb_get` shows where JSON
 * cannot carry a value are stored as that value: an object whose only key is
 * `$date` (ISO string), `$bigint`, `$number` (NaN, ±Infinity), `$undefined`,
 * `$regexp` (`/p/f`), `$set` or `$map` (pairs), so a listed record written back
 * keeps its types. Never creates or upgrades a database
 * or a store: opens without a version and aborts an upgrade. Runs in
 * browxai's isolated world of the page. CDP: `Runtime.callFunctionOn`.
 *
 * @returns undefined when the database or the store does not exist.
 * @throws IdbWriteError with the DOMException (`DataError: …`, `QuotaExceededError: …`).
 * @throws OpaqueMarkerError for an `$opaque` or `$cycle` marker in the value.
 */
export async function putRecord(
  page: Page,
  put: IdbStoreRef & { key?: IdbKey | undefined; value: unknown },
): Promise<PutOutcome | undefined> {
  const r = await page.call<
    { missing: true } | { error: string } | { opaque: [string, string] } | PutOutcome
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
      // idb_get's markers back to the values they stand for (a lone `$…` key, well formed).
      const revived: string[] = [];
      const revive = (v: unknown, path: string): unknown => {
        if (Array.isArray(v)) return v.map((x, i) => revive(x, `${path}[${i}]`));
        if (v === null || typeof v !== "object") return v;
        const keys = Object.keys(v);
        const [k] = keys;
        const m = (v as Record<string, unknown>)[k ?? ""];
        if (keys.length === 1 && k && k[0] === "$") {
          let out: unknown = v, ok = true;
          if (k === "$opaque" || k === "$cycle") throw [path, `${k} (${String(m)})`];
          if (k === "$date" && typeof m === "string" && !isNaN(Date.parse(m))) out = new Date(m);
          else if (k === "$bigint" && typeof m === "string" && /^-?\d+$/.test(m)) out = BigInt(m);
          else if (k === "$number" && ["NaN", "Infinity", "-Infinity"].includes(m as string)) {
            out = Number(m);
          } else if (k === "$undefined" && m === true) out = undefined;
          else if (k === "$regexp" && typeof m === "string" && /^\/.*\/[a-z]*$/s.test(m)) {
            const cut = m.lastIndexOf("/");
            try {
              out = new RegExp(m.slice(1, cut), m.slice(cut + 1));
            } catch {
              ok = false; // not a pattern idb_get showed: kept as the object it is
            }
          } else if (k === "$set" && Array.isArray(m)) {
            out = new Set(m.map((x, i) => revive(x, `${path}[${i}]`)));
          } else if (
            k === "$map" && Array.isArray(m) &&
            m.every((p) => Array.isArray(p) && p.length === 2)
          ) {
            out = new Map(
              m.map((p, i) => [revive(p[0], `${path}[${i}][0]`), revive(p[1], `${path}[${i}][1]`)]),
            );
          } else ok = false;
          if (ok) {
            revived.push(path);
            return out;
          }
        }
        const copy: Record<string, unknown> = {};
        for (const key of keys) {
          const p = /^[A-Za-z_$][\w$]*$/.test(key)
            ? `${path}.${key}`
            : `${path}[${JSON.stringify(key)}]`;
          copy[key] = revive((v as Record<string, unknown>)[key], p);
        }
        return copy;
      };
      try {
        value = revive(value, "$");
      } catch (e) {
        if (Array.isArray(e)) return { opaque: e as [string, string] };
        throw e;
      }
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
        return {
          key: json(written),
          keyPath: store.keyPath,
          keyIgnored: inline && hasKey,
          revived,
        };
      } catch (e) {
        return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
      } finally {
        db.close();
      }
    },
    [put.dbName, put.storeName, put.key !== undefined, put.key ?? null, put.value],
  );
  if ("missing" in r) return undefined;
  if ("opaque" in r) throw new OpaqueMarkerError(...r.opaque);
  if ("error" in r) throw new IdbWriteError(r.error);
  return r;
}
