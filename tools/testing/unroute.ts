/**
 * `unroute`: removes the session's route of one URL pattern, or all of them.
 * Requests already answered stay answered; the next ones reach the server.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { ROUTES_OUTPUT, routeView } from "./route_fields.ts";

/** The `unroute` tool. */
export const unrouteTool = defineTool({
  name: "unroute",
  title: "Remove routes",
  description: "Remove the route of urlPattern, or all.",
  capability: "action",
  toolset: "testing",
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: ROUTES_OUTPUT,
  inputSchema: z.object({
    urlPattern: z.string().min(1).optional().describe("As given to route"),
    all: z.boolean().optional().describe("Every route"),
    session: sessionField,
  }),
  async handler(ctx, args) {
    if ((args.urlPattern === undefined) === (args.all !== true)) {
      throw new ToolError(
        "invalid-argument",
        args.all ? "Pass urlPattern or all, not both" : "unroute needs urlPattern or all: true",
        "list_routes shows the patterns",
      );
    }
    const session = await ctx.sessions.get(args.session ?? "default");
    const removed = session.routes.remove(args.all ? undefined : args.urlPattern);
    await session.routes.applied();
    return {
      structured: { ok: true, removed, routes: session.routes.list().map(routeView) },
    };
  },
});
