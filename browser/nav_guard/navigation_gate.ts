/**
 * The navigation gate: where a session's tab may go. The allowlist
 * (`BROWX_ALLOWED_ORIGINS`, its `navigate_off_allowlist` hook) and, with the
 * `human` capability, per-site approvals (seed 004): a new site is asked
 * once per session, moving within a site is not, and hostless URLs
 * (`file:`, `data:`, …) are asked every time.
 *
 * @module
 */
import { allowlistAllows, isBlankUrl, matchesPattern, siteDecision } from "../../policy/sites.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import type { CallContext } from "../call_context.ts";
import { ToolError } from "../tool_error.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { NavGuard } from "./nav_guard.ts";
import { originOf, siteOf } from "../../policy/hosts.ts";
import { isOwnConsoleUrl } from "../../policy/own_console.ts";
import { secretLeakFinder } from "./secret_leaks.ts";
import { blockedFetchPatterns, blockedUrlPatterns } from "../../policy/blocked_urls.ts";

type PolicyConfig = Pick<ServerConfig, "allowedOrigins" | "blockedOrigins" | "capabilities"> & {
  secrets?: ServerConfig["secrets"];
  confirmRequired?: ServerConfig["confirmRequired"];
  consoleListeners?: ServerConfig["consoleListeners"];
};

/**
 * True when `url` is on the blocklist (`--blocked-origins`); a loopback entry covers every
 * loopback name and address on its port (`localhost`, `0.0.0.0`, … for `127.0.0.1:B`).
 */
export function blocklisted(config: PolicyConfig, url: string): boolean {
  const blocked = config.blockedOrigins ?? [];
  return blocked.length > 0 && !isBlankUrl(url) &&
    blocked.some((p) => matchesPattern(url, p, { loopbackAliases: true }));
}

/**
 * True when the allowlist lets the tab go to `url` (no list: always) and the blocklist does
 * not stop it (a URL on both is blocked, as the peer's `--blocked-origins` says).
 */
export function allowlisted(config: PolicyConfig, url: string): boolean {
  return allowlistAllows(url, config.allowedOrigins ?? []) && !blocklisted(config, url);
}

/**
 * Whether a page-initiated navigation (a click, a script, a redirect) may
 * take the tab to `url` without asking: on the allowlist, and on the tab's
 * site or one approved in this session. Pages are never asked for: the
 * agent navigates there itself to be asked.
 */
export function mayFollow(
  config: PolicyConfig,
  session: BrowserSession,
  url: string,
  from: string,
): boolean {
  return followRefusal(config, session, url, from) === undefined;
}

/**
 * Why the page may not take a frame to `url` from `from` without asking
 * ("blocked origin (--blocked-origins)", "not on the allowlist", "site x.com not approved in
 * this session"), or
 * undefined when it may (see {@link mayFollow}). An iframe of a site not
 * approved is refused, never asked: pages load frames unprompted, and a
 * question per ad frame would be noise; navigating there asks.
 */
export function followRefusal(
  config: PolicyConfig,
  session: BrowserSession,
  url: string,
  from: string,
): string | undefined {
  if (blocklisted(config, url)) return "blocked origin (--blocked-origins)";
  if (!allowlisted(config, url)) return "not on the allowlist";
  if (!config.capabilities.has("human")) return undefined;
  const site = siteOf(url);
  if (siteDecision(url, site, siteOf(from), session.approvedSites) !== "ask") return undefined;
  return site ? `site ${site} not approved in this session` : "a hostless URL, asked every time";
}

