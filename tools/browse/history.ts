/**
 * `go_back`, `go_forward`, `reload`: history moves of the active tab.
 *
 * @module
 */
import { z } from "zod";
import type { Page } from "../../cdp/page.ts";
import { defineTool } from "../define_tool.ts";
import { actingFields, runAction } from "../actions/run_action.ts";

async function moveInHistory(
  page: Page,
  delta: -1 | 1,
  deadline: number,
): Promise<Record<string, unknown>> {
  const { currentIndex, entries } = await page.session.send("Page.getNavigationHistory");
  const entry = entries[currentIndex + delta];
  if (!entry) return { moved: false, url: page.url };
  // Where "back" leads is known only once the browser commits it: wait for that.
  const arrived = await page.waitForNavigation(
    () => page.session.send("Page.navigateToHistoryEntry", { entryId: entry.id }),
    { timeoutMs: Math.max(1, deadline - Date.now()) },
  );
  const r = page.documentResponse();
  return {
    moved: true,
    url: page.url,
    ...(arrived ? {} : { timedOut: true }),
    ...(r ? { httpStatus: r.status, contentType: r.mimeType } : {}),
  };
}

const schema = z.object({ ...actingFields });

/** The `go_back` tool. */
export const goBackTool = defineTool({
  name: "go_back",
  title: "Go back",
  description:
    "Go back one history entry in the active tab. At the start of history it does nothing and says moved=false.",
  capability: "navigation",
  toolset: "core",
  annotations: { openWorldHint: true },
  inputSchema: schema,
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "go_back",
      perform: ({ page, deadline }) => moveInHistory(page, -1, deadline),
    });
  },
});

/** The `go_forward` tool. */
export const goForwardTool = defineTool({
  name: "go_forward",
  title: "Go forward",
  description:
    "Go forward one history entry in the active tab. At the end of history it does nothing and says moved=false.",
  capability: "navigation",
  toolset: "core",
  annotations: { openWorldHint: true },
  inputSchema: schema,
  handler(ctx, args) {
    return runAction(ctx, args, {
      type: "go_forward",
      perform: ({ page, deadline }) => moveInHistory(page, 1, deadline),
    });
  },
});

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
      async perform({ page, deadline }) {
        const loaded = await page.reload({ timeoutMs: Math.max(1, deadline - Date.now()) });
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
