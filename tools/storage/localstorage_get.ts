/**
 * `localstorage_get`: gets a localStorage value of the active tab's origin, made by
 * `webStorageGetTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageGetTool } from "./web_storage_factories.ts";

/** The `localstorage_get` tool. */
export const localStorageGetTool = webStorageGetTool("local");
