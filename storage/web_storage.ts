/**
 * localStorage and sessionStorage of a tab's origin over CDP's DOMStorage domain.
 *
 * Why DOMStorage and not `Runtime.evaluate("localStorage…")`: it runs no page script, so a
 * page that replaced `Storage.prototype`, froze `localStorage`, or has a broken or
 * CSP-locked main world reads and writes the same as any other; keys and values travel as
 * data (no quoting into source text); the page cannot observe or intercept the call; and no
 * `eval` capability is involved. Chromium serves it from the renderer's own storage areas,
 * so the page sees a write at once (its `storage` events fire in the origin's other tabs).
 *
 * Both areas are page-bound: the tab must show a document of an http(s) origin. On
 * `about:blank`, `data:`, error pages and other non-http(s) documents {@link openWebStorage}
 * throws {@link StorageOriginError} ("navigate first").
 *
 * CDP: `Storage.getStorageKey` (see `origin_key.ts`), `DOMStorage.getDOMStorageItems`,
 * `DOMStorage.setDOMStorageItem`, `DOMStorage.removeDOMStorageItem`, `DOMStorage.clear`.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import { ProtocolError } from "../cdp/errors.ts";
import { frameStorageKey } from "./origin_key.ts";

/** Which area: `local` (localStorage, per origin) or `session` (sessionStorage, per tab and origin). */
export type WebStorageKind = "local" | "session";

/** The tab whose document's storage is used. */
export interface StorageTab {
  /** The tab's CDP session. */
  session: CdpSession;
  /** The tab's main frame id. */
  frameId: string;
  /** The main frame's URL. */
  url: string;
}

/** One item. */
export interface StorageEntry {
  key: string;
  value: string;
}

/** The tab shows no http(s) document, so there is no storage to act on. */
export class StorageOriginError extends Error {
  /** The tab's URL. */
  readonly url: string;
  constructor(url: string) {
    super(`The active tab is on "${url}", which has no web storage of its own`);
    this.name = "StorageOriginError";
    this.url = url;
  }
}

/**
 * The http(s) origin of a document URL, or `undefined` for any other (about:blank, data:,
 * file:, chrome-error:, blob: …).
 */
export function webStorageOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
}

/** One storage area of one origin, bound to a tab. */
export interface WebStorageArea {
  /** The origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  readonly kind: WebStorageKind;
  /** Every item, in Chromium's order. CDP: `DOMStorage.getDOMStorageItems`. */
  list(): Promise<StorageEntry[]>;
  /** An item's value, `null` when the key is absent. CDP: `DOMStorage.getDOMStorageItems`. */
  get(key: string): Promise<string | null>;
  /** Stores an item. CDP: `DOMStorage.setDOMStorageItem`. */
  set(key: string, value: string): Promise<void>;
  /** Removes an item; returns whether it existed. CDP: `DOMStorage.removeDOMStorageItem`. */
  remove(key: string): Promise<boolean>;
  /** Removes every item; returns how many there were. CDP: `DOMStorage.clear`. */
  clear(): Promise<number>;
}

/**
 * The `kind` storage area of the tab's current origin. The area is resolved once, from the
 * main frame's storage key; use it for one call (a navigation changes the origin).
 *
 * @throws StorageOriginError when the tab shows no http(s) document; ProtocolError and
 *   target / connection errors from CDP.
 */
export async function openWebStorage(
  tab: StorageTab,
  kind: WebStorageKind,
): Promise<WebStorageArea> {
  const pageOrigin = webStorageOrigin(tab.url);
  if (pageOrigin === undefined) throw new StorageOriginError(tab.url);
  let storageKey: string;
  try {
    storageKey = await frameStorageKey(tab.session, { frameId: tab.frameId, origin: pageOrigin });
  } catch (e) {
    // A document with an opaque origin (e.g. served with CSP `sandbox`) has no storage.
    if (e instanceof ProtocolError && /opaque/i.test(e.originalMessage)) {
      throw new StorageOriginError(tab.url);
    }
    throw e;
  }
  const storageId = { storageKey, isLocalStorage: kind === "local" };
  // The key starts with the frame's origin: it is the truth if the tab moved on since.
  const origin = webStorageOrigin(storageKey) ?? pageOrigin;
  const cdp = tab.session;
  const items = async (): Promise<StorageEntry[]> => {
    const { entries } = await cdp.send("DOMStorage.getDOMStorageItems", { storageId });
    return entries.map(([key, value]) => ({ key: key ?? "", value: value ?? "" }));
  };
  return {
    origin,
    kind,
    list: items,
    async get(key) {
      return (await items()).find((e) => e.key === key)?.value ?? null;
    },
    async set(key, value) {
      await cdp.send("DOMStorage.setDOMStorageItem", { storageId, key, value });
    },
    async remove(key) {
      const existed = (await items()).some((e) => e.key === key);
      if (existed) await cdp.send("DOMStorage.removeDOMStorageItem", { storageId, key });
      return existed;
    },
    async clear() {
      const count = (await items()).length;
      await cdp.send("DOMStorage.clear", { storageId });
      return count;
    },
  };
}
