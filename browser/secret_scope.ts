/**
 * What the secrets policy tells the code below a handler, for the length of
 * one call (set by the call pipeline, `mcp/pipeline.ts`, read where pages are matched or
 * filled): the masker the agent's results go through, and the origin-bound
 * secrets this call fills.
 *
 * Uses `AsyncLocalStorage` (node:async_hooks), like `sessions/call_scope.ts`:
 * the scope follows the call's async work without being passed down every
 * helper (selectors are resolved in a dozen places).
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { fillOriginAllowed } from "../policy/secret_origins.ts";
import type { SecretStore } from "../policy/secrets.ts";
import { ToolError } from "./tool_error.ts";

/** The secrets policy of one call. */
export interface SecretScope {
  /**
   * Masks values as the call's result will be masked (a secrets store
   * is loaded, with at least one maskable value); undefined: results are
   * not masked, so filters need not mask either.
   */
  masker: SecretStore | undefined;
  /** Secrets bound to origins that this call fills: name → allowed origins. */
  bound: ReadonlyMap<string, readonly string[]>;
  /**
   * What this call fills that held a `{{secret:…}}` (as substituted): the field it goes
   * into is held (`holdSecret`), showing only one of these whole. Absent or empty: none.
   */
  fills?: readonly string[];
}

const storage = new AsyncLocalStorage<SecretScope>();

/** Runs `fn` with `scope` as the current call's secrets policy. */
export function inSecretScope<T>(scope: SecretScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** The masker of the current call, when its results are masked. */
export function currentMasker(): SecretStore | undefined {
  return storage.getStore()?.masker;
}

/** `text` as the agent would read it in this call's result (registered values masked). */
export function maskedForAgent(text: string): string {
  return currentMasker()?.maskText(text) ?? text;
}

/** True when this call fills a secret bound to origins (so fill targets must be checked). */
export function fillsBoundSecret(): boolean {
  return (storage.getStore()?.bound.size ?? 0) > 0;
}

/** What this call fills that held a placeholder (see {@link SecretScope.fills}). */
export function secretFillValues(): readonly string[] {
  return storage.getStore()?.fills ?? [];
}

/**
 * Refuses filling this call's bound secrets into a frame of `origin`
 * (`window.origin` of the frame; `"null"` when opaque or unknown).
 *
 * @throws ToolError `refused` naming the secret and the origins it may be filled into.
 */
export function assertFillOrigin(origin: string, where: string): void {
  for (const [name, allowed] of storage.getStore()?.bound ?? []) {
    if (!fillOriginAllowed(allowed, origin)) {
      throw new ToolError(
        "refused",
        `Refused to fill {{secret:${name}}} into ${where} of origin ${origin}: ` +
          `it may be filled only on ${allowed.join(", ")}`,
        `navigate to ${allowed[0]} and fill the field there; the operator binds secrets to ` +
          "origins in the BROWX_SECRETS file (NAME@origin=value)",
        { allowedOrigins: [...allowed] },
      );
    }
  }
}
