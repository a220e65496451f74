/**
 * `cookies_get`, `cookies_list`, `cookies_set`, `cookies_delete`, `cookies_clear`: the
 * cookies of a session's browser context (its own context for incognito sessions), with no
 * tab or navigation needed. The CDP work is in `storage/cookies.ts`. Registered secrets are
 * masked in the results by the call wrapper, like in every result.
 *
 * @module
 */
import { z } from "zod";
import { defineTool } from "../define_tool.ts";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { sessionField } from "../fields.ts";
import {
  clearCookies,
  CookieError,
  type CookieScope,
  deleteCookies,
  listCookies,
  mostSpecific,
  parseCookieUrl,
  SAME_SITE,
  setCookie,
} from "../../storage/cookies.ts";

/** The shared session field, re-exported for the tools that import it from here. */
export { sessionField };

const nameField = z.string().describe("Cookie name");

/** The session's cookie scope: its browser connection and context. */
async function scopeOf(ctx: ToolContext, session: string | undefined): Promise<CookieScope> {
  const s = await ctx.sessions.get(session ?? "default");
  s.ensureAlive();
  s.lastUsed = Date.now();
  return { connection: s.browser.connection, browserContextId: s.browserContextId };
}

/** Runs `fn`, turning a {@link CookieError} into an `invalid-argument` ToolError. */
async function cookieCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CookieError) throw new ToolError("invalid-argument", e.message, e.hint);
    throw e;
  }
}

/** The `cookies_get` tool. */
export const cookiesGetTool = defineTool({
  name: "cookies_get",
  title: "Get cookie",
  description: "Get a cookie by name (with url: the one sent to it).",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    name: nameField,
    url: z.string().optional().describe("Only a cookie sent to this URL"),
    session: sessionField,
  }),
  handler(ctx, args) {
    return cookieCall(async () => {
      const urls = args.url === undefined ? [] : [parseCookieUrl(args.url)];
      const scope = await scopeOf(ctx, args.session);
      const named = (await listCookies(scope, { urls })).filter((c) => c.name === args.name);
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

/** The `cookies_list` tool. */
export const cookiesListTool = defineTool({
  name: "cookies_list",
  title: "List cookies",
  description: "List cookies, or only those sent to any of urls.",
  capability: "read",
  toolset: "storage",
  annotations: { readOnlyHint: true },
  inputSchema: z.object({
    urls: z.array(z.string()).optional().describe("Only cookies sent to one of these URLs"),
    session: sessionField,
  }),
  handler(ctx, args) {
    return cookieCall(async () => {
      const urls = (args.urls ?? []).map((u, i) => parseCookieUrl(u, `urls[${i}]`));
      const cookies = await listCookies(await scopeOf(ctx, args.session), { urls });
      return { structured: { count: cookies.length, cookies } };
    });
  },
});

/** The `cookies_set` tool. */
export const cookiesSetTool = defineTool({
  name: "cookies_set",
  title: "Set cookie",
  description: "Set a cookie for url, or for domain and path; returns it as stored.",
  capability: "action",
  toolset: "storage",
  annotations: { idempotentHint: true },
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
      const cookie = await setCookie(await scopeOf(ctx, session), init);
      return { structured: { ok: true, cookie } };
    });
  },
});

/** The `cookies_delete` tool. */
export const cookiesDeleteTool = defineTool({
  name: "cookies_delete",
  title: "Delete cookies",
  description: "Delete cookies by name, narrowed by url or domain/path.",
  capability: "action",
  toolset: "storage",
  // Destructive: the MCP default when readOnlyHint is not set.
  annotations: { idempotentHint: true },
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
      const deleted = await deleteCookies(await scopeOf(ctx, session), filter);
      return { structured: { ok: true, deleted } };
    });
  },
});

/** The `cookies_clear` tool. */
export const cookiesClearTool = defineTool({
  name: "cookies_clear",
  title: "Clear cookies",
  description: "Delete all cookies of the session (web storage is kept).",
  capability: "action",
  toolset: "storage",
  annotations: {},
  inputSchema: z.object({ session: sessionField }),
  async handler(ctx, args) {
    const cleared = await clearCookies(await scopeOf(ctx, args.session));
    return { structured: { ok: true, cleared } };
  },
});
