/**
 * `downloads_capture`: turn a session's download capture on or off.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { downloadsOf } from "../../browser/sessions/downloads.ts";

/** The `downloads_capture` tool. */
export const downloadsCaptureTool = defineTool({
  name: "downloads_capture",
  title: "Capture downloads",
  description:
    "on: save to the workspace every file a page downloads during your actions in this session, listed under the action's downloads (turning it on asks permission once). off (default): only a call with download: true saves a file; others are cancelled.",
  capability: "action",
  toolset: "files",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ capture: z.boolean(), folder: z.string(), note: z.string() }),
  inputSchema: z.object({
    on: z.boolean().describe("true: every action's downloads; false: only declared ones"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    session.ensureAlive();
    const downloads = downloadsOf(session);
    if (!downloads) {
      throw new ToolError(
        "internal",
        `Session "${session.id}" has no download handling`,
        "close_session and open it again",
      );
    }
    if (args.on && !downloads.capture) {
      await ctx.confirm({
        hook: "file_download",
        tool: "downloads_capture",
        session: session.id,
        summary:
          `save every file session "${session.id}" downloads during actions, until downloads_capture({ on: false })`,
      });
    }
    await downloads.setCapture(args.on);
    return {
      structured: {
        ok: true,
        capture: args.on,
        folder: downloads.folder,
        note: args.on
          ? "downloads begun while an action runs are saved; others are cancelled"
          : "only a call with download: true saves a file (one per call)",
      },
    };
  },
});
