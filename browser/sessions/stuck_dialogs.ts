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
 * 0 crashes in all runs, against 2/2 for each of those four without it. The page's own reload
 * is caught at its document request (the navigation guard holds every one): failing it and
 * taking the same way out survived 6/6 rounds that crashed without it.
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

/**
 * The navigation guard's `divert` for a tab: when `page` holds a dialog Chromium lost, its own
 * main-frame navigation (a `location.reload()` would crash the browser) is taken over: the
 * returned function (called once the guard failed the request) takes the tab to
 * `about:blank` and loads `url` again (a GET only: a form's POST is not sent twice behind the
 * page's back). Undefined otherwise. CDP: `Page.navigate`.
 */
export function divertLostReload(
  dialogs: SessionDialogs,
  page: Page,
  url: string,
  method: string,
): (() => void) | undefined {
  if (page.isClosed || !dialogs.lostIn(page.target.targetId)) return undefined;
  return () => {
    (async () => {
      if (!await leaveLostDialog(dialogs, page) || method !== "GET") return;
      await page.navigate(url, { waitUntil: "commit" });
    })().catch((e) =>
      console.error("browxai: could not reload a tab whose dialog Chromium lost:", e)
    );
  };
}
