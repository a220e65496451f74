/**
 * A session's dedicated workers: a worker's requests are its tab's traffic (an action's
 * `network.mutations`, the network log, the writes between calls), so the tab that started
 * it hears its `Network.*` events from before its first request.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { AttachedTarget } from "../../cdp/target_manager.ts";

/**
 * Adopts a dedicated worker that just attached (waiting for the debugger) into the tab whose
 * session (or one of whose workers) started it, enables `Network` on it, and returns that tab;
 * `undefined` for another kind of worker or one no tab of `tabs` started. CDP: `Network.enable`.
 */
export function adoptWorker(tabs: readonly Page[], target: AttachedTarget): Page | undefined {
  const parent = target.parentSessionId;
  if (target.type !== "worker" || !parent) return undefined;
  const tab = tabs.find((p) => p.ownsSession(parent) || p.ownsWorker(parent));
  if (!tab) return undefined;
  tab.adoptWorker(target.session, parent);
  target.session.send("Network.enable").catch(() => {});
  return tab;
}
