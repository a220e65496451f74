/**
 * Leaving a tab whose dialog Chromium lost before browxai reloads, closes or disposes it.
 *
 * When a dialog opens while another frame's dialog shows, Chromium 156 closes that one and
 * DevTools can no longer answer the new one ("No dialog is showing"): its frame's script stays
 * stopped (`SessionDialogs.lostIn`). Measured with raw CDP (Page.enable and nothing else: no
 * answer of ours is needed), the next `Page.reload`, `Page.navigate` to the same URL (or the
 * page's own `location.reload()`), `Target.closeTarget` of the tab or
 * `Target.disposeBrowserContext` of its context then kills the browser process (SIGSEGV after
 * `Check failed: pending_dialog_.is_null()` in DevTools' page handler), and every session in
 * that browser with it. A navigation to another URL first leaves the stuck document cleanly:
 * 0 crashes in all runs, against 2/2 for each of those four without it.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { SessionDialogs } from "./dialogs.ts";

/** Most time the way out (`about:blank`) may take, ms. */
const LEAVE_MS = 5000;

/**
 * When `page` holds a dialog Chromium lost, navigates it to `about:blank` (and forgets the
 * tab's open dialogs, whose documents are gone); else does nothing. Returns whether it left.
 * Never throws: a failed way out leaves the caller's own step to do what it can.
 * CDP: `Page.navigate`.
 */
export async function leaveLostDialog(
  dialogs: SessionDialogs,
  page: Page,
  signal?: AbortSignal,
): Promise<boolean> {
  const tab = page.target.targetId;
  if (page.isClosed || !dialogs.lostIn(tab)) return false;
  try {
    // `load`, not `commit`: closing the tab before about:blank committed still crashed it.
    await page.navigate("about:blank", {
      waitUntil: "load",
      timeoutMs: LEAVE_MS,
      ...(signal ? { signal } : {}),
    });
  } catch (e) {
    console.error("browxai: could not leave a tab whose dialog Chromium lost:", e);
    return false;
  }
  dialogs.dropTab(tab);
  return true;
}
