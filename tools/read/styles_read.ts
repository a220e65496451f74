/**
 * `styles_read`: an element's computed styles and inline style (seed 003).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { DEFAULT_TIMEOUT_MS, sessionField, targetFields } from "../fields.ts";
import { checkTarget, resolveTarget } from "../../browser/actions/target.ts";
import { releaseHandle } from "../../browser/injected/mod.ts";
import { readStyles } from "../../browser/inspect/element_styles.ts";

/** The `styles_read` tool. */
export const stylesReadTool = defineTool({
  name: "styles_read",
  title: "Read styles",
  description: "An element's computed styles (default: a design set) and its inline style.",
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
    named: z.string(),
    selector: z.string(),
    properties: anyObject,
    inline_style: z.string(),
    unknown: z.array(z.string()),
    warnings: z.array(z.string()),
  }),
  inputSchema: z.object({
    ref: targetFields.ref,
    named: targetFields.named,
    selector: targetFields.selector,
    properties: z.array(z.string().min(1)).min(1).max(200).optional().describe(
      'CSS properties; ["*"]: all',
    ),
    session: sessionField,
  }),
  async handler(ctx, args) {
    checkTarget(args, "styles_read", { allowCoords: false });
    const session = await ctx.sessions.get(args.session ?? "default");
    const page = await session.exclusive(() => session.page());
    const target = await resolveTarget(session, page, args, {
      deadline: Date.now() + DEFAULT_TIMEOUT_MS,
      signal: ctx.signal,
    });
    if (target.kind !== "element") throw new Error("styles_read: a target without an element");
    try {
      const info = await readStyles(target.handle, args.properties, ctx.signal);
      return {
        structured: {
          ...(args.ref
            ? { ref: args.ref }
            : args.named
            ? { named: args.named }
            : { selector: args.selector }),
          properties: info.computed,
          inline_style: info.inline,
          ...(info.unknown.length
            ? {
              unknown: info.unknown,
              warnings: [`not CSS properties, skipped: ${info.unknown.join(", ")}`],
            }
            : {}),
        },
      };
    } finally {
      releaseHandle(target.handle);
    }
  },
});
