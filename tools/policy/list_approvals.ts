/**
 * `list_approvals`: the live session pre-approvals (seed 000), as `approve_actions` granted
 * them.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { iso } from "./grant_times.ts";

/** The `list_approvals` tool. */
export const listApprovalsTool = defineTool({
  name: "list_approvals",
  title: "List pre-approvals",
  description:
    "Live pre-approvals: scope, sessionId (absent: every session), grantedAt, expiresAt, uses, remainingMs.",
  capability: "read",
  toolset: "policy",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ approvals: objectList }),
  inputSchema: z.object({}),
  handler(ctx) {
    const approvals = ctx.approvals.list().map((g) => ({
      scope: g.scope,
      ...(g.sessionId ? { sessionId: g.sessionId } : {}),
      grantedAt: iso(g.grantedAt),
      expiresAt: iso(g.expiresAt),
      uses: g.uses,
      remainingMs: g.remainingMs,
    }));
    return Promise.resolve({ structured: { approvals } });
  },
});
