/**
 * How the pre-approval tools show a grant's times.
 *
 * @module
 */

/** Epoch milliseconds as an ISO 8601 string (UTC). */
export const iso = (ms: number) => new Date(ms).toISOString();
