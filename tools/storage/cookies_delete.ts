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
  outputSchema: resultOutput({ deleted: z.number() }),
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
      const deleted = await deleteCookies(await scopeOf(ctx, session), filter);
      return { structured: { ok: true, deleted } };
    });
  },
});
