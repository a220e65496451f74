/**
 * `artifact_list`: the session's artifacts. Artifacts are a session's named text or binary
 * payloads, kept in the client's artifact folder until the session closes (seed 000 "Per-session
 * artifacts").
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { artifactStore, nameError, session } from "./artifact_fields.ts";

/** The `artifact_list` tool. */
export const artifactListTool = defineTool({
  name: "artifact_list",
  title: "List artifacts",
  description: "This session's artifacts: name, size, mtime (by name).",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), artifacts: objectList }),
  inputSchema: z.object({ session }),
  async handler(ctx, args) {
    const store = artifactStore(ctx, args.session ?? "default");
    const artifacts = await store.list().catch(nameError);
    return { structured: { ok: true, count: artifacts.length, artifacts } };
  },
});
