/**
 * `go_forward`: one history entry forward in the active tab.
 *
 * @module
 */
import { historyTool } from "./history_move.ts";

/** The `go_forward` tool. */
export const goForwardTool = historyTool("go_forward", 1);
