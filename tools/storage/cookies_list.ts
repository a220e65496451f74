/**
 * `cookies_list`: the cookies of the session's browser context. The CDP work is in
 * `storage/cookies.ts`; registered secrets are masked in the results by the call wrapper, like in
 * every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { objectList, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { listCookies, parseCookieUrl } from "../../storage/cookies.ts";
import { allowedCookies, cookieCall, scopeOf } from "./cookie_fields.ts";

/** The `cookies_list` tool. */
export const cookiesListTool = defineTool({
  name: "cookies_list",
  title: "List cookies",
  description: "List cookies, or only those sent to any of urls.",
  capability: "read",
  toolset: "storage",
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ count: z.number(), cookies: objectList }),
  inputSchema: z.object({
    urls: z.array(z.string()).optional().describe("Only cookies sent to one of these URLs"),
    session: sessionField,
  }),
  handler(ctx, args) {
    return cookieCall(async () => {
      const urls = (args.urls ?? []).map((u, i) => parseCookieUrl(u, `urls[${i}]`));
      const all = await listCookies(await scopeOf(ctx, args.session), { urls });
      // Cookies of origins the policy stops are no tab's: left out, counted.
      const { cookies, withheld } = await allowedCookies(ctx, args.session, all);
      return {
        structured: { count: cookies.length, cookies, ...(withheld ? { withheld } : {}) },
      };
    });
  },
});
