/**
 * `list_routes`: the session's routes, newest first (the first that matches answers).
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { sessionField } from "../fields.ts";
import { ROUTES_OUTPUT, routeView } from "./route_fields.ts";

/** The `list_routes` tool. */
export const listRoutesTool = defineTool({
  name: "list_routes",
  title: "List routes",
  description: "The session's routes, newest first, with hits.",
  capability: "read",
  toolset: "testing",
  annotations: { readOnlyHint: true, openWorldHint: false },
  outputSchema: ROUTES_OUTPUT,
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const session = await ctx.sessions.get(args.session ?? "default");
    return { structured: { ok: true, routes: session.routes.list().map(routeView) } };
  },
});
