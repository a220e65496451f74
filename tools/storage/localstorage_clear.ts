/**
 * `localstorage_clear`: deletes every localStorage item of the active tab's origin, made by
 * `webStorageClearTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageClearTool } from "./web_storage_factories.ts";

/** The `localstorage_clear` tool. */
export const localStorageClearTool = webStorageClearTool("local");
