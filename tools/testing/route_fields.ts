/**
 * What the route tools share: the session's routes as the agent reads them, and the
 * outputSchema of `unroute` / `list_routes`.
 *
 * @module
 */
import { z } from "zod";
import type { Route } from "../../browser/routes/routes.ts";
import { ERROR_OUTPUT } from "../output_schemas.ts";

/**
 * The `abort` values: the common `Network.ErrorReason`s in lower case (`blockedbyclient` →
 * `BlockedByClient`); fewer than CDP has, as every name costs tokens on every turn.
 */
export const ABORT_REASONS = {
  failed: "Failed",
  aborted: "Aborted",
  timedout: "TimedOut",
  accessdenied: "AccessDenied",
  connectionreset: "ConnectionReset",
  connectionrefused: "ConnectionRefused",
  namenotresolved: "NameNotResolved",
  internetdisconnected: "InternetDisconnected",
  blockedbyclient: "BlockedByClient",
} as const;

/** One route as `route` and `list_routes` show it. */
export interface RouteView {
  urlPattern: string;
  /** `fulfill` (a response) or `abort`. */
  action: "fulfill" | "abort";
  status?: number;
  /** The abort reason, as the agent wrote it. */
  abort?: string;
  /** Answers left (`times`); absent: every time. */
  timesLeft?: number;
  /** Requests it answered so far. */
  hits: number;
}

const REASON_NAMES = Object.fromEntries(
  Object.entries(ABORT_REASONS).map(([k, v]) => [v, k]),
) as Record<string, string>;

/** How the agent reads `route`. */
export function routeView(route: Route): RouteView {
  return {
    urlPattern: route.pattern,
    action: route.abort ? "abort" : "fulfill",
    ...(route.response ? { status: route.response.status } : {}),
    ...(route.abort ? { abort: REASON_NAMES[route.abort] ?? route.abort } : {}),
    ...(route.timesLeft !== undefined ? { timesLeft: route.timesLeft } : {}),
    hits: route.hits,
  };
}

/** A route in an outputSchema. */
const ROUTE_OUTPUT = z.object({
  urlPattern: z.string(),
  action: z.enum(["fulfill", "abort"]),
  status: z.number().optional(),
  abort: z.string().optional(),
  timesLeft: z.number().optional(),
  hits: z.number(),
}).loose();

/** outputSchema of `route`, `unroute` and `list_routes` (success or isError). */
export const ROUTES_OUTPUT = z.object({
  ok: z.boolean(),
  route: ROUTE_OUTPUT.optional(),
  count: z.number().optional(),
  removed: z.number().optional(),
  routes: z.array(ROUTE_OUTPUT).optional(),
  error: ERROR_OUTPUT.optional(),
}).loose();
