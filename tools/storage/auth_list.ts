/**
 * `auth_list`: the saved auth state names. Auth states are named storage states (storage layer 3)
 * at `<auth folder>/<name>.json` (see `auth_fields.ts`).
 *
 * @module
 */
import { AUTH_NAME } from "../../browser/storage/auth_states.ts";
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { authTarget, listGuarded } from "../../browser/storage/workspace_files.ts";

/** The `auth_list` tool. */
export const authListTool = defineTool({
  name: "auth_list",
  title: "List auth states",
  description: "List saved auth state names.",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), names: z.array(z.string()) }),
  inputSchema: z.object({}),
  async handler(ctx) {
    const names: string[] = [];
    for (const e of await listGuarded(authTarget(ctx))) {
      const name = e.name.replace(/\.json$/, "");
      if (e.name.endsWith(".json") && AUTH_NAME.test(name)) names.push(name);
    }
    // names stays [] when empty: structuredContent keeps the shape (the text prunes empties).
    return { structured: { count: names.length, names } };
  },
});
