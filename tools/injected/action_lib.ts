/// <reference lib="dom" />
/**
 * Page-side actionability probes (placeholder).
 *
 * @module
 */

/** Adds actionability probes to the utility api. */
export function installActionLib(api: Record<string, unknown>): void {
  api.ping = () => true;
}
