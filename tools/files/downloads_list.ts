/**
 * `downloads_list`: the files a session downloaded, oldest first.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { downloadEntry } from "../../browser/sessions/download_types.ts";
import { downloadsOf } from "../../browser/sessions/downloads.ts";

/** The `downloads_list` tool. */
export const downloadsListTool = defineTool({
  name: "downloads_list",
  title: "List downloads",
  description:
    "The files this session downloaded, oldest first: id (for download_get), filename, path, sizeBytes, url, urlOrigin. Blocked or failed downloads are not listed.",
  capability: "read",
  toolset: "files",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ downloads: objectList }),
  inputSchema: z.object({
    session: sessionField,
  }),
  async handler(ctx, args) {
    const name = args.session ?? "default";
    // The default session is not opened (and no browser started) just to say "none".
    const open = ctx.sessions.list().find((s) => s.id === name);
    const session = open ?? (name === "default" ? undefined : await ctx.sessions.get(name));
    const records = session ? downloadsOf(session)?.list() ?? [] : [];
    return {
      structured: {
        ok: true,
        downloads: records.map((r) => ({
          ...downloadEntry(r),
          downloadedAt: new Date(r.startedAt).toISOString(),
        })),
      },
    };
  },
});
