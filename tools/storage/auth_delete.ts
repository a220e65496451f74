/**
 * `auth_delete`: deletes a saved auth state. Auth states are named storage states (storage layer 3)
 * at `<auth folder>/<name>.json` (see `auth_fields.ts`).
 *
 * @module
 */
import { authFile } from "../../browser/storage/auth_states.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { authTarget, removeGuarded } from "../../browser/storage/workspace_files.ts";
import { nameField } from "./auth_fields.ts";

/** The `auth_delete` tool. */
export const authDeleteTool = defineTool({
  name: "auth_delete",
  title: "Delete auth state",
  description: "Delete a saved auth state.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ existed: z.boolean() }),
  inputSchema: z.object({ name: nameField }),
  async handler(ctx, args) {
    const existed = await removeGuarded(authTarget(ctx), authFile(args.name));
    return { structured: { ok: true, existed } };
  },
});
