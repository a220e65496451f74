/**
 * What the cookie tools (`cookies_get`, `cookies_list`, `cookies_set`, `cookies_delete`,
 * `cookies_clear`) share: the name field, the session's cookie scope (its browser context, no tab
 * or navigation needed) and the mapping of a {@link CookieError} to a ToolError.
 *
 * @module
 */
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { CookieError, type CookieScope } from "../../storage/cookies.ts";

/** The cookie name field. */
export const nameField = z.string().describe("Cookie name");

/** The session's cookie scope: its browser connection and context. */
export async function scopeOf(ctx: ToolContext, session: string | undefined): Promise<CookieScope> {
  const s = await ctx.sessions.get(session ?? "default");
  s.ensureAlive();
  s.lastUsed = Date.now();
  return { connection: s.browser.connection, browserContextId: s.browserContextId };
}

/** Runs `fn`, turning a {@link CookieError} into an `invalid-argument` ToolError. */
export async function cookieCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CookieError) throw new ToolError("invalid-argument", e.message, e.hint);
    throw e;
  }
}
