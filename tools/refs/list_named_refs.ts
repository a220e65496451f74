/**
 * `list_named_refs`: the names given with `name_ref` in a session.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";

/** The `list_named_refs` tool. */
export const listNamedRefsTool = defineTool({
  name: "list_named_refs",
  title: "List named refs",
  description:
    "Names given with name_ref: name, ref, the element's role and label when named, and known (false: its document was replaced, the name fails as ref-gone).",
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), named: objectList }),
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    // A ref whose document its frame no longer shows is gone, known to the registry or not.
    const named = session.named.list((e) =>
      session.tabs.find((t) => t.target.targetId === e.targetId)?.frame(e.frameId)?.loaderId ===
        e.loaderId
    );
    return { structured: { count: named.length, named } };
  },
});
