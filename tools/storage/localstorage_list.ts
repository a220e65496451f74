/**
 * `localstorage_list`: lists the localStorage items of the active tab's origin, made by
 * `webStorageListTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageListTool } from "./web_storage_factories.ts";

/** The `localstorage_list` tool. */
export const localStorageListTool = webStorageListTool("local");
