/**
 * Time budgets of calls into the browser model.
 *
 * @module
 */

/** Default `timeoutMs` of acting tools, ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Largest `timeoutMs` a tool accepts, ms. */
export const MAX_TIMEOUT_MS = 30_000;
