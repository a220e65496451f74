/**
 * One step through the active tab's history, and the factory of the `go_back` and `go_forward`
 * tools that take it; `historySchema` is the input of those and of `reload`.
 *
 * @module
 */
import { z } from "zod";
import type { Page } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { actionOutput } from "../output_schemas.ts";
import { actingFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { mayFollow } from "../../browser/nav_guard/navigation_gate.ts";
import { type StayWatch, watchStay } from "../../browser/actions/beforeunload_stay.ts";
import { pause } from "../../browser/poll.ts";

/**
 * The `signal` option of a load wait that ends when the guard stops the move or the call's
 * signal aborts (cancel or budget); none when neither is given.
 */
export function endedBy(
  stopped: AbortSignal | undefined,
  call: AbortSignal | undefined,
): { signal?: AbortSignal } {
  const signal = stopped && call ? AbortSignal.any([stopped, call]) : stopped ?? call;
  return signal ? { signal } : {};
}

/**
 * Moves the tab `delta` history entries, after asking `mayGo` about the entry's URL, and waits
 * for the browser to commit the move (or for `deadline`, epoch ms, or `stopped`).
 * CDP: `Page.getNavigationHistory`, `Page.navigateToHistoryEntry`.
 *
 * @returns `{ moved, url, timedOut?, httpStatus?, contentType? }`; `moved: false` at either end.
 * @throws ToolError blocked-by-policy when `mayGo` refuses the entry's URL.
 */
async function moveInHistory(
  page: Page,
  delta: -1 | 1,
  options: {
    deadline: number;
    mayGo: (url: string) => boolean;
    stopped?: AbortSignal | undefined;
    /** The page's beforeunload cancelled the move: the wait ends, the tab stayed. */
    stay: StayWatch;
    /** The call's signal: the wait ends with its reason when it aborts. */
    signal?: AbortSignal | undefined;
  },
): Promise<Record<string, unknown>> {
  const { deadline, mayGo, signal, stay } = options;
  const { currentIndex, entries } = await historyOf(page, deadline, signal);
  const entry = entries[currentIndex + delta];
  if (!entry) return { moved: false, url: page.url };
  // The entry says where the move lands: judged before it happens (a page restored from the
  // back/forward cache makes no request the navigation guard could hold).
  if (!mayGo(entry.url)) {
    throw new ToolError(
      "blocked-by-policy",
      `policy: going ${delta < 0 ? "back" : "forward"} would land on ${entry.url}, which no ` +
        "approval covers; the tab has not moved",
      "navigate to that URL yourself to be asked for it",
      { url: page.url, blockedUrl: entry.url, policy: { rule: "navigation", decision: "refused" } },
    );
  }
  // Where "back" leads is known only once the browser commits it: wait for that, or for
  // the guard stopping it (an entry that would send a form again: the tab stays).
  const arrived = await page.waitForNavigation(
    () => page.session.send("Page.navigateToHistoryEntry", { entryId: entry.id }),
    {
      timeoutMs: Math.max(1, deadline - Date.now()),
      ...endedBy(
        options.stopped ? AbortSignal.any([options.stopped, stay.signal]) : stay.signal,
        signal,
      ),
    },
  );
  signal?.throwIfAborted();
  // Stopped by the guard, or the page stayed (its beforeunload dismissed: the window's warning
  // says so).
  if (options.stopped?.aborted || stay.signal.aborted) {
    return { moved: false, url: page.url, timedOut: false };
  }
  const r = page.documentResponse();
  return {
    moved: true,
    url: page.url,
    ...(arrived ? {} : { timedOut: true }),
    ...(r ? { httpStatus: r.status, contentType: r.mimeType } : {}),
  };
}

/**
 * The tab's history. While a navigation is still committing (its old document held by a
 * script of its own), Chromium answers "Not attached to an active page" though the tab is
 * there: asked again until `deadline`, then a navigation-failed error, not "the tab closed".
 * CDP: `Page.getNavigationHistory`.
 */
async function historyOf(page: Page, deadline: number, signal: AbortSignal | undefined) {
  while (true) {
    try {
      return await page.session.send("Page.getNavigationHistory", undefined, { signal });
    } catch (e) {
      if (page.isClosed || !/not attached to an active page/i.test(String(e))) throw e;
      if (Date.now() >= deadline) {
        throw new ToolError(
          "navigation-failed",
          "The tab is between two documents (a navigation is still committing) and cannot move in its history yet",
          "navigate to a URL, or call again in a moment",
        );
      }
      await pause(Math.min(100, Math.max(1, deadline - Date.now())), signal);
    }
  }
}

/** The input of the history tools: the acting fields only. */
export const historySchema = z.object({ ...actingFields });

/** A one-step history move tool (`go_back`, `go_forward`). */
export function historyTool(name: "go_back" | "go_forward", delta: -1 | 1) {
  const way = delta < 0 ? "back" : "forward";
  return defineTool({
    name,
    title: delta < 0 ? "Go back" : "Go forward",
    description: `Go ${way} one history entry in the active tab (none: moved=false).`,
    capability: "navigation",
    toolset: "core",
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    outputSchema: actionOutput({
      moved: z.boolean(),
      url: z.string(),
      httpStatus: z.number().nullable(),
      contentType: z.string().nullable(),
      timedOut: z.boolean(),
    }),
    inputSchema: historySchema,
    handler(ctx, args) {
      return runAction(ctx, args, {
        type: name,
        replaysHistory: true,
        async perform({ session, page, deadline, signal }) {
          using stay = watchStay(session, page);
          return await moveInHistory(page, delta, {
            deadline,
            signal,
            mayGo: (url) => mayFollow(ctx.config, session, url, page.url),
            stopped: session.navGuard?.stopSignal(page.target.targetId),
            stay,
          });
        },
      });
    },
  });
}
