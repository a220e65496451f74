/**
 * `har_save`: the session's network log as a HAR 1.2 file in the workspace
 * (`browser/recording/har.ts` says what it leaves out, and the file says it in `log.comment`).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ERROR_OUTPUT } from "../output_schemas.ts";
import { buildHar } from "../../browser/recording/har.ts";
import { currentMasker } from "../../browser/secret_scope.ts";
import {
  checkOutputPath,
  defaultFileName,
  writeOutputFile,
} from "../../browser/recording/output_file.ts";

/** The `har_save` tool. */
export const harSaveTool = defineTool({
  name: "har_save",
  title: "Save network log as HAR",
  description:
    "Save the session's requests as a HAR file (headers, timings; bodies with network-body; credential headers left out).",
  capability: "action",
  toolset: "testing",
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  inputSchema: z.object({
    path: z.string().optional().describe("Workspace file (default network-<time>.har)"),
    session: sessionField,
  }),
  outputSchema: z.object({
    path: z.string().optional(),
    absolutePath: z.string().optional(),
    bytes: z.number().optional(),
    entries: z.number().optional(),
    pages: z.number().optional(),
    bodiesOmitted: z.boolean().optional(),
    headersLeftOut: z.record(z.string(), z.number()).optional(),
    requiredCapability: z.string().optional(),
    hint: z.string().optional(),
    error: ERROR_OUTPUT.optional(),
  }).loose(),
  async handler(ctx, args) {
    if (args.path !== undefined) await checkOutputPath(ctx, args.path);
    const session = await ctx.sessions.get(args.session ?? "default");
    const built = await buildHar(session, {
      bodies: ctx.config.capabilities.has("network-body"),
      masker: currentMasker(),
      version: ctx.config.version,
      signal: ctx.signal,
    });
    const path = args.path ?? defaultFileName("network", "har", { fallback: "network" });
    const bytes = new TextEncoder().encode(JSON.stringify(built.har, null, 1) + "\n");
    const file = await writeOutputFile(ctx, path, bytes);
    return {
      structured: {
        ...file,
        entries: built.entries,
        pages: built.pages,
        // What the file does not carry, by header name: how many times each.
        ...(Object.keys(built.headersLeftOut).length
          ? { headersLeftOut: built.headersLeftOut }
          : {}),
        ...(built.bodiesOmitted
          ? {
            bodiesOmitted: true,
            requiredCapability: "network-body",
            hint: "bodies need the network-body capability: the operator can add it to " +
              "BROWX_CAPABILITIES",
          }
          : {}),
      },
    };
  },
});
