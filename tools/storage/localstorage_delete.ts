/**
 * `localstorage_delete`: deletes a localStorage item of the active tab's origin, made by
 * `webStorageDeleteTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageDeleteTool } from "./web_storage_factories.ts";

/** The `localstorage_delete` tool. */
export const localStorageDeleteTool = webStorageDeleteTool("local");
