/**
 * `cookies_delete`: deletes cookies of the session's browser context by name. The CDP work is in
 * `storage/cookies.ts`; registered secrets are masked in the results by the call wrapper, like in
 * every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { CookieError, deleteCookies } from "../../storage/cookies.ts";
import { cookieCall, gateCookieWrite, nameField, scopeOf } from "./cookie_fields.ts";
import { cookieRefusal } from "../../browser/storage/storage_gate.ts";

/** The `cookies_delete` tool. */
export const cookiesDeleteTool = defineTool({
  name: "cookies_delete",
  title: "Delete cookies",
  description: "Delete cookies by name, narrowed by url or domain/path.",
  capability: "action",
  toolset: "storage",
  // Destructive: the MCP default when readOnlyHint is not set.
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    deleted: z.number(),
    skipped: z.array(z.string()),
    note: z.string(),
  }),
  inputSchema: z.object({
    name: nameField,
    url: z.string().optional().describe("Only cookies matching this URL"),
    domain: z.string().optional().describe("Only this domain"),
    path: z.string().optional().describe("Only this path"),
    session: sessionField,
  }),
  handler(ctx, { session, ...filter }) {
    return cookieCall(async () => {
      if (filter.url !== undefined && (filter.domain ?? filter.path) !== undefined) {
        throw new CookieError(
          `cookies_delete takes url, or domain and/or path, not both`,
          "pass url to delete the cookies sent to it, or the exact domain and path",
        );
      }
      await gateCookieWrite(ctx, session, "cookies_delete", filter);
      // By name alone it reaches every site's cookie of that name: only those the policy lets
      // a tab reach go (cookie_fields.ts); the rest stay, named.
      const s = await ctx.sessions.get(session ?? "default");
      const { deleted, skipped } = await deleteCookies(await scopeOf(ctx, session), filter, {
        allowed: (c) => cookieRefusal(ctx, s, c) === undefined,
      });
      return {
        structured: {
          ok: true,
          deleted,
          ...(skipped.length
            ? {
              skipped,
              note: "skipped: cookies of origins the policy stops (allowlist, blocklist, " +
                "sites not approved) were kept",
            }
            : {}),
        },
      };
    });
  },
});
