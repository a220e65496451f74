/**
 * A tab whose page asked to stay: its `beforeunload` dialog was dismissed (the session's policy
 * for an unarmed one, or an armed `handle_dialog({ accept: false })`), so the navigation it
 * guarded was cancelled and the document stays. A load wait would otherwise run to its
 * deadline and report a move that never happened.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";

/** What a result says when the page stayed. */
export const STAYED_NOTE =
  "the page's beforeunload handler asked to stay and the dialog was dismissed: the tab did not leave (to leave, call handle_dialog({ accept: true }) first)";

/** A watch on one tab for a dismissed `beforeunload` (see the module doc). */
export interface StayWatch extends Disposable {
  /** Aborts when the page stayed. */
  readonly signal: AbortSignal;
  /** True once the page stayed. */
  readonly stayed: boolean;
}

/** Watches `page` (a tab of `session`) from now until disposed. */
export function watchStay(session: BrowserSession, page: Page): StayWatch {
  const stay = new AbortController();
  const tab = page.target.targetId;
  const unlisten = session.listen({
    dialog: (d) => {
      if (d.tab === tab && d.kind === "beforeunload" && d.handledAs === "dismissed") stay.abort();
    },
  });
  return {
    signal: stay.signal,
    get stayed() {
      return stay.signal.aborted;
    },
    [Symbol.dispose]: unlisten,
  };
}
