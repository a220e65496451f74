/**
 * What a shared worker or a service worker sends, in its session's logs: no tab's `Network`
 * domain reports their requests (a dedicated worker's come with its page's), so a write one
 * made for its page (a form the page handed it) was listed nowhere: not in `network_read`, not
 * in the result's `network.mutations`. Their `Network.*` events are fed to the session as its
 * active tab's own (the tab the agent acts on; a worker has no tab of its own).
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import type { AttachedTarget } from "../../cdp/target_manager.ts";
import type { Page, PageEventArgs } from "../../cdp/page.ts";
import { isTargetClosedError } from "../../cdp/errors.ts";
import { hasOwnNetwork } from "../nav_guard/worker_guard.ts";

/**
 * Starts reporting `worker`'s requests to `deliver` as `tab()`'s (a worker without a tab to
 * report them as: dropped), when it is a shared or service worker; else does nothing. Call
 * synchronously while it waits for the debugger, so its first request is seen. The listener
 * goes with the worker's session. `watched`: the workers already watched, by target id (the
 * session's own map, kept here).
 * CDP: `Network.enable` (on the worker's session), `Network.*` events.
 */
export function watchWorkerTraffic(
  worker: AttachedTarget,
  tab: () => Page | undefined,
  deliver: (page: Page, ...args: PageEventArgs) => void,
  watched: Map<string, CdpSession>,
): void {
  if (!hasOwnNetwork(worker.type)) return;
  // A service worker attaches twice (the browser's auto-attach and its page's): its requests
  // are logged from one session at a time, else each would be listed twice.
  for (const [id, s] of watched) if (s.detached) watched.delete(id);
  if (watched.has(worker.targetId)) return;
  const session = worker.session;
  watched.set(worker.targetId, session);
  session.connection.onAny(session.id, (...[method, params]) => {
    if (!method.startsWith("Network.")) return;
    const page = tab();
    if (page) deliver(page, ...[method, params, session] as PageEventArgs);
  });
  session.send("Network.enable", { maxPostDataSize: 65536 }).catch((error: unknown) => {
    if (!isTargetClosedError(error)) console.error("browxai: worker network log:", error);
  });
}
