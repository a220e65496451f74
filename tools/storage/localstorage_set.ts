/**
 * `localstorage_set`: sets a localStorage item of the active tab's origin, made by
 * `webStorageSetTool` (`web_storage_factories.ts`).
 *
 * @module
 */
import { webStorageSetTool } from "./web_storage_factories.ts";

/** The `localstorage_set` tool. */
export const localStorageSetTool = webStorageSetTool("local");
