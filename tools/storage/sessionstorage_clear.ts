/**
 * `sessionstorage_clear`: deletes every sessionStorage item of the active tab's origin, made by
 * `webStorageClearTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageClearTool } from "./web_storage_factories.ts";

/** The `sessionstorage_clear` tool. */
export const sessionStorageClearTool = webStorageClearTool("session");
