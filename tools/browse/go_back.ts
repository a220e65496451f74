/**
 * `go_back`: one history entry back in the active tab.
 *
 * @module
 */
import { historyTool } from "./history_move.ts";

/** The `go_back` tool. */
export const goBackTool = historyTool("go_back", -1);
