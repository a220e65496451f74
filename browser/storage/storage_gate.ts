/**
 * The origin policy for storage tools: cookies, localStorage, sessionStorage, IndexedDB, the
 * Cache API and storage states reach only origins a tab may reach. The allowlist, the
 * blocklist and (with the `human` capability) per-site approvals judge a storage call's origin
 * as they judge a navigation there (`navigation_gate.ts`): a write asks where a navigate would
 * ask; a read of several origins (a cookie jar, a state dump) leaves out those the policy
 * stops. In an attached browser (someone else's) every storage write and clear is an action
 * in it: the `byob_action` hook.
 *
 * @module
 */
import type { CallContext } from "../call_context.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { followRefusal, gateNavigation } from "../nav_guard/navigation_gate.ts";
import { isOwnConsoleUrl } from "../../policy/own_console.ts";
import { originOf } from "../../policy/hosts.ts";
import { cookieReachesBlocked } from "../../policy/sites.ts";
import type { DumpPolicy } from "../../storage/storage_state.ts";

/** Where the session's active tab is (the "current site" of per-site approvals). */
function fromUrl(session: BrowserSession): string {
  return session.activePage?.url ?? "about:blank";
}

/**
 * Why the policy stops storage of `url`'s origin, or undefined when it does not: the
 * blocklist, the allowlist, a site not approved in this session (`human`), browxai's own
 * console. Pure over the session's approvals; asks nothing.
 */
export function storageRefusal(
  ctx: Pick<CallContext, "config">,
  session: BrowserSession,
  url: string,
  options: PolicyOptions = {},
): string | undefined {
  if (isOwnConsoleUrl(url, ctx.config.consoleListeners)) return "browxai's own console";
  return followRefusal(policyOf(ctx, options), session, url, fromUrl(session));
}

/**
 * `approvals: false`: judge by the allowlist and blocklist alone, not per-site approvals (a
 * session being opened has none yet: its first navigation asks).
 */
export interface PolicyOptions {
  approvals?: boolean;
}

/** The config a refusal judges by ({@link PolicyOptions}). */
function policyOf(ctx: Pick<CallContext, "config">, options: PolicyOptions) {
  if (options.approvals !== false || !ctx.config.capabilities.has("human")) return ctx.config;
  const capabilities = new Set([...ctx.config.capabilities].filter((c) => c !== "human"));
  return { ...ctx.config, capabilities };
}

/** The URL a cookie is sent to at its domain and path: what the origin policy judges. */
export function cookieUrl(
  c: { domain: string; path?: string | undefined; secure?: boolean },
): string {
  return `${c.secure ? "https" : "http"}://${c.domain.replace(/^\./, "")}${c.path || "/"}`;
}

/**
 * Why the policy stops a cookie of `domain` (`.a.example`: a domain cookie), or undefined:
 * {@link storageRefusal} of its URL, or a blocked host it reaches that its URL does not name
 * (a subdomain of a domain cookie, another port of its host). Pure; asks nothing.
 */
export function cookieRefusal(
  ctx: Pick<CallContext, "config">,
  session: BrowserSession,
  c: { domain: string; path?: string | undefined; secure?: boolean },
  options: PolicyOptions = {},
): string | undefined {
  const blocked = cookieReachesBlocked(c.domain, ctx.config.blockedOrigins ?? []);
  if (blocked) return `it reaches blocked ${blocked.source}`;
  return storageRefusal(ctx, session, cookieUrl(c), options);
}

/**
 * What a dump of `session`'s storage leaves out (`dumpStorageState`): origins the policy stops
 * ({@link storageRefusal}), and cookies reaching a blocked host their origin does not name.
 */
export function dumpPolicy(
  ctx: Pick<CallContext, "config">,
  session: BrowserSession,
): DumpPolicy {
  const blocked = ctx.config.blockedOrigins ?? [];
  return {
    allowed: (url) => storageRefusal(ctx, session, url) === undefined,
    cookieStopped: (domain) => cookieReachesBlocked(domain, blocked) !== undefined,
  };
}

/**
 * Lets `tool` use the storage of `url`'s origin as a navigation there would be let: refused
 * off the allowlist (or asked through `navigate_off_allowlist`), on the blocklist, and with
 * `human` a new site asked once per session. `write` in an attached browser also asks
 * `byob_action`. Call it before the session's turn (a question must not hold the tab).
 *
 * @throws ToolError `blocked-by-policy` when refused.
 */
export async function gateStorage(
  ctx: CallContext,
  session: BrowserSession,
  request: { tool: string; url: string; write: boolean },
): Promise<void> {
  const { tool, url, write } = request;
  await gateNavigation(ctx, session, { tool, url, from: fromUrl(session) });
  if (write) await confirmAttachedWrite(ctx, session, tool, originOf(url) ?? url);
}

/**
 * In an attached browser (someone else's), asks `byob_action` before a storage write or clear
 * of `what` (an origin, `every cookie`); elsewhere nothing.
 *
 * @throws ToolError `blocked-by-policy` when refused.
 */
export async function confirmAttachedWrite(
  ctx: CallContext,
  session: BrowserSession,
  tool: string,
  what: string,
): Promise<void> {
  if (session.mode !== "attached") return;
  await ctx.confirm({
    hook: "byob_action",
    tool,
    session: session.id,
    summary: `${tool} on ${what} in the attached browser (its owner's storage)`,
  });
}
