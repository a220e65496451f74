/**
 * `download_get`: the bytes of a file a session downloaded.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { MAX_BYTES, readDownload } from "../../browser/sessions/download_read.ts";

/** The `download_get` tool. */
export const downloadGetTool = defineTool({
  name: "download_get",
  title: "Read a download",
  description:
    "Read a downloaded file by id (from downloads_list or an action's downloads): text for text types, else base64; continue with offset.",
  capability: "file-io",
  toolset: "files",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    id: z.string(),
    filename: z.string(),
    path: z.string(),
    sizeBytes: z.number(),
    contentType: z.string(),
    encoding: z.string(),
    offset: z.number(),
    bytes: z.number(),
    truncated: z.boolean(),
    nextOffset: z.number(),
    content: z.string(),
  }),
  inputSchema: z.object({
    id: z.string().min(1).describe('Download id, e.g. "d1"'),
    offset: z.number().int().min(0).optional().describe("Byte offset (default 0)"),
    maxBytes: z.number().int().min(1).max(MAX_BYTES).optional().describe(
      "Per call (default 65536)",
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const page = await readDownload(ctx.sessions, ctx.config, args);
    return { structured: { ...page }, rawTextKeys: ["content"] };
  },
});
