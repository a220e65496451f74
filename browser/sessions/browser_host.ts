/**
 * The Chromium processes and connections browxai holds: one shared browser
 * for incognito sessions (launched lazily on first need, relaunched after a
 * crash), one browser per persistent profile, and attached (BYOB) browsers.
 *
 * @module
 */
import { Browser } from "../../cdp/browser.ts";
import { findChromium } from "../../cdp/discovery.ts";
import { cleanStaleTempProfiles } from "../../cdp/profile_lock.ts";
import { PageRouter } from "./page_router.ts";

/** A browser plus the router that hands its tabs to sessions. */
export interface RoutedBrowser {
  browser: Browser;
  router: PageRouter;
}

/** Options of {@link BrowserHost}. */
export interface BrowserHostOptions {
  /** `--browser` path. */
  browserPath?: string | undefined;
  /** Show windows. */
  headful: boolean;
  /** `--cdp-endpoint`: use this browser as the shared one instead of launching. */
  cdpEndpoint?: string | undefined;
}

/** Owns every browser connection of the server. */
export class BrowserHost {
  #options: BrowserHostOptions;
  #shared: Promise<RoutedBrowser> | undefined;
  #all = new Set<Browser>();

  /**
   * Also starts removing the temp profiles of servers that died without
   * closing their browsers (kill -9, the OOM killer): see
   * {@link cleanStaleTempProfiles}. In the background; a failure is ignored.
   */
  constructor(options: BrowserHostOptions) {
    this.#options = options;
    cleanStaleTempProfiles().catch(() => {});
  }

  /** The shared browser for incognito sessions; launched or relaunched on demand. */
  shared(): Promise<RoutedBrowser> {
    if (this.#shared) return this.#shared;
    const p = this.#options.cdpEndpoint
      ? this.attach(this.#options.cdpEndpoint)
      : this.launch(undefined);
    this.#shared = p;
    // Forget it once it is gone, so the next caller relaunches.
    const forget = () => {
      if (this.#shared === p) this.#shared = undefined;
    };
    p.then((rb) => rb.browser.closed.then(forget), forget);
    return p;
  }

  /** True when browsers this host launches show their windows (`--headful`). */
  get headful(): boolean {
    return this.#options.headful;
  }

  /** True when the shared browser is running. */
  async sharedRunning(): Promise<boolean> {
    if (!this.#shared) return false;
    try {
      return !(await this.#shared).browser.isClosed;
    } catch {
      return false;
    }
  }

  /**
   * Launches a browser browxai owns; with `userDataDir` on that profile (else a temp profile,
   * removed on close). `options.headful` shows its windows even when the server is headless
   * (a session shown to a person, `open_session({ headful: true })`).
   *
   * @throws BrowserNotFoundError, ProfileInUseError, CdpError.
   */
  async launch(
    userDataDir: string | undefined,
    options: { headful?: boolean } = {},
  ): Promise<RoutedBrowser> {
    const { path } = findChromium({ explicitPath: this.#options.browserPath });
    const router = new PageRouter();
    const browser = await Browser.launch({
      executablePath: path,
      headful: this.#options.headful || options.headful === true,
      ...(userDataDir ? { userDataDir } : {}),
    }, { attachHook: router.attachHook, listener: router.listener });
    this.#track(browser);
    return { browser, router };
  }

  /** Attaches to a browser someone else runs; never closes it. */
  async attach(endpoint: string): Promise<RoutedBrowser> {
    const router = new PageRouter();
    const browser = await Browser.connect(endpoint, {
      attachHook: router.attachHook,
      listener: router.listener,
    });
    this.#track(browser);
    // The person's tabs attach in the background: wait for them (a few seconds at most), so
    // the session starts with its real tabs, not a tab list that fills in later.
    const { targetInfos } = await browser.connection.send("Target.getTargets").catch(() => ({
      targetInfos: [],
    }));
    await Promise.allSettled(
      targetInfos.filter((t) => t.type === "page" && !t.url.startsWith("devtools://"))
        .map((t) => browser.targets.waitForTarget(t.targetId, 5000)),
    );
    return { browser, router };
  }

  #track(browser: Browser) {
    this.#all.add(browser);
    browser.closed.then(() => this.#all.delete(browser));
  }

  /** SIGKILLs every owned browser at once (the exit path when closing takes too long). */
  killAll(): void {
    for (const b of this.#all) b.kill();
  }

  /** Closes owned browsers and disconnects from attached ones. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#all].map((b) => b.close().catch(() => {})));
    this.#all.clear();
    this.#shared = undefined;
  }
}
