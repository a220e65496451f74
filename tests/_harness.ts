/**
 * A real Chromium for tests below the MCP layer: launch, open tabs as
 * {@link Page}s in fresh browser contexts, close everything.
 *
 * @module
 */
import { Browser } from "../cdp/browser.ts";
import { findChromium } from "../cdp/discovery.ts";
import { Page } from "../cdp/page.ts";

/** A launched browser plus a page factory. */
export interface TestBrowser {
  browser: Browser;
  /** Opens a tab in a fresh context (or the given one) and returns its Page. */
  newPage(browserContextId?: string): Promise<Page>;
  close(): Promise<void>;
}

/** Launches headless Chromium with a hook that builds a {@link Page} per tab and adopts OOPIFs. */
export async function launchTestBrowser(): Promise<TestBrowser> {
  const browser = await Browser.launch({ executablePath: findChromium().path });
  const pages = new Map<string, Page>();
  browser.targets.addAttachHook(async (t) => {
    if (t.type === "page") pages.set(t.targetId, await Page.attach(t));
    else if (t.type === "iframe" && t.parentSessionId) {
      for (const p of pages.values()) {
        if (p.ownsSession(t.parentSessionId)) await p.adoptFrameTarget(t);
      }
    }
  });
  browser.targets.addListener({
    detached(t) {
      if (t.type === "page") {
        pages.get(t.targetId)?.dispose();
        pages.delete(t.targetId);
      } else for (const p of pages.values()) p.dropSession(t.session.id);
    },
  });
  return {
    browser,
    async newPage(browserContextId) {
      const ctx = browserContextId ?? await browser.createContext();
      const t = await browser.newPage(ctx);
      return pages.get(t.targetId)!;
    },
    close: () => browser.close(),
  };
}
