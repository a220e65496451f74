/**
 * Where the navigation guard meets the session's routes (`../routes/`): the `Fetch.enable`
 * patterns of a guarded target (what the guard holds, the routes' URLs, `--blocked-origins`),
 * a request the policy let through handed to the routes, and a route's event saying the
 * policy refused a request it matched.
 *
 * CDP: `Fetch.continueRequest` (no routes), else what `answerPassed` sends.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { SessionRoutes } from "../routes/routes.ts";
import { answerPassed, type PausedForRoute } from "../routes/route_answer.ts";
import type { NavPolicy } from "./nav_guard_types.ts";

/** The requests held: documents, and what a script may send a form with. */
const HELD = (["Document", "XHR", "Fetch", "Ping"] as const).map((resourceType) => ({
  resourceType,
  requestStage: "Request" as const,
}));

/**
 * The `Fetch.enable` patterns: documents and script writes (every request with bound
 * secrets), the URLs of the session's routes and of `--blocked-origins`.
 */
export function fetchPatterns(policy: NavPolicy, routes: SessionRoutes | undefined): Array<
  {
    urlPattern?: string;
    resourceType?: typeof HELD[number]["resourceType"];
    requestStage: "Request";
  }
> {
  if (policy.secretLeak) return [{ requestStage: "Request" }];
  const routed = routes?.cdpPatterns() ?? [];
  // Blocked origins too: Network.setBlockedURLs misses worklets and requests sent in unload.
  const blocked = policy.blockedFetch ?? [];
  return [
    ...HELD,
    ...[...routed, ...blocked].map((urlPattern) => ({
      urlPattern,
      requestStage: "Request" as const,
    })),
  ];
}

/**
 * A request the policy let through: a route answers it, or it continues. `routed`: told the
 * network request id and the pattern of each request a route answered.
 */
export async function passToRoutes(
  session: CdpSession,
  e: PausedForRoute,
  context: {
    policy: NavPolicy;
    routes: SessionRoutes | undefined;
    targetId: string;
    routed: (networkId: string, pattern: string) => void;
  },
): Promise<void> {
  const { policy, routes } = context;
  if (!routes) {
    await session.send("Fetch.continueRequest", { requestId: e.requestId });
    return;
  }
  await answerPassed(session, e, {
    routes,
    targetId: context.targetId,
    allowlisted: (url) => policy.allowlisted(url),
    ownConsole: (url) => policy.ownConsole?.(url) === true,
    routed: context.routed,
  });
}

/** A request the policy refused: a route that matches it did not answer it (say so). */
export function noteRefusedRoute(
  routes: SessionRoutes | undefined,
  request: { targetId: string; url: string; why: string },
): void {
  const { targetId, url, why } = request;
  const route = routes?.matching(url, targetId);
  if (!route || route.abort) return;
  routes!.note({
    url,
    pattern: route.pattern,
    action: "refused",
    why: `blocked by policy: ${why}`,
  });
}
