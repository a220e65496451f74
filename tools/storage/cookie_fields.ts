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
import { type Cookie, CookieError, type CookieScope } from "../../storage/cookies.ts";
import {
  confirmAttachedWrite,
  cookieRefusal,
  cookieUrl,
  gateStorage,
} from "../../browser/storage/storage_gate.ts";
import { cookieReachesBlocked } from "../../policy/sites.ts";

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

/**
 * The domain of the cookie a write targets: `url`'s host (a host-only cookie), or `domain` as
 * a domain cookie (`.a.example`: Chromium widens a set domain so); undefined with neither.
 */
export function targetDomain(
  target: { url?: string | undefined; domain?: string | undefined },
): string | undefined {
  if (target.url !== undefined) {
    try {
      return new URL(target.url).hostname;
    } catch {
      return undefined; // setCookie says what is wrong with it
    }
  }
  if (target.domain === undefined) return undefined;
  return target.domain.startsWith(".") ? target.domain : `.${target.domain}`;
}

/**
 * Lets a cookie write of `tool` reach `target` (a cookie's `url`, or its `domain` and `path`)
 * as a navigation there would be let (and refuses a cookie that reaches a blocked host its URL
 * does not name: a subdomain, another port), and in an attached browser asks `byob_action`
 * (storage_gate.ts). Without either (a delete by name everywhere): only the attached
 * browser's question, about every cookie of that name.
 *
 * @throws ToolError `blocked-by-policy` when refused.
 */
export async function gateCookieWrite(
  ctx: ToolContext,
  session: string | undefined,
  tool: string,
  target: { url?: string | undefined; domain?: string | undefined; path?: string | undefined },
): Promise<void> {
  const s = await ctx.sessions.get(session ?? "default");
  const url = target.url ??
    (target.domain !== undefined
      ? cookieUrl({ domain: target.domain, path: target.path ?? "/", secure: true })
      : undefined);
  const domain = targetDomain(target);
  const blocked = domain && cookieReachesBlocked(domain, ctx.config.blockedOrigins ?? []);
  if (blocked) {
    throw new ToolError(
      "blocked-by-policy",
      `Refused "${tool}": a cookie of ${domain} is sent to blocked ${blocked.source}`,
      "set the cookie for a host (url) no blocked origin shares",
      { policy: { rule: "storage-origin", decision: "refused" } },
    );
  }
  if (url !== undefined) await gateStorage(ctx, s, { tool, url, write: true });
  else await confirmAttachedWrite(ctx, s, tool, "cookies of every site");
}

/**
 * `cookies` without those of origins the policy stops (off the allowlist, blocked, a site not
 * approved: storage_gate.ts), and how many were left out.
 */
export async function allowedCookies<C extends Pick<Cookie, "domain" | "path" | "secure">>(
  ctx: ToolContext,
  session: string | undefined,
  cookies: C[],
): Promise<{ cookies: C[]; withheld: number }> {
  const s = await ctx.sessions.get(session ?? "default");
  const kept = cookies.filter((c) => cookieRefusal(ctx, s, c) === undefined);
  return { cookies: kept, withheld: cookies.length - kept.length };
}
