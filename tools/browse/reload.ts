/**
 * `reload`: reload the active tab.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { endedBy, historySchema } from "./history_move.ts";
import { watchStay } from "../../browser/actions/beforeunload_stay.ts";
import { leaveLostDialog } from "../../browser/sessions/stuck_dialogs.ts";

/** The `reload` tool. */
export const reloadTool = defineTool({
  name: "reload",
  title: "Reload",
  description:
    "Reload the active tab and wait for it to load. Returns httpStatus and the page outline.",
  capability: "navigation",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: actionOutput({
    moved: z.boolean(),
    httpStatus: z.number().nullable(),
    contentType: z.string().nullable(),
    timedOut: z.boolean(),
  }),
  inputSchema: historySchema,
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "reload",
      replacesDocument: true,
      replaysHistory: true,
      async perform({ session, page, deadline, signal }) {
        // A reload of a form's result is stopped by the guard: no wait for it.
        const guard = session.navGuard?.stopSignal(page.target.targetId);
        // Nor one the page's beforeunload cancelled.
        using stay = watchStay(session, page);
        const stopped = guard ? AbortSignal.any([guard, stay.signal]) : stay.signal;
        const timeoutMs = Math.max(1, deadline - Date.now());
        // A tab whose dialog Chromium lost crashes the browser on Page.reload: it leaves for
        // about:blank and loads its URL again instead (stuck_dialogs.ts).
        const url = page.url;
        const loaded = await leaveLostDialog(session.dialogs, page, signal)
          ? !(await page.navigate(url, { timeoutMs, ...endedBy(stopped, signal) })).timedOut
          : await page.reload({ timeoutMs, ...endedBy(stopped, signal) });
        signal?.throwIfAborted();
        // The page stayed (its beforeunload dismissed: the window's warning says so).
        if (stopped.aborted) return { moved: false, timedOut: false };
        const r = page.documentResponse();
        return {
          moved: true,
          httpStatus: r?.status ?? null,
          contentType: r?.mimeType ?? null,
          timedOut: !loaded,
        };
      },
    });
  },
});
