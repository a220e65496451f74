/**
 * `sessionstorage_delete`: deletes a sessionStorage item of the active tab's origin, made by
 * `webStorageDeleteTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageDeleteTool } from "./web_storage_factories.ts";

/** The `sessionstorage_delete` tool. */
export const sessionStorageDeleteTool = webStorageDeleteTool("session");
