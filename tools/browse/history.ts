/**
 * `go_back`, `go_forward`, `reload`: history moves of the active tab.
 *
 * @module
 */
import { z } from "zod";
import type { Page } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { actingFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { mayFollow } from "../../browser/nav_guard/navigation_gate.ts";

/**
 * The `signal` option of a load wait that ends when the guard stops the move or the call's
 * signal aborts (cancel or budget); none when neither is given.
 */
function endedBy(
  stopped: AbortSignal | undefined,
  call: AbortSignal | undefined,
): { signal?: AbortSignal } {
  const signal = stopped && call ? AbortSignal.any([stopped, call]) : stopped ?? call;
  return signal ? { signal } : {};
}

async function moveInHistory(
  page: Page,
  delta: -1 | 1,
  options: {
    deadline: number;
    mayGo: (url: string) => boolean;
    stopped?: AbortSignal | undefined;
    /** The call's signal: the wait ends with its reason when it aborts. */
    signal?: AbortSignal | undefined;
  },
): Promise<Record<string, unknown>> {
  const { deadline, mayGo, signal } = options;
  const { currentIndex, entries } = await page.session.send(
    "Page.getNavigationHistory",
    undefined,
    {
      signal,
    },
  );
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
      ...endedBy(options.stopped, signal),
    },
  );
  signal?.throwIfAborted();
  if (options.stopped?.aborted) return { moved: false, url: page.url, timedOut: false };
  const r = page.documentResponse();
  return {
    moved: true,
    url: page.url,
    ...(arrived ? {} : { timedOut: true }),
    ...(r ? { httpStatus: r.status, contentType: r.mimeType } : {}),
  };
}

const schema = z.object({ ...actingFields });

/** A one-step history move tool (`go_back`, `go_forward`). */
function historyTool(name: "go_back" | "go_forward", delta: -1 | 1) {
  const way = delta < 0 ? "back" : "forward";
  return defineTool({
    name,
    title: delta < 0 ? "Go back" : "Go forward",
    description: `Go ${way} one history entry in the active tab (none: moved=false).`,
    capability: "navigation",
    toolset: "core",
    annotations: { openWorldHint: true },
    inputSchema: schema,
    handler(ctx, args) {
      return runAction(ctx, args, {
        type: name,
        replaysHistory: true,
        perform: ({ session, page, deadline, signal }) =>
          moveInHistory(page, delta, {
            deadline,
            signal,
            mayGo: (url) => mayFollow(ctx.config, session, url, page.url),
            stopped: session.navGuard?.stopSignal(page.target.targetId),
          }),
      });
    },
  });
}

/** The `go_back` tool. */
export const goBackTool = historyTool("go_back", -1);

/** The `go_forward` tool. */
export const goForwardTool = historyTool("go_forward", 1);

/** The `reload` tool. */
export const reloadTool = defineTool({
  name: "reload",
  title: "Reload",
  description:
    "Reload the active tab and wait for it to load. Returns httpStatus and the page outline.",
  capability: "navigation",
  toolset: "core",
  annotations: { openWorldHint: true },
  inputSchema: schema,
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "reload",
      replacesDocument: true,
      replaysHistory: true,
      async perform({ session, page, deadline, signal }) {
        // A reload of a form's result is stopped by the guard: no wait for it.
        const stopped = session.navGuard?.stopSignal(page.target.targetId);
        const loaded = await page.reload({
          timeoutMs: Math.max(1, deadline - Date.now()),
          ...endedBy(stopped, signal),
        });
        signal?.throwIfAborted();
        if (stopped?.aborted) return { moved: false, timedOut: false };
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
