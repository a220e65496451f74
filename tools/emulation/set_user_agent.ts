/**
 * `set_user_agent`: overrides the User-Agent header and navigator.userAgent.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { EMULATION_OUTPUT } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import { emulate } from "./emulate.ts";

/** The `set_user_agent` tool. */
export const setUserAgentTool = defineTool({
  name: "set_user_agent",
  title: "Set user agent",
  description: "Override the User-Agent header and navigator.userAgent.",
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
    userAgent: z.string().nullable().describe("null: reset"),
    session: sessionField,
  }),
  handler(ctx, args) {
    // Control characters (a NUL, a line break) make Chromium refuse the header; a huge one
    // makes every request fail.
    // deno-lint-ignore no-control-regex
    if (args.userAgent !== null && !/^[^\x00-\x1f\x7f]{1,1024}$/.test(args.userAgent)) {
      throw new ToolError(
        "invalid-argument",
        "userAgent must be one non-empty line of at most 1024 characters, no control characters",
        "pass null to reset",
      );
    }
    return emulate(ctx, args.session, { userAgent: args.userAgent });
  },
});
