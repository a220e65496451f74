/**
 * `dom_read`: the DOM as a tree of tags with id, class and refs (seed 003).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { refField, sessionField } from "../fields.ts";
import {
  DEFAULT_DOM_DEPTH,
  MAX_DOM_DEPTH,
  MAX_DOM_NODES,
  readDom,
} from "../../browser/inspect/dom_tree.ts";

/** The `dom_read` tool. */
export const domReadTool = defineTool({
  name: "dom_read",
  title: "Read DOM",
  description:
    `The DOM as tags (#id .class [ref=eN]), ≤ ${MAX_DOM_NODES} nodes; (N): N children not shown.`,
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  outputSchema: resultOutput({
    ref: z.string(),
    depth: z.number(),
    nodes: z.number(),
    truncated: z.boolean(),
    hint: z.string(),
    root: anyObject,
    tree: z.string(),
  }),
  inputSchema: z.object({
    ref: refField,
    depth: z.number().int().min(0).max(MAX_DOM_DEPTH).optional().describe(
      `Levels of children (default ${DEFAULT_DOM_DEPTH})`,
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const depth = args.depth ?? DEFAULT_DOM_DEPTH;
    const read = await readDom(page, session.refs, { ref: args.ref, depth, signal: ctx.signal });
    return {
      structured: {
        ...(args.ref ? { ref: args.ref } : {}),
        depth,
        nodes: read.nodes,
        truncated: read.truncated,
        ...(read.truncated
          ? { hint: "the node cap cut the tree: dom_read a subtree by its ref" }
          : {}),
        root: read.root,
        tree: read.outline,
      },
      rawTextKeys: ["tree"],
      // The text carries the tree once, as the outline.
      textOmit: ["root"],
    };
  },
});