/** The navigation guard of a new session, judging by this configuration (see `nav_guard.ts`). */
export function navGuardFor(config: PolicyConfig): (session: BrowserSession) => NavGuard {
  const secretLeak = secretLeakFinder(config.secrets);
  return (session) =>
    new NavGuard({
      refusal: (url, from) => followRefusal(config, session, url, from),
      allowlisted: (url) => allowlisted(config, url),
      ...(secretLeak ? { secretLeak } : {}),
      ownConsole: (url) => isOwnConsoleUrl(url, config.consoleListeners),
      blockedUrls: blockedUrlPatterns(config.blockedOrigins ?? []),
      blockedFetch: blockedFetchPatterns(config.blockedOrigins ?? []),
      blocked: (url) => blocklisted(config, url),
      limitsOrigins: (config.allowedOrigins ?? []).length > 0,
      confirmsSends: config.confirmRequired?.has("submit") === true ||
        config.confirmRequired?.has("publish") === true,
      limitsNavigation: (config.allowedOrigins ?? []).length > 0 ||
        (config.blockedOrigins ?? []).length > 0 ||
        config.capabilities.has("human") || secretLeak !== undefined,
    }, (networkId, why) =>
      session.logs.markBlocked(networkId, why), {
      routes: session.routes,
      routed: (networkId, pattern) =>
        session.logs.markRouted(networkId, pattern),
      stoppedBetween: (b) => session.between.stopped(b),
    });
}

/**
 * Lets `tool` move `session`'s tab from `from` to `url`, asking where the
 * policy says to. Resolves when it may; a site a human approved is
 * remembered for the session.
 *
 * @throws ToolError `blocked-by-policy` (off the allowlist with no hook, or a refusal).
 */
export async function gateNavigation(
  ctx: CallContext,
  session: BrowserSession,
  request: { tool: string; url: string; from: string },
): Promise<void> {
  const { tool, url } = request;
  // For messages: a hostless URL's scheme; a URL that does not parse, itself.
  const origin = originOf(url, { opaque: "scheme" }) ?? url;
  if (isOwnConsoleUrl(url, ctx.config.consoleListeners)) {
    // Its buttons answer the agent's own questions where a person's cookie is (own_console.ts).
    throw new ToolError(
      "blocked-by-policy",
      `policy: ${origin} is browxai's own web console (or MCP endpoint): the agent never goes there`,
      "carry on elsewhere; a person watches and answers in the console",
      { policy: { rule: "own-console", decision: "refused" }, url },
    );
  }
  if (blocklisted(ctx.config, url)) {
    throw new ToolError(
      "blocked-by-policy",
      `policy: ${origin} is on the navigation blocklist (--blocked-origins)`,
      "carry on elsewhere; the operator sets --blocked-origins",
      { policy: { rule: "blocklist", decision: "refused" }, url },
    );
  }
  if (!allowlisted(ctx.config, url)) {
    if (!ctx.config.confirmRequired.has("navigate_off_allowlist")) {
      throw new ToolError(
        "blocked-by-policy",
        `policy: ${origin} is not on the navigation allowlist`,
        `stay within ${
          (ctx.config.allowedOrigins ?? []).map((p) => p.source).join(", ")
        }; the operator can add it to --allowed-origins or BROWX_ALLOWED_ORIGINS`,
        { policy: { rule: "allowlist", decision: "refused" }, url },
      );
    }
    const outcome = await ctx.confirm({
      hook: "navigate_off_allowlist",
      tool,
      session: session.id,
      summary: `go to ${url}, which is not on the allowlist`,
      origin,
    });
    // The human just said yes to this very URL: asking again about its site would be noise.
    if (outcome.decision === "approved") {
      const site = siteOf(url);
      if (site) session.approvedSites.add(site);
      return;
    }
  }
  if (!ctx.config.capabilities.has("human")) return;
  const site = siteOf(url);
  const decision = siteDecision(url, site, siteOf(request.from), session.approvedSites);
  if (decision !== "ask") return;
  await ctx.confirm({
    hook: "site_visit",
    tool,
    session: session.id,
    summary: site ? `go to a new site, ${site} (${url})` : `open ${url.slice(0, 200)}`,
    origin,
  });
  if (site) session.approvedSites.add(site);
}
