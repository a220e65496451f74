/**
 * `upload_file`: attach workspace files to a file input, directly (also a
 * hidden `<input type=file>`) or through the file chooser a button opens.
 *
 * @module
 */
import { z } from "zod";
import { actingFields, targetFields } from "../fields.ts";
import { runAction } from "../../browser/actions/run_action.ts";
import { checkTarget } from "../../browser/actions/target.ts";
import { confirmOnTarget } from "../../browser/actions/file_confirm.ts";
import { defineTool } from "../define_tool.ts";
import { actionOutput, anyObject } from "../output_schemas.ts";
import { originOf } from "../../policy/hosts.ts";
import { ownConfigFiles } from "../../policy/server_config.ts";
import {
  attach,
  checkUploadPaths,
  MAX_FILES,
  privateCopies,
} from "../../browser/actions/upload_files.ts";

/** The `upload_file` tool. */
export const uploadFileTool = defineTool({
  name: "upload_file",
  title: "Upload files",
  description:
    "Attach workspace files to a file input: target the <input type=file> (hidden ones work) or the button that opens the chooser. Asks permission each call. Result: the input's files.",
  capability: "action",
  toolset: "files",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  outputSchema: actionOutput({
    upload: anyObject,
    refusedPaths: z.number(),
    missingPaths: z.number(),
  }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    paths: z.array(z.string()).min(1).max(MAX_FILES).describe(
      "Relative to the workspace (or absolute inside it)",
    ),
    session: actingFields.session,
    timeoutMs: actingFields.timeoutMs,
    snapshot: actingFields.snapshot,
  }),
  async handler(ctx, args) {
    checkTarget(args, "upload_file", { allowCoords: false });
    // The server's own files (audit log, profiles, the secrets file), other clients' files
    // and saved logins never go to a page; a client's own area (its downloads, dumps) may.
    const areas = ctx.sessions.areas;
    const files = await checkUploadPaths(ctx.config.workspace, args.paths, [
      ...areas.reserved,
      ".auth-states",
      areas.authStates(false),
      ...ownConfigFiles(ctx.config),
    ], areas.namespace === undefined ? [] : [areas.own]);
    const names = files.map((f) => f.split(/[\\/]/).pop()!);
    const session = await ctx.sessions.get(args.session ?? "default");
    const url = session.activePage?.url;
    // Told the input and the page; held to them after the yes (the page may navigate meanwhile).
    await confirmOnTarget(ctx, session, {
      hook: "file_upload",
      spec: args,
      ask: (on) =>
        ctx.confirm({
          hook: "file_upload",
          tool: "upload_file",
          session: session.id,
          summary: `attach ${names.map((n) => JSON.stringify(n)).join(", ")} to ${
            on ?? `a file input on ${url ? originOf(url) ?? "null" : "the page"}`
          }`,
          origin: url ? originOf(url) ?? "null" : undefined,
        }),
    });
    return await runAction(ctx, args, {
      type: "upload_file",
      target: args,
      actionInfo: { files: names },
      handlesFileChooser: true,
      async perform({ session, page, target, deadline, signal }) {
        if (target?.kind !== "element") throw new Error("upload_file needs an element target");
        const copies = await privateCopies(ctx.config.workspace, session, files);
        const held = await attach(session, page, target.handle, copies, { deadline, signal });
        return { upload: { input: held.input, files: held.files } };
      },
    });
  },
});
