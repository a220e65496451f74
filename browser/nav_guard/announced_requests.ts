/**
 * Requests a page or worker announced that the guard has not seen paused yet, so a closing tab
 * can wait until its frames' backlog has reached the guard (`still_subframes.ts`).
 *
 * A renderer tells of each request it starts (`Network.requestWillBeSent`, sent by the renderer
 * as the page makes it); the guard's interception pauses it later, in the browser process
 * (`Fetch.requestPaused`, whose `networkId` is that request's id). Under a burst the second can
 * come seconds after the first (measured: 9 s), with gaps of a second in between, so "nothing
 * paused for a while" does not mean "nothing more to come": a session that goes then lets the
 * rest go unjudged. Counting what was announced and not paused, failed or finished does.
 *
 * CDP events: `Network.requestWillBeSent`, `Network.loadingFailed`, `Network.loadingFinished`.
 *
 * @module
 */
import type { CdpSession } from "../../cdp/connection.ts";
import { poll } from "../poll.ts";

/** How long an announced request is waited for at most, ms (one the guard never sees). */
const KEPT_MS = 60_000;
/** Announced requests kept at most (the oldest go first). */
const KEPT = 4096;

/** Announced requests not yet seen paused, failed or finished, by request id → when (ms). */
export class AnnouncedRequests {
  #at = new Map<string, number>();
  /** Requests seen paused or ended before they were announced, by id → when (ms). */
  #early = new Map<string, number>();

  /** Hears `session`'s announcements (a page's, an iframe's or a dedicated worker's). */
  watch(session: CdpSession): void {
    session.on("Network.requestWillBeSent", (e) => {
      if (/^https?:/i.test(e.request.url)) this.#announce(e.requestId);
    });
    session.on("Network.loadingFailed", (e) => this.seen(e.requestId));
    session.on("Network.loadingFinished", (e) => this.seen(e.requestId));
  }

  /** The request `requestId` was paused (or ended): not waited for any more. */
  seen(requestId: string): void {
    // Its pause may come before its announcement (they travel different ways).
    if (!this.#at.delete(requestId)) remember(this.#early, requestId, Date.now());
  }

  #announce(requestId: string): void {
    if (this.#early.delete(requestId)) return;
    remember(this.#at, requestId, Date.now());
  }

  /**
   * Resolves once every request announced at or before `since` (ms since the epoch) was seen
   * paused, failed or finished, or at `deadline`.
   */
  async reached(since: number, deadline: number): Promise<void> {
    const pending = () => {
      for (const at of this.#at.values()) if (at <= since) return true;
      return false;
    };
    await poll(() => !pending(), {
      timeoutMs: Math.max(0, deadline - Date.now()),
      intervalMs: 10,
      maxIntervalMs: 50,
    });
  }
}

/** Sets `id` → `now` in `map` (last in order); drops entries older than KEPT_MS or past KEPT. */
function remember(map: Map<string, number>, id: string, now: number): void {
  map.delete(id);
  map.set(id, now);
  for (const [old, at] of map) {
    if (map.size <= KEPT && now - at < KEPT_MS) break;
    map.delete(old);
  }
}
