/**
 * How a session lets go of its browser as it closes (`BrowserSession.close`), by what it owns:
 * its own Chromium is closed, its own browser context disposed, someone else's browser
 * (attached) only disconnected from. First the tabs are left the way `leave_before_close.ts`
 * and `stuck_dialogs.ts` say.
 *
 * @module
 */
import type { Browser } from "../../cdp/browser.ts";
import type { Page } from "../../cdp/page.ts";
import type { NavGuard } from "../nav_guard/nav_guard.ts";
import { leaveBeforeClose } from "../nav_guard/leave_before_close.ts";
import type { SessionDialogs } from "./dialogs.ts";
import { leaveLostDialog } from "./stuck_dialogs.ts";

/** What a closing session owns and holds (`BrowserSessionOptions`). */
export interface BrowserRelease {
  /** The session's tabs. */
  tabs: readonly Page[];
  /** The session's browser context (undefined: the browser's default context). */
  contextId: string | undefined;
  /** Closing disposes the context. */
  ownsContext: boolean;
  /** Closing closes the browser. */
  ownsBrowser: boolean;
  /** The session's navigation guard, which must meet what unloading pages send. */
  navGuard: NavGuard | undefined;
  /** The session's dialogs: a tab whose dialog Chromium lost is left first. */
  dialogs: SessionDialogs;
}

/**
 * Closes the browser (owned), disposes the context (owned context) or disconnects (attached).
 * CDP: `Browser.close`, `Target.disposeBrowserContext` (errors ignored).
 */
export async function releaseBrowser(browser: Browser, r: BrowserRelease): Promise<void> {
  // What the tabs' pages send as they unload must meet the guard (leave_before_close.ts).
  if (r.ownsBrowser || (r.ownsContext && r.contextId)) {
    await Promise.all(r.tabs.map((p) => leaveBeforeClose(p, r.navGuard)));
  }
  if (r.ownsBrowser) await browser.close();
  else if (r.ownsContext && r.contextId) {
    // Disposing a context with a tab whose dialog Chromium lost crashed the shared browser.
    await Promise.all(r.tabs.map((p) => leaveLostDialog(r.dialogs, p)));
    await browser.disposeContext(r.contextId).catch(() => {});
  } else if (!browser.owned) {
    // Attached: leave the human's browser as it is.
    await browser.close();
  }
}
