/**
 * `tabs`: list, switch or close the session's tabs.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { shownTabs } from "../../browser/visibility.ts";

/** How long a tab list waits for a tab's own title before taking the last one reported, ms. */
const TITLE_WAIT_MS = 500;

async function listTabs(session: BrowserSession) {
  const active = session.activePage;
  return await Promise.all(
    shownTabs(session).map(async (p, index) => ({
      index,
      url: p.url,
      // Bounded: a busy tab (a popup burst) must not hold the list (red team s17 F6).
      title: await p.titleWithin(TITLE_WAIT_MS).catch(() => ""),
      active: p === active,
    })),
  );
}

/** The `tabs` tool. */
export const tabsTool = defineTool({
  name: "tabs",
  title: "Manage tabs",
  description:
    "List the session's tabs, switch the active tab (the one every call uses), close or open one. Tabs a page opens are followed automatically. Indexes shift when tabs open or close: list first.",
  capability: "navigation",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ tabs: objectList, activeIndex: z.number(), note: z.string() }),
  inputSchema: z.object({
    action: z.enum(["list", "switch", "close", "new"]).describe("new: a blank tab"),
    index: z.number().int().min(0).optional().describe(
      "For switch/close (from list); close without it: the active tab",
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    session.ensureAlive();
    // One at a time, like every action: ten `close index 1` at once must close ten tabs (each
    // reads the indexes the one before it left), not answer ten times for one.
    if (args.action !== "list") await session.exclusive(() => change(session, args, ctx.signal));
    const tabs = await listTabs(session);
    return {
      structured: {
        ok: true,
        tabs,
        activeIndex: tabs.findIndex((t) => t.active),
        // The text leaves an empty list out: say it.
        ...(tabs.length
          ? {}
          : { note: 'no tabs open: navigate or tabs({ action: "new" }) opens one' }),
      },
    };
  },
});

/** Opens, switches or closes a tab as `args` says. @throws ToolError (no index, no such tab). */
async function change(
  session: BrowserSession,
  args: { action: "switch" | "close" | "new" | "list"; index?: number | undefined },
  signal: AbortSignal | undefined,
): Promise<void> {
  if (args.action === "new") {
    const tab = await session.newTab();
    if (signal?.aborted) {
      // Nobody waits for the tab any more: a cancelled call leaves none behind.
      await session.closeTab(tab).catch(() => {});
      throw signal.reason;
    }
  } else if (args.action === "close" && args.index === undefined) {
    // No index: the active tab, as the peer's tab close does.
    const page = session.activePage;
    if (!page) {
      throw new ToolError("not-found", "No tab is open to close", 'tabs({ action: "list" })');
    }
    await session.closeTab(page);
  } else if (args.action !== "list") {
    if (args.index === undefined) {
      throw new ToolError(
        "invalid-argument",
        `"tabs" ${args.action} needs index`,
        'call tabs({ action: "list" }) and pass the index',
      );
    }
    const tabs = shownTabs(session);
    const page = tabs[args.index];
    if (!page) {
      throw new ToolError(
        "not-found",
        `No tab at index ${args.index}: the session has ${tabs.length} tab(s)`,
        'call tabs({ action: "list" }) for current indexes',
      );
    }
    if (args.action === "switch") await session.activate(page);
    else await session.closeTab(page);
  }
}
