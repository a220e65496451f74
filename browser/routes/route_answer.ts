/**
 * The last step of the one `Fetch.requestPaused` handling of a target, after
 * the navigation guard let a request through: a route answers it (a response
 * of the agent's, or a failure), else it continues to the network.
 *
 * What a route may not do:
 * - touch browxai's own web console or MCP endpoint (a routed page on its
 *   origin would carry the person's cookie there, or show them a fake console);
 * - serve a response for a URL the policy blocks (off the allowlist): the
 *   request goes on as it would without the route, and the result says
 *   `refused` (aborting it is allowed: that only takes away).
 *
 * What a route serves runs as the site's own content (a document's scripts,
 * a script, HTML a page puts into `innerHTML`), so serving a response needs
 * the `eval` capability, checked when the route is made (`tools/testing/route.ts`);
 * aborting does not. Nothing here filters by resource type: a page may run
 * any text it fetches.
 *
 * A cross-origin request answered by a route gets
 * `Access-Control-Allow-Origin: <its Origin>` (and credentials) unless the
 * route set it, and its CORS preflight is answered for it, so a page's
 * `fetch` sees the routed answer as a same-origin one would.
 *
 * CDP: `Fetch.continueRequest`, `Fetch.fulfillRequest`, `Fetch.failRequest`.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import type { Route, SessionRoutes } from "./routes.ts";

/** What the handler knows of a paused request (`Fetch.requestPaused`). */
export interface PausedForRoute {
  requestId: string;
  networkId?: string;
  resourceType: string;
  request: { url: string; method: string; headers: Record<string, string> };
}

/** What {@link answerPassed} needs besides the request. */
export interface RouteContext {
  routes: SessionRoutes;
  /** The target the request belongs to (scratch tabs are exempt). */
  targetId: string;
  /** True when the policy lets a page load `url` (the allowlist); a route serves nothing else. */
  allowlisted(url: string): boolean;
  /** True when `url` is browxai's own console or MCP endpoint: no route touches it. */
  ownConsole?: (url: string) => boolean;
  /** Tells the network log a route answered request `networkId`. */
  routed(networkId: string, pattern: string): void;
}

/**
 * Answers a request the policy let through: by the newest matching route, or
 * `Fetch.continueRequest`.
 */
export async function answerPassed(
  session: CdpSession,
  e: PausedForRoute,
  c: RouteContext,
): Promise<void> {
  const go = () => session.send("Fetch.continueRequest", { requestId: e.requestId });
  const url = e.request.url;
  const route = c.routes.matching(url, c.targetId);
  if (!route) return void await go();
  const note = (action: "fulfilled" | "aborted" | "refused", more: object = {}) =>
    c.routes.note({ url, method: e.request.method, pattern: route.pattern, action, ...more });
  if (c.ownConsole?.(url)) {
    // A page of the agent's on the console's origin would carry the person's cookie there.
    note("refused", { why: "browxai's own console: never routed" });
    return void await go();
  }
  if (route.abort) {
    c.routes.use(route);
    if (e.networkId) c.routed(e.networkId, route.pattern);
    note("aborted");
    await session.send("Fetch.failRequest", {
      requestId: e.requestId,
      errorReason: route.abort as "Failed",
    });
    return;
  }
  if (!c.allowlisted(url)) {
    note("refused", { why: "blocked by policy: not on the allowlist" });
    return void await go();
  }
  const origin = header(e.request.headers, "origin");
  if (isPreflight(e)) {
    // Not a use of the route: the request it clears comes next.
    await session.send("Fetch.fulfillRequest", {
      requestId: e.requestId,
      responseCode: 204,
      responseHeaders: preflightHeaders(e.request.headers, origin),
    });
    return;
  }
  c.routes.use(route);
  if (e.networkId) c.routed(e.networkId, route.pattern);
  const response = route.response!;
  try {
    await session.send("Fetch.fulfillRequest", {
      requestId: e.requestId,
      responseCode: response.status,
      responseHeaders: servedHeaders(route, origin),
      body: response.body,
    });
    note("fulfilled", { status: response.status });
  } catch (err) {
    if (isTargetClosedError(err)) throw err;
    // Chromium refused the response (a header it will not send): the request must not hang.
    note("refused", { why: `Chromium refused the response: ${(err as Error).message}` });
    await session.send("Fetch.failRequest", { requestId: e.requestId, errorReason: "Failed" });
  }
}

/** The headers a route serves: its own, plus CORS for a cross-origin caller. */
function servedHeaders(
  route: Route,
  origin: string | undefined,
): Array<{ name: string; value: string }> {
  const out = [...route.response!.headers];
  const has = (name: string) => out.some((h) => h.name.toLowerCase() === name);
  if (origin && origin !== "null" && !has("access-control-allow-origin")) {
    out.push(
      { name: "Access-Control-Allow-Origin", value: origin },
      { name: "Access-Control-Allow-Credentials", value: "true" },
      { name: "Vary", value: "Origin" },
    );
  }
  return out;
}

function isPreflight(e: PausedForRoute): boolean {
  return e.resourceType === "Preflight" ||
    (e.request.method === "OPTIONS" &&
      header(e.request.headers, "access-control-request-method") !== undefined);
}

function preflightHeaders(
  headers: Record<string, string>,
  origin: string | undefined,
): Array<{ name: string; value: string }> {
  const methods = header(headers, "access-control-request-method") ?? "GET";
  const asked = header(headers, "access-control-request-headers");
  return [
    { name: "Access-Control-Allow-Origin", value: origin ?? "*" },
    { name: "Access-Control-Allow-Credentials", value: "true" },
    { name: "Access-Control-Allow-Methods", value: methods },
    ...(asked ? [{ name: "Access-Control-Allow-Headers", value: asked }] : []),
    { name: "Vary", value: "Origin" },
  ];
}

/** A request header by name, any case. */
function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}
