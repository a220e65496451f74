/**
 * `name_ref`: give an element the agent holds a ref to a name it can use later (`named` on
 * every tool that takes a target).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";

/** The `name_ref` tool. */
export const nameRefTool = defineTool({
  name: "name_ref",
  title: "Name a ref",
  description:
    "Name an element by its ref; pass named instead of ref later. An alias: it fails as the ref fails once the element is gone. Naming again moves the name.",
  capability: "read",
  toolset: "power",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    name: z.string(),
    ref: z.string(),
    role: z.string(),
    label: z.string(),
    replaced: z.string(),
  }),
  inputSchema: z.object({
    name: z.string().describe("e.g. save_button"),
    ref: z.string().describe("e.g. e12"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    // The element's role and name are echoed: a wrong ref shows at once (a new user named a
    // tab "dark" by mistake and clicked it later).
    const { ref, role, label, replaced } = session.named.set(args.name, args.ref);
    return {
      structured: { name: args.name, ref, role, label, ...(replaced ? { replaced } : {}) },
    };
  },
});
