/**
 * `cookies_set`: sets a cookie in the session's browser context. The CDP work is in
 * `storage/cookies.ts`; registered secrets are masked in the results by the call wrapper, like in
 * every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import { anyObject, resultOutput } from "../output_schemas.ts";
import { sessionField } from "../fields.ts";
import { SAME_SITE, setCookie } from "../../storage/cookies.ts";
import { cookieCall, gateCookieWrite, nameField, scopeOf, targetDomain } from "./cookie_fields.ts";
import { requireEvalForStoredCode } from "../../browser/storage/stored_code_gate.ts";

/** The `cookies_set` tool. */
export const cookiesSetTool = defineTool({
  name: "cookies_set",
  title: "Set cookie",
  description: "Set a cookie for url, or for domain and path; returns it as stored.",
  capability: "action",
  toolset: "storage",
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  outputSchema: resultOutput({ cookie: anyObject }),
  inputSchema: z.object({
    name: nameField,
    value: z.string().describe("Cookie value"),
    url: z.string().optional().describe("Derives domain, path, secure"),
    domain: z.string().optional().describe("With path; .a.com: subdomains too"),
    path: z.string().optional().describe("With domain"),
    expires: z.number().optional().describe("Unix seconds; -1: session (default)"),
    httpOnly: z.boolean().optional().describe("HttpOnly"),
    secure: z.boolean().optional().describe("Secure"),
    sameSite: z.enum(SAME_SITE).optional().describe("SameSite"),
    session: sessionField,
  }),
  handler(ctx, { session, ...init }) {
    return cookieCall(async () => {
      // A value the page may run, where a filled secret may be (stored_code_gate.ts).
      const domain = targetDomain(init);
      if (domain) requireEvalForStoredCode(ctx, "cookies_set", { cookieDomains: [domain] });
      await gateCookieWrite(ctx, session, "cookies_set", init);
      const cookie = await setCookie(await scopeOf(ctx, session), init);
      return { structured: { ok: true, cookie } };
    });
  },
});
