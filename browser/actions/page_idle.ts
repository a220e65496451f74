/**
 * Whether a page is done building, for the not-found wait of a selector (`target.ts`): a
 * selector that matches nothing on a page still loading, fetching or rendering is looked for
 * again, while on a page that is idle it will not match by waiting (NU: a `text=` of a word on
 * the wrong page waited its whole 2 s).
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { callUtility } from "../injected/mod.ts";
import { laterTimeoutsDue, timeoutsDue } from "../sessions/page_timers.ts";

/** The main frame's DOM (and what a snapshot shows) unchanged this long counts as quiet, ms. */
export const IDLE_QUIET_MS = 250;
/**
 * A request in flight longer than this is the page's life (a long-poll, a stream), not its
 * build, ms.
 */
const LONG_REQUEST_MS = 10_000;

/** What the not-found error says of a page found idle. */
export const IDLE_NOTE =
  `looked until the page was idle (loaded, no request in flight, no timer due within 2 s, no DOM change for ${IDLE_QUIET_MS} ms)`;

/**
 * How long until the latest longer timeout (over 2 s, up to 60 s) the tab's main document set
 * is due, ms; 0 when none is, undefined when the page did not answer. A selector wait looks on
 * while one is due within its budget. CDP: `Runtime.evaluate`.
 */
export function laterTimerDue(
  session: BrowserSession,
  page: Page,
  signal?: AbortSignal,
): Promise<number | undefined> {
  return laterTimeoutsDue(page, session.timerKey, page.mainFrameId, signal);
}

/**
 * What may still bring an element to a page found idle: a longer timeout its scripts set that
 * is still due ("a timer of the page runs in 3.9 s"), or a request in flight over
 * {@link LONG_REQUEST_MS} (a long-poll may answer with content); undefined when neither (or
 * the page did not answer). Asked once a selector was not found. CDP: `Runtime.evaluate`.
 */
export async function stillComing(
  session: BrowserSession,
  page: Page,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const later = await laterTimerDue(session, page, signal);
  if (later) return `a timer of the page runs in ${(later / 1000).toFixed(1)} s`;
  const long =
    session.logs.inFlight().filter((r) =>
      r.tab === page.target.targetId || (r.frameId !== undefined && page.frame(r.frameId))
    ).length;
  return long
    ? `${long === 1 ? "a request is" : `${long} requests are`} still in flight`
    : undefined;
}

/**
 * True when the tab's main document is loaded, no request of the tab is in flight (one
 * running over {@link LONG_REQUEST_MS} aside), no short timeout its scripts set is still due
 * (`page_timers.ts` `timeoutsDue`) and its DOM has not changed for {@link IDLE_QUIET_MS}.
 * False when any of them is not so, or is not known (the page did not answer: it may be busy).
 *
 * CDP: `Runtime.evaluate` in the main frame's utility world (`pageQuiet`, and the timer
 * watch's `soon`), both at once.
 */
export async function pageIdle(
  session: BrowserSession,
  page: Page,
  signal?: AbortSignal,
): Promise<boolean> {
  const now = Date.now();
  const building = session.logs.inFlight().some((r) =>
    (r.tab === page.target.targetId || (r.frameId !== undefined && page.frame(r.frameId))) &&
    now - r.timestamp < LONG_REQUEST_MS
  );
  if (building) return false;
  const [quiet, due] = await Promise.all([
    callUtility(page, page.mainFrameId, "pageQuiet", [], { signal, timeoutMs: 1000 })
      .catch(() => undefined),
    timeoutsDue(page, session.timerKey, page.mainFrameId, signal),
  ]);
  return quiet !== undefined && quiet.loaded && quiet.quietMs >= IDLE_QUIET_MS && due === 0;
}
