/**
 * `list_sessions`: this client's open sessions.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";

/** How long the list waits for a session's title before taking the last one reported, ms. */
const TITLE_WAIT_MS = 500;

/** The `list_sessions` tool. */
export const listSessionsTool = defineTool({
  name: "list_sessions",
  title: "List sessions",
  description:
    "This client's open sessions: mode, active URL and title, tab count, created and last used times, console and network entry counts.",
  capability: "read",
  toolset: "sessions",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), sessions: objectList }),
  inputSchema: z.object({}),
  async handler(ctx) {
    const sessions = await Promise.all(
      ctx.sessions.list().map(async (s) => {
        const page = s.activePage;
        return {
          session: s.id,
          mode: s.mode,
          url: page?.url ?? null,
          // Bounded: one session's busy tab (a popup burst) must not hold every client's list.
          title: page ? await page.titleWithin(TITLE_WAIT_MS).catch(() => "") : null,
          tabs: s.tabs.length,
          created: new Date(s.created).toISOString(),
          lastUsed: new Date(s.lastUsed).toISOString(),
          consoleEntries: s.logs.console.lastSeq,
          networkEntries: s.logs.network.lastSeq,
          ...(s.crashed ? { crashed: true } : {}),
          // A person drives it (takeover): the agent's mutations answer human-has-control.
          ...(s.human.humanHasControl ? { control: "human" } : {}),
        };
      }),
    );
    return { structured: { count: sessions.length, sessions } };
  },
});
