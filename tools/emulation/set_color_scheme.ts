/**
 * `set_color_scheme`: emulates prefers-color-scheme.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** The `set_color_scheme` tool. */
export const setColorSchemeTool = defineTool({
  name: "set_color_scheme",
  title: "Set color scheme",
  description: "Emulate prefers-color-scheme.",
  capability: "action",
  toolset: "emulation",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: EMULATION_OUTPUT,
  inputSchema: z.object({
    scheme: z.enum(["light", "dark", "no-preference"]).describe("no-preference: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    const colorScheme = args.scheme === "no-preference" ? null : args.scheme;
    return emulate(ctx, args.session, { colorScheme });
  },
});
