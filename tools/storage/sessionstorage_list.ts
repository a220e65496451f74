/**
 * `sessionstorage_list`: lists the sessionStorage items of the active tab's origin, made by
 * `webStorageListTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageListTool } from "./web_storage_factories.ts";

/** The `sessionstorage_list` tool. */
export const sessionStorageListTool = webStorageListTool("session");
