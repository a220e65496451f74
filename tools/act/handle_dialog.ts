/**
 * `handle_dialog`: choose how the next native dialog is answered.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { ARMED_GRACE_MS } from "../../browser/sessions/dialogs.ts";
import { originOf } from "../../policy/hosts.ts";

/** What the note names a page by: its origin (its URL when it has none, e.g. about:blank). */
function originLabel(url: string): string {
  const o = originOf(url);
  return o && o !== "null" ? o : url.slice(0, 100);
}

/** The `handle_dialog` tool. */
export const handleDialogTool = defineTool({
  name: "handle_dialog",
  title: "Answer the next dialog",
  description:
    "Arm the answer to the next confirm/prompt/beforeunload the active tab's page raises (same site); call right before acting. Unarmed: alert and beforeunload accepted, confirm and prompt dismissed; frames' and other tabs' always so (or per open_session dialogs). Listed in results' dialogs.",
  capability: "action",
  toolset: "core",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ armed: anyObject, note: z.string() }),
  inputSchema: z.object({
    accept: z.boolean().optional().describe("Default true: OK/yes; false: Cancel/no"),
    text: z.string().max(10_000).optional().describe("The prompt() answer"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    session.ensureAlive();
    const accept = args.accept ?? true;
    const page = session.activePage;
    const origin = page ? originLabel(page.url) : undefined;
    const replaced = session.dialogs.arm(
      { accept, ...(args.text !== undefined ? { text: args.text } : {}) },
      page?.target.targetId,
      page?.url,
    );
    // No tab yet (the session's first call): the answer waits for the tab its next call opens.
    const tab = page && session.tabs.indexOf(page) >= 0
      ? `the page in tab ${session.tabs.indexOf(page)}`
      : "the page the next call opens";
    return {
      structured: {
        ok: true,
        armed: { accept, ...(args.text !== undefined ? { text: args.text } : {}) },
        note: `applies to the next confirm, prompt or beforeunload of ${tab}` +
          `${
            origin && args.text !== undefined ? ` while it shows ${origin}` : ""
          } (not its frames' or another tab's${
            args.text !== undefined ? " or site's" : ""
          }; those take the session's policy: open_session({ dialogs })): ` +
          `one raised before the next acting call ends, or up to ${
            ARMED_GRACE_MS / 1000
          } s after it${replaced ? "; it replaces the answer armed before, unused" : ""}`,
      },
    };
  },
});
