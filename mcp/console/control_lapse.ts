/**
 * A takeover nobody watches ends by itself (session 17, new-user finding 1): a person who
 * pressed Take over and then closed the console left the agent refused (`human-has-control`)
 * on every mutation, `close_session` included, with no one left to hand back. Control held
 * by a person stays while someone can see the session ({@link isAttended}: a console viewer
 * watches it, its browser is shown, or it is attached); once nobody has for
 * {@link VIEWER_GONE_MS} (a reload reconnects within it), control goes back to the agent,
 * as pending approvals fail when the last viewer leaves. The agent is told (a log
 * notification, and `sinceLastCall.control` with the reason), and the audit log gets a line.
 *
 * @module
 */
import { isAttended } from "../../browser/human/asks.ts";
import type { BrowserSession } from "../../browser/sessions/browser_session.ts";
import { VIEWER_GONE_MS } from "./approval_queue.ts";
import type { ConsoleHub } from "./hub.ts";

export { VIEWER_GONE_MS };

/** Options of {@link watchTakeoverLapse}. */
export interface LapseOptions {
  /** The whole server shows its browsers (`--headful`): every session is attended. */
  headful: boolean;
  /** How long a held session may go unwatched before control returns, ms. */
  goneMs?: number | undefined;
}

/** Why control came back, as the agent and the audit read it. */
export function lapseReason(goneMs: number): string {
  return `nobody watched the session in the web console for ${
    Math.round(goneMs / 1000)
  } s (the person closed it): control came back to you`;
}

/**
 * Watches every session of `hub`'s clients: a session a person has control of that nobody
 * can see for `goneMs` goes back to the agent. Looked at when a viewer leaves (a socket
 * closes, a viewer watches another session), when control changes, and `goneMs` after a
 * session was first seen unwatched. Returns the stop function (clears its timer).
 */
export function watchTakeoverLapse(hub: ConsoleHub, options: LapseOptions): () => void {
  const goneMs = options.goneMs ?? VIEWER_GONE_MS;
  /** Since when each held session has been unwatched, ms since the epoch. */
  const unwatched = new WeakMap<BrowserSession, number>();
  const heard = new WeakSet<BrowserSession>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Infinity;
  let stopped = false;

  const schedule = (at: number) => {
    if (stopped || at >= due) return;
    clearTimeout(timer);
    due = at;
    timer = setTimeout(() => {
      timer = undefined;
      due = Infinity;
      sweep();
    }, Math.max(0, at - Date.now()));
  };

  const listen = (session: BrowserSession) => {
    if (heard.has(session)) return;
    heard.add(session);
    session.human.addEventListener("change", (e) => {
      const what = (e as CustomEvent<string>).detail;
      if (what === "viewers" || what === "control") sweep();
    });
  };

  const sweep = () => {
    if (stopped) return;
    const now = Date.now();
    for (const { key, session } of hub.sessions()) {
      listen(session);
      if (
        session.closed || !session.human.humanHasControl || isAttended(session, options.headful)
      ) {
        unwatched.delete(session);
        continue;
      }
      const since = unwatched.get(session) ?? now;
      unwatched.set(session, since);
      if (now - since < goneMs) {
        schedule(since + goneMs);
        continue;
      }
      unwatched.delete(session);
      const reason = lapseReason(goneMs);
      session.human.setControl("agent");
      session.between.control("agent", reason);
      const client = hub.client(key.client);
      client?.audit?.({ session: key.session, action: "handback", reason, automatic: true });
      client?.notify("warning", {
        message: `Session "${key.session}": ${reason}`,
        session: key.session,
        control: "agent",
      });
      hub.changed("control");
    }
  };

  const onHub = (e: Event) => {
    const what = (e as CustomEvent<string>).detail;
    // `activity`: a call ended (a session it opened is watched from then on).
    if (what === "viewers" || what === "control" || what === "sessions" || what === "activity") {
      sweep();
    }
  };
  hub.addEventListener("change", onHub);
  return () => {
    stopped = true;
    clearTimeout(timer);
    hub.removeEventListener("change", onHub);
  };
}
