/**
 * `approve_actions`: session pre-approvals (seed 000).
 * The agent says yes to a confirm hook itself, so the operator has to opt
 * in (`self-approval`, off by default).
 *
 * @module
 */
import { z } from "zod";
import { MAX_GRANT_TTL_SECONDS } from "../../policy/approvals.ts";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { iso } from "./grant_times.ts";

/** The `approve_actions` tool. */
export const approveActionsTool = defineTool({
  name: "approve_actions",
  title: "Pre-approve confirm hooks",
  description:
    "Pre-approve confirm-hook scopes (navigate_off_allowlist, byob_action, file_download, file_upload, submit; never publish) for ttlSeconds, so hooked actions pass without asking the human. Re-granting resets the TTL.",
  capability: "self-approval",
  toolset: "policy",
  changesPolicy: true,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ granted: objectList, note: z.string() }),
  inputSchema: z.object({
    scopes: z.array(z.string()).describe("Hook names"),
    ttlSeconds: z.number().int().optional().describe(
      `Default 3600, max ${MAX_GRANT_TTL_SECONDS}`,
    ),
  }),
  handler(ctx, args) {
    let grants;
    try {
      grants = ctx.approvals.grant(args.scopes, args.ttlSeconds);
    } catch (e) {
      throw new ToolError(
        "invalid-argument",
        `Cannot pre-approve: ${(e as Error).message}`,
        "scopes: navigate_off_allowlist, byob_action, file_download, file_upload, submit; " +
          `ttlSeconds: 1-${MAX_GRANT_TTL_SECONDS}`,
      );
    }
    const notHooked = args.scopes.filter((s) => !ctx.config.confirmRequired.has(s as never));
    return Promise.resolve({
      structured: {
        ok: true,
        granted: grants.map((g) => ({
          scope: g.scope,
          grantedAt: iso(g.grantedAt),
          expiresAt: iso(g.expiresAt),
        })),
        ...(notHooked.length
          ? {
            note: `not in BROWX_CONFIRM_REQUIRED, so never asked anyway: ${notHooked.join(", ")}`,
          }
          : {}),
      },
    });
  },
});
