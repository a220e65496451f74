/**
 * The secrets gate of storage writes: many apps run what their storage holds (`eval` of a
 * stored script, stored HTML set as `innerHTML` with an `<img onerror>`), so a value the agent
 * writes into the storage of a page that may hold a filled secret is code that can read the
 * secret out of its field and show it where the agent reads (the red team recovered a bound
 * secret so through `localstorage_set`, `idb_put`, `cookies_set` and `inject_storage_state`).
 * Such a write needs what running code there needs: the `eval` capability, as `caches_put` and
 * a route's response do. Writes elsewhere, and every write while no bound secret can be filled
 * (no `secrets` capability, or no secret bound to origins), are not affected.
 *
 * @module
 */
import type { CallContext } from "../call_context.ts";
import type { StorageState } from "../../storage/storage_state.ts";
import { ToolError } from "../tool_error.ts";

/** Where a storage write puts values: origins (web storage, IndexedDB) and cookie domains. */
export interface StoredCodeTargets {
  /** Origins whose storage is written, e.g. `http://127.0.0.1:8080`. */
  origins?: readonly string[];
  /** Domains of cookies written, e.g. `.example.com` or `app.example.com`. */
  cookieDomains?: readonly string[];
}

/**
 * Refuses `tool`'s write when a page it reaches may hold a filled bound secret (its origin is
 * on a bound secret's list, or a cookie's domain covers such an origin's host) and the `eval`
 * capability is not enabled. An unbound secret may be filled into any page, the agent's own
 * choice of site included, so no origin keeps it and no write is gated for it. Pure over the
 * config: asks nothing.
 *
 * @throws ToolError `capability-required` (`requiredCapability: "eval"`, `policy.rule`
 *   `secret-storage`) naming the first origin or domain and the secrets' names (never values).
 */
export function requireEvalForStoredCode(
  ctx: Pick<CallContext, "config">,
  tool: string,
  targets: StoredCodeTargets,
): void {
  const { capabilities, secrets } = ctx.config;
  // Without `secrets` no placeholder is filled: no page holds a value to take.
  if (capabilities.has("eval") || !capabilities.has("secrets") || !secrets?.bound().length) return;
  const hits: Array<{ where: string; names: string[] }> = [
    ...(targets.origins ?? []).map((o) => ({ where: o, names: secrets.boundAt(o) })),
    ...(targets.cookieDomains ?? []).map((d) => ({
      where: `cookies of ${d}`,
      names: secrets.boundUnderCookie(d),
    })),
  ].filter((h) => h.names.length > 0);
  const first = hits[0];
  if (!first) return;
  throw new ToolError(
    "capability-required",
    `Refused "${tool}": secrets (${first.names.join(", ")}) may be filled into pages of ` +
      `${first.where}${hits.length > 1 ? ` (and ${hits.length - 1} more)` : ""}, and a page ` +
      'may run what its storage holds, so this write needs capability "eval", which is not ' +
      "enabled; nothing was written",
    'write storage of origins no secret is filled into, or the operator can add "eval" to ' +
      "BROWX_CAPABILITIES (with it the agent can read filled secrets: README, Secrets)",
    { requiredCapability: "eval", policy: { rule: "secret-storage", decision: "refused" } },
  );
}

/** The origins and cookie domains a storage state writes ({@link requireEvalForStoredCode}). */
export function stateTargets(state: StorageState): StoredCodeTargets {
  return {
    origins: state.origins.filter((o) => o.localStorage.length > 0).map((o) => o.origin),
    cookieDomains: state.cookies.map((c) => c.domain).filter((d): d is string =>
      typeof d === "string" && d !== ""
    ),
  };
}
