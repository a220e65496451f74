/**
 * `cookies_get`: a cookie of the session's browser context by name. The CDP work is in
 * `storage/cookies.ts`; registered secrets are masked in the results by the call wrapper, like in
 * every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { listCookies, parseCookieUrl } from "../../storage/cookies.ts";
import { mostSpecific } from "../../storage/cookie_match.ts";
import { allowedCookies, cookieCall, nameField, scopeOf } from "./cookie_fields.ts";

/** The `cookies_get` tool. */
export const cookiesGetTool = defineTool({
  name: "cookies_get",
  title: "Get cookie",
  description: "Get a cookie by name (with url: the one sent to it).",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({
    found: z.boolean(),
    cookie: anyObject.nullable(),
    matches: z.number(),
  }),
  inputSchema: z.object({
    name: nameField,
    url: z.string().optional().describe("Only a cookie sent to this URL"),
    session: sessionField,
  }),
  handler(ctx, args) {
    return cookieCall(async () => {
      const urls = args.url === undefined ? [] : [parseCookieUrl(args.url)];
      const scope = await scopeOf(ctx, args.session);
      const { cookies } = await allowedCookies(
        ctx,
        args.session,
        await listCookies(scope, { urls }),
      );
      const named = cookies.filter((c) => c.name === args.name);
      return {
        structured: {
          // `found` survives in the text, where a null cookie is left out as empty.
          found: named.length > 0,
          cookie: mostSpecific(named) ?? null,
          ...(named.length > 1 ? { matches: named.length } : {}),
        },
      };
    });
  },
});
