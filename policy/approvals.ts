/**
 * Pre-approvals (`approve_actions`): grants that let a confirm hook pass
 * without asking a human, for a while. Pure bookkeeping over an injected
 * clock; the tool wrapper audits each grant and each use.
 *
 * @module
 */
import { type ConfirmHook, isConfirmHook } from "./hooks.ts";
import type { ConfirmRequest } from "./confirm.ts";
import { siteOf } from "./hosts.ts";

/** TTL of a grant when none is given, seconds. */
export const DEFAULT_GRANT_TTL_SECONDS = 3600;
/** Longest TTL a grant may have, seconds (24 h). */
export const MAX_GRANT_TTL_SECONDS = 86_400;

/**
 * Hooks a grant can never cover: publishing asks a human every time, since a
 * standing yes would let any later form post go out to an audience.
 */
export const UNGRANTABLE_HOOKS: readonly ConfirmHook[] = ["publish"];

/** A live grant. Times are ms since the epoch. */
export interface Grant {
  scope: ConfirmHook;
  /** Set on a grant that covers one session; absent: every session. */
  sessionId?: string;
  grantedAt: number;
  expiresAt: number;
  /** How many hooked actions it let through. */
  uses: number;
}

/** A grant as `list_approvals` shows it. */
export interface GrantView extends Grant {
  remainingMs: number;
}

/**
 * Checks `approve_actions` arguments: known, grantable scopes and a TTL in
 * range. Returns the TTL in seconds to use.
 *
 * @throws RangeError saying what was wrong and what is allowed.
 */
export function checkGrantRequest(scopes: readonly string[], ttlSeconds?: number): number {
  if (!scopes.length) throw new RangeError("scopes is empty: name at least one hook to approve");
  const unknown = scopes.filter((s) => !isConfirmHook(s));
  if (unknown.length) {
    throw new RangeError(
      `unknown scope ${unknown.map((u) => `"${u}"`).join(", ")}: scopes are confirm hook names`,
    );
  }
  const never = scopes.filter((s) => UNGRANTABLE_HOOKS.includes(s as ConfirmHook));
  if (never.length) {
    throw new RangeError(
      `"${never[0]}" cannot be pre-approved: each one needs a human's yes at the time`,
    );
  }
  const ttl = ttlSeconds ?? DEFAULT_GRANT_TTL_SECONDS;
  if (!Number.isFinite(ttl) || ttl <= 0 || ttl > MAX_GRANT_TTL_SECONDS) {
    throw new RangeError(
      `ttlSeconds ${ttlSeconds} is out of range: 1 to ${MAX_GRANT_TTL_SECONDS} (24 h)`,
    );
  }
  return ttl;
}

/**
 * Whether a human may answer `request` with "approve for this site" (the web console's
 * second button): the same hook, in the same session, on the same site, then passes without
 * asking until the session closes. Allowed for a grantable confirm hook acted on an
 * http(s) site in a named session. Refused (with why, for the console) for `publish` (asked
 * every time), `site_visit` (approving a visit already approves its site for the session),
 * `page_permission` (each use is asked), hostless origins (`file:`, `data:`: one approval
 * would cover every local file) and requests without a session.
 *
 * @returns `{ allowed: true, site }` (the registrable domain) or `{ allowed: false, why }`.
 */
export function siteScope(
  request: Pick<ConfirmRequest, "hook" | "session" | "origin">,
): { allowed: true; site: string } | { allowed: false; why: string } {
  const { hook } = request;
  if (hook === "site_visit") {
    return { allowed: false, why: "approving a new site already approves it for the session" };
  }
  if (hook === "page_permission") {
    return { allowed: false, why: "each use of a page permission is asked" };
  }
  if (hook === "release") {
    return { allowed: false, why: "handing control back is asked every time" };
  }
  if (UNGRANTABLE_HOOKS.includes(hook)) {
    return { allowed: false, why: `"${hook}" needs a human's yes every time` };
  }
  if (request.session === undefined) return { allowed: false, why: "no session to remember it in" };
  const site = request.origin ? siteOf(request.origin) : null;
  if (!site) return { allowed: false, why: "no site: a URL without a host is asked every time" };
  return { allowed: true, site };
}

/** The grants of one client. Expired grants disappear on the next read. */
export class ApprovalStore {
  #grants: Grant[] = [];
  /** "Approve for this site" answers: per session, `hook site` keys (see {@link siteScope}). */
  #sites = new Map<string, Set<string>>();
  #now: () => number;

  /** @param now Clock in ms (tests pass their own). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #prune(): void {
    const t = this.#now();
    this.#grants = this.#grants.filter((g) => g.expiresAt > t);
  }

  /**
   * Grants `scopes` for `ttlSeconds` (checked by {@link checkGrantRequest}).
   * Re-granting a scope (for the same session, or for all) resets its
   * expiry and keeps its use count.
   *
   * @throws RangeError on bad scopes or TTL.
   */
  grant(scopes: readonly string[], ttlSeconds?: number, sessionId?: string): Grant[] {
    const ttl = checkGrantRequest(scopes, ttlSeconds);
    this.#prune();
    const t = this.#now();
    const out: Grant[] = [];
    for (const scope of new Set(scopes as ConfirmHook[])) {
      let g = this.#grants.find((x) => x.scope === scope && x.sessionId === sessionId);
      if (!g) {
        g = { scope, ...(sessionId ? { sessionId } : {}), grantedAt: t, expiresAt: 0, uses: 0 };
        this.#grants.push(g);
      }
      g.grantedAt = t;
      g.expiresAt = t + ttl * 1000;
      out.push({ ...g });
    }
    return out;
  }

  /**
   * Uses a live grant covering `scope` for `sessionId` (a session's own grant
   * first, then one for every session); returns it after counting the use,
   * or undefined when none covers it.
   */
  consume(scope: ConfirmHook, sessionId?: string): Grant | undefined {
    if (UNGRANTABLE_HOOKS.includes(scope)) return undefined;
    this.#prune();
    const g = this.#grants.find((x) => x.scope === scope && x.sessionId === sessionId) ??
      this.#grants.find((x) => x.scope === scope && x.sessionId === undefined);
    if (!g) return undefined;
    g.uses++;
    return { ...g };
  }

  /** Live grants, oldest first, with the time they have left. */
  list(): GrantView[] {
    this.#prune();
    const t = this.#now();
    return this.#grants.map((g) => ({ ...g, remainingMs: g.expiresAt - t }));
  }

  /**
   * Remembers a human's "approve for this site": `hook` on `site` passes without asking in
   * session `sessionId` until {@link forgetSession}.
   */
  approveSite(hook: ConfirmHook, sessionId: string, site: string): void {
    let set = this.#sites.get(sessionId);
    if (!set) this.#sites.set(sessionId, set = new Set());
    set.add(`${hook} ${site}`);
  }

  /** True when a human approved `hook` on `site` for session `sessionId` ({@link approveSite}). */
  coversSite(hook: ConfirmHook, sessionId: string, site: string): boolean {
    return this.#sites.get(sessionId)?.has(`${hook} ${site}`) ?? false;
  }

  /**
   * A session closed: the approvals it earned go with it (seed 004: closing discards every
   * approval it earned) — its site approvals and the grants made for it alone. A new session
   * of the same name starts with none.
   */
  forgetSession(sessionId: string): void {
    this.#sites.delete(sessionId);
    this.#grants = this.#grants.filter((g) => g.sessionId !== sessionId);
  }
}
