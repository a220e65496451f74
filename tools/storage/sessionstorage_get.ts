/**
 * `sessionstorage_get`: gets a sessionStorage value of the active tab's origin, made by
 * `webStorageGetTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageGetTool } from "./web_storage_factories.ts";

/** The `sessionstorage_get` tool. */
export const sessionStorageGetTool = webStorageGetTool("session");
