/**
 * A real Chromium for tests below the MCP layer: launch, open tabs as
 * {@link Page}s in fresh browser contexts, close everything. Tabs become
 * Pages through the server's own {@link PageRouter} (no owner claims a
 * context here: the router only builds Pages and adopts OOPIFs).
 *
 * @module
 */
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import type { Page } from "../cdp/page.ts";
import { PageRouter } from "../browser/sessions/page_router.ts";

/** A launched browser plus a page factory. */
export interface TestBrowser {
  browser: Browser;
  /** Opens a tab in a fresh context (or the given one) and returns its Page. */
  newPage(browserContextId?: string): Promise<Page>;
  close(): Promise<void>;
}

/** Launches headless Chromium whose tabs are routed by a {@link PageRouter}. */
export async function launchTestBrowser(): Promise<TestBrowser> {
  // Wired as browser/sessions/browser_host.ts does: the router is in place before any target.
  const router = new PageRouter();
  const browser = await Browser.launch(
    { executablePath: findChromium().path },
    { attachHook: router.attachHook, listener: router.listener },
  );
  return {
    browser,
    async newPage(browserContextId) {
      const ctx = browserContextId ?? await browser.createContext();
      const t = await browser.newPage(ctx);
      return router.page(t.targetId)!;
    },
    close: () => browser.close(),
  };
}
