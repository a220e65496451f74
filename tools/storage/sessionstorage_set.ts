/**
 * `sessionstorage_set`: sets a sessionStorage item of the active tab's origin, made by
 * `webStorageSetTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageSetTool } from "./web_storage_factories.ts";

/** The `sessionstorage_set` tool. */
export const sessionStorageSetTool = webStorageSetTool("session");
