/**
 * The storage key of a frame: what CDP's CacheStorage, IndexedDB and
 * DOMStorage domains take to name the partition a page's origin stores into.
 *
 * @module
 */
import type { CdpSession } from "../cdp/connection.ts";
import { ProtocolError } from "../cdp/errors.ts";

/**
 * The storage key of a frame, e.g. `"http://127.0.0.1:8080/"` for a
 * top-level page (a third-party iframe's key also names its top-level site).
 *
 * CDP: `Storage.getStorageKey` (Chromium ≥ 131), else the older
 * `Storage.getStorageKeyForFrame`; when neither is known (a browser that
 * answers "method not found"), the first-party key `origin + "/"`.
 *
 * @param session The CDP session of the tab that holds the frame.
 * @param frame `frameId` of the frame and its `origin` (e.g. `http://127.0.0.1:8080`).
 * @throws ProtocolError other than "method not found" (e.g. the frame is gone).
 */
export async function frameStorageKey(
  session: CdpSession,
  frame: { frameId: string; origin: string },
): Promise<string> {
  const { frameId } = frame;
  try {
    return (await session.send("Storage.getStorageKey", { frameId })).storageKey;
  } catch (e) {
    if (!isMethodNotFound(e)) throw e;
  }
  try {
    return (await session.send("Storage.getStorageKeyForFrame", { frameId })).storageKey;
  } catch (e) {
    if (!isMethodNotFound(e)) throw e;
  }
  return `${frame.origin}/`;
}

/** True for CDP's "method not found" answer (JSON-RPC code -32601). */
export function isMethodNotFound(e: unknown): boolean {
  return e instanceof ProtocolError && e.code === -32601;
}
