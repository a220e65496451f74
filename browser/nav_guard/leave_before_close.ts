/**
 * Leaving a tab's page before the tab closes, so what the page sends as it unloads meets the
 * navigation guard. A `pagehide` handler's keepalive `fetch` or `sendBeacon` outlives its
 * page; when the tab itself closes (`Target.closeTarget`, a disposed context, a closed
 * browser) its target's `Fetch` interception ends with it, and such a request went out
 * unheld: a bound secret to another origin, or a request to `--blocked-origins` (the red
 * team's bo3). Taken to `about:blank` first, the old page unloads while its tab is still
 * guarded; the tab closes once the guard has answered what it paused. Its out-of-process
 * iframes and its workers are stopped before that (`still_subframes.ts`): their requests are
 * held on sessions the leaving ends, or that outlive their page.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { NavGuard } from "./nav_guard.ts";
import { stillSubframes, workersGone } from "./still_subframes.ts";

/** Most time the way out (`about:blank`) may take, ms. */
const LEAVE_MS = 5000;
/**
 * How long no request of the old page may have come before the tab closes, ms: its unload
 * may run in its old renderer after `about:blank` commits (measured: 1 close in 3 let a
 * beacon through when the tab closed right after a round trip).
 */
const QUIET_MS = 300;

/**
 * When `guard` holds what pages send as they unload (bound secrets, blocked origins), stops
 * `page`'s out-of-process iframes and workers (`still_subframes.ts`), takes `page` to
 * `about:blank` and waits until its workers are gone and the guard answered every request the
 * old page sent; else does nothing (no CDP round trip). Never throws: the caller closes the
 * tab either way. CDP: those of `still_subframes.ts`, `Page.navigate`, `Runtime.evaluate` (a
 * round trip after the commit), then a wait until the old page's requests have been quiet for
 * {@link QUIET_MS} and are answered.
 */
export async function leaveBeforeClose(page: Page, guard: NavGuard | undefined): Promise<void> {
  if (!guard?.guardsUnload || page.isClosed) return;
  try {
    await stillSubframes(page, guard, { stepMs: LEAVE_MS, quietMs: QUIET_MS });
    await page.navigate("about:blank", { waitUntil: "load", timeoutMs: LEAVE_MS });
    await page.session.send("Runtime.evaluate", { expression: "0" }, { timeoutMs: LEAVE_MS })
      .catch(() => {});
    const since = Date.now();
    await workersGone(page, undefined, LEAVE_MS);
    await guard.reached(since, Date.now() + LEAVE_MS);
    await guard.answered(page.target.targetId, QUIET_MS, Date.now() + LEAVE_MS);
  } catch (e) {
    if (!page.isClosed) console.error("browxai: could not leave a tab before closing it:", e);
  }
}
