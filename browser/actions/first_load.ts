/**
 * A session's first URL (`open_session { url }`), loaded inside an action window as `navigate`
 * loads one: the answer comes once the page settled (the scripts the load started, the modules
 * and templates those fetch), not at the load event. An app that wires its handlers after
 * fetching its modules (TodoMVC "flight": RequireJS, then its templates by XHR) is ready when
 * the agent acts on it. The page library goes to the new document before the answer too
 * (bounded by {@link LIBRARY_WAIT_MS}): the agent's first read is then one call into the page.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { ToolError } from "../tool_error.ts";
import { ActionWindow } from "./action_window.ts";
import { NAVIGATION_QUIET_MS } from "./recorder.ts";
import { preinstallLibrary } from "../injected/mod.ts";
import { markLoadUnfinished } from "../stuck_script.ts";
import { within } from "../poll.ts";

/**
 * How long the answer waits for the library's install at most, ms: a page busy in its own
 * script past that gets it in the background (its first read then waits for it, as before).
 */
const LIBRARY_WAIT_MS = 1000;

/** What {@link loadFirstUrl} saw. */
export interface FirstLoad {
  /** The main document's HTTP status, or null (no response, or the load failed). */
  httpStatus: number | null;
  /** What `Page.navigate` threw (a `NavigationError` for a failed load), if it threw. */
  failure?: unknown;
  /** `blocked-by-policy` when the navigation guard stopped a hop (over `failure`). */
  blocked?: ToolError | undefined;
  /** The window's warnings (the guard's notes, a page still loading at the deadline, …). */
  warnings: string[];
  /** Uncaught page errors during the load. */
  pageErrors: string[];
  /** Dialogs the load raised, as the session's policy answered them. */
  dialogs: Array<{ kind: string; message: string; handledAs: string }>;
  /** Tabs the page opened while it loaded (index in the session's tabs, URL, title). */
  newTabs: Array<{ index: number; url: string; title: string }>;
}

/**
 * Loads `url` in `page` and waits for the page to settle (bounded by `timeoutMs`), inside one
 * action window (navigation guard, downloads gate, dialogs, recorder). What happened during the
 * load belongs to this call: it is returned here, not reported as news of the next call.
 * CDP: `Page.navigate` (through {@link Page.navigate}) and the window's own commands.
 *
 * @param options.timeoutMs Budget of the load and the settle, ms.
 * @param options.signal The call's signal: an abort ends the wait (its reason is thrown) and
 *   stops a load still running.
 */
export async function loadFirstUrl(
  session: BrowserSession,
  page: Page,
  url: string,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<FirstLoad> {
  const deadline = Date.now() + options.timeoutMs;
  await using actionWindow = await ActionWindow.open(session, page, {
    action: "open_session",
    declaredDownload: false,
    submits: false,
    requestedUrl: url,
    signal: options.signal,
    // The new document counts its own start (see run_action's navigations).
    timers: { frames: [page.mainFrameId] },
    quietMs: NAVIGATION_QUIET_MS,
  });
  let httpStatus: number | null = null;
  let failure: unknown;
  let failed = false;
  try {
    const r = await page.navigate(url, { timeoutMs: options.timeoutMs, signal: options.signal });
    httpStatus = r.response?.status ?? null;
  } catch (e) {
    options.signal?.throwIfAborted();
    failure = e;
    failed = true;
  }
  const outcome = await actionWindow.close(deadline, options.signal);
  const rec = outcome.recording;
  // A page still loading at the deadline may be stuck in its own script: the next navigation checks.
  if (!outcome.settled && Date.now() >= deadline) markLoadUnfinished(rec.activePage);
  // The library goes to the new page before the answer (bounded): what an agent does next in a
  // session it opens on a URL reads the page or acts on it, and both need it. Installed here,
  // the first read is one call into the page, as a re-read is, instead of waiting for it.
  if (!failed && !rec.activePage.isClosed) {
    await within(
      preinstallLibrary(rec.activePage),
      Math.min(LIBRARY_WAIT_MS, deadline - Date.now()),
      options.signal,
    );
  }
  return {
    httpStatus,
    ...(failed ? { failure } : {}),
    blocked: outcome.blocked,
    // A failed load is said by `failure`; a 4xx/5xx answer by its warning.
    warnings: !failed && rec.loadWarning
      ? [rec.loadWarning, ...outcome.warnings]
      : outcome.warnings,
    pageErrors: rec.pageErrors,
    dialogs: rec.dialogs.map(({ kind, message, handledAs }) => ({ kind, message, handledAs })),
    newTabs: rec.newTabs,
  };
}
