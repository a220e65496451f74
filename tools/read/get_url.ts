/**
 * `get_url` (seed 004): where the active tab is.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { scratchTab } from "../../browser/visibility.ts";

/** The `get_url` tool. */
export const getUrlTool = defineTool({
  name: "get_url",
  title: "Get URL and title",
  description: "The active tab's URL, title and tab_count.",
  capability: "read",
  toolset: "core",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({ url: z.string(), title: z.string(), tab_count: z.number() }),
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.page();
    const scratch = scratchTab(session);
    return {
      structured: {
        url: page.url,
        title: await page.title(),
        tab_count: session.tabs.filter((p) => p !== scratch && !p.isClosed).length,
      },
    };
  },
});
