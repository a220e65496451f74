/**
 * The Chromium processes and connections browxai holds: one shared browser
 * for incognito sessions (launched lazily on first need, relaunched after a
 * crash), one browser per persistent profile, and attached (BYOB) browsers.
 *
 * @module
 */
import { Browser } from "../../cdp/browser.ts";
import { browserCacheDir, BrowserNotFoundError, findChromium } from "../../cdp/discovery.ts";
import {
  installBrowser,
  type InstallProgress,
  PINNED_BUILD,
  stderrProgress,
} from "../../cdp/install_browser.ts";
import { cleanStaleTempProfiles } from "../../cdp/profile_lock.ts";
import { chromeUserAgent, chromiumMajor } from "../../cdp/user_agent.ts";
import type { StorageState } from "../../storage/storage_state.ts";
import type { ViewportOverride } from "./emulation.ts";
import { PageRouter } from "./page_router.ts";

/**
 * What the operator's flags give sessions (`--viewport-size`, `--device`, `--init-script`,
 * `--storage-state`, `--user-data-dir`, `--shared-browser-context`).
 */
export interface SessionDefaults {
  /** Every session's viewport (and, from a device, its scale, mobile layout and touch). */
  viewport?: ViewportOverride | undefined;
  /** Every session's user agent (a device's). */
  userAgent?: string | undefined;
  /** Scripts every page and frame of every session runs before its own (their sources). */
  initScripts?: readonly string[] | undefined;
  /** Loaded into the `default` session's context when it starts. */
  storageState?: StorageState | undefined;
  /** The `default` session is persistent, on this profile directory (absolute). */
  userDataDir?: string | undefined;
  /** HTTP clients' `default` sessions are one session in one browser context. */
  sharedContext?: boolean | undefined;
}

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
  /**
   * Environment lookup for `BROWX_NO_DOWNLOAD` and `BROWX_BROWSER_MIRROR`; defaults to
   * `Deno.env.get`.
   */
  env?: ((name: string) => string | undefined) | undefined;
  /** Extra Chromium switches for browsers this host launches (`--proxy-server=…`, …). */
  launchArgs?: readonly string[] | undefined;
  /**
   * Let launched browsers announce automation (`navigator.webdriver` true, "HeadlessChrome" in
   * the user agent). Off by default: `--disable-blink-features=AutomationControlled`, and a
   * headless browser gets the user agent its build sends with a window (`--user-agent`).
   */
  automationTells?: boolean | undefined;
  /** What sessions start with. */
  defaults?: SessionDefaults | undefined;
  /**
   * `--http`: each MCP client's incognito sessions live in a browser of that client's own
   * ({@link BrowserHost.forClient}), so a page that crashes Chromium takes down only its own
   * client's sessions. Ignored with `cdpEndpoint` (nothing to launch) and with
   * `defaults.sharedContext` (the clients share a session on purpose).
   */
  browserPerClient?: boolean | undefined;
}

/** Owns every browser connection of the server. */
export class BrowserHost {
  #options: BrowserHostOptions;
  #shared: Promise<RoutedBrowser> | undefined;
  #all = new Set<Browser>();
  /** Installs under way, by kind (headful: chrome; else chrome-headless-shell). */
  #installing = new Map<boolean, Promise<string>>();
  #progress = new Set<(p: InstallProgress) => void>();
  #sharedStarts = 0;
  #closingAll = false;
  /** By executable: its user agent without "HeadlessChrome" (undefined: unknown version). */
  #userAgents = new Map<string, Promise<string | undefined>>();
  /**
   * Counters since start, for metrics: browsers launched (shared and persistent), restarts of
   * the shared browser (a start after the first), browsers whose connection ended without
   * browxai closing them (crashed, killed, an attached browser gone).
   */
  readonly stats: { launches: number; sharedRestarts: number; crashes: number };
  /** The server's host, for a client's ({@link forClient}): launches, installs and stats are its. */
  #root: BrowserHost | undefined;

  /**
   * Also starts removing the temp profiles of servers that died without
   * closing their browsers (kill -9, the OOM killer): see
   * {@link cleanStaleTempProfiles}. In the background; a failure is ignored.
   */
  constructor(options: BrowserHostOptions, root?: BrowserHost) {
    this.#options = options;
    this.#root = root;
    this.stats = root?.stats ?? { launches: 0, sharedRestarts: 0, crashes: 0 };
    if (root) return;
    cleanStaleTempProfiles().catch(() => {});
    // Asking the browser its version takes a process start: done now, in the background, so
    // the first launch does not wait for it.
    if (!options.automationTells && !options.headful && !options.cdpEndpoint) {
      try {
        this.#userAgent(findChromium({ explicitPath: options.browserPath, headful: false }).path);
      } catch { /* none found yet: asked at the launch that installs one */ }
    }
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
    p.then((rb) => {
      // A start after the first that worked (failed attempts to attach are not restarts).
      if (this.#sharedStarts++ > 0) this.stats.sharedRestarts++;
      rb.browser.closed.then(forget);
    }, forget);
    return p;
  }

  /** True when {@link forClient} gives each HTTP client a browser of its own. */
  get perClient(): boolean {
    const o = this.#options;
    return o.browserPerClient === true && !o.cdpEndpoint && o.defaults?.sharedContext !== true;
  }

  /**
   * The host one HTTP client's sessions use: with {@link perClient}, a host whose shared
   * browser is that client's alone (launched on its first incognito session, relaunched after
   * a crash, closed by {@link closeShared} when the client goes away), everything else
   * (launches, installs, stats, {@link closeAll}) this host's; otherwise this host.
   */
  forClient(): BrowserHost {
    return this.perClient ? new BrowserHost(this.#options, this) : this;
  }

  /** Closes the shared browser if it runs (a client's, when it went away). */
  async closeShared(): Promise<void> {
    const p = this.#shared;
    this.#shared = undefined;
    if (!p) return;
    try {
      await (await p).browser.close();
    } catch { /* it never started, or is gone already */ }
  }

  /** What sessions start with (the operator's flags). */
  get defaults(): SessionDefaults {
    return this.#options.defaults ?? {};
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
    if (this.#root) return this.#root.launch(userDataDir, options);
    const headful = this.#options.headful || options.headful === true;
    const path = await this.#executable(headful);
    const router = new PageRouter();
    const browser = await Browser.launch({
      executablePath: path,
      headful,
      ...(userDataDir ? { userDataDir } : {}),
      args: [...this.#options.launchArgs ?? [], ...await this.#quietArgs(path, headful)],
    }, { attachHook: router.attachHook, workerHook: router.workerHook, listener: router.listener });
    this.#track(browser);
    await this.#holdUnheld(browser, router);
    this.stats.launches++;
    return { browser, router };
  }

  /**
   * The switches that keep a launched browser from announcing automation (see
   * {@link BrowserHostOptions.automationTells}); none when the operator wants the tells.
   */
  async #quietArgs(path: string, headful: boolean): Promise<string[]> {
    if (this.#options.automationTells) return [];
    const args = ["--disable-blink-features=AutomationControlled"];
    if (headful) return args;
    const userAgent = await this.#userAgent(path);
    return userAgent ? [...args, `--user-agent=${userAgent}`] : args;
  }

  /** The user agent of `path`'s build without "HeadlessChrome" (asked once per executable). */
  #userAgent(path: string): Promise<string | undefined> {
    let ua = this.#userAgents.get(path);
    if (!ua) {
      ua = chromiumMajor(path).then((m) => m === undefined ? undefined : chromeUserAgent(m));
      this.#userAgents.set(path, ua);
    }
    return ua;
  }

  /**
   * Proves a browser session could be opened now: creates a browser context in the shared
   * browser (launching or attaching it when needed) and disposes it again. With a browser per
   * client ({@link perClient}), only finds (or installs) the executable.
   * CDP: `Target.createBrowserContext`, `Target.disposeBrowserContext`.
   *
   * @throws what launching or the CDP calls throw (BrowserNotFoundError, CdpError, …).
   */
  async probe(): Promise<void> {
    // A browser per client: no browser of the server's own to try, and launching one per probe
    // would cost a Chromium start every few seconds; the executable is what can be checked.
    if (this.perClient && !this.#root) {
      await this.#executable(this.#options.headful);
      return;
    }
    const { browser } = await this.shared();
    await browser.disposeContext(await browser.createContext());
  }

  /**
   * Listens to the download progress of a browser install this host starts (the first
   * launch with no browser found). Returns the unsubscribe function.
   */
  onInstallProgress(listener: (p: InstallProgress) => void): () => void {
    if (this.#root) return this.#root.onInstallProgress(listener);
    this.#progress.add(listener);
    return () => this.#progress.delete(listener);
  }

  /**
   * The browser to launch: found by discovery, else Chrome for Testing installed into
   * browxai's cache (once per host: concurrent launches share the install; a failed one is
   * retried by the next launch), unless `BROWX_NO_DOWNLOAD=1` or the user named a path.
   *
   * @throws BrowserNotFoundError, BrowserInstallError.
   */
  async #executable(headful: boolean): Promise<string> {
    try {
      return findChromium({ explicitPath: this.#options.browserPath, headful }).path;
    } catch (e) {
      const env = this.#options.env ?? ((n: string) => Deno.env.get(n));
      if (!(e instanceof BrowserNotFoundError) || e.explicit) throw e;
      if (["1", "true"].includes(env("BROWX_NO_DOWNLOAD") ?? "")) throw e;
      // chrome-headless-shell for headless, chrome for a shown window: one install of each at once.
      let installing = this.#installing.get(headful);
      if (!installing) {
        installing = this.#install(headful, env);
        this.#installing.set(headful, installing);
      }
      return await installing;
    }
  }

  async #install(headful: boolean, env: (name: string) => string | undefined): Promise<string> {
    const bar = stderrProgress();
    console.error(
      `browxai: no Chromium found: installing Chrome for Testing ${PINNED_BUILD} into ` +
        `${browserCacheDir()} (BROWX_NO_DOWNLOAD=1 turns this off)`,
    );
    try {
      const got = await installBrowser({
        headful,
        mirror: env("BROWX_BROWSER_MIRROR"),
        onWait: (pid) =>
          console.error(`browxai: waiting for another install (pid ${pid ?? "?"}) to finish`),
        onProgress: (p) => {
          bar(p);
          for (const l of this.#progress) l(p);
        },
      });
      console.error(`browxai: using ${got.path} (${got.version})`);
      return got.path;
    } finally {
      // Success is found by discovery next time; a failure is retried by the next launch.
      this.#installing.delete(headful);
    }
  }

  /** Attaches to a browser someone else runs; never closes it. */
  async attach(endpoint: string): Promise<RoutedBrowser> {
    if (this.#root) return await this.#root.attach(endpoint);
    const router = new PageRouter();
    const browser = await Browser.connect(endpoint, {
      attachHook: router.attachHook,
      workerHook: router.workerHook,
      listener: router.listener,
    });
    this.#track(browser);
    await this.#holdUnheld(browser, router);
    // The person's tabs attach in the background: wait for them (a few seconds at most), so
    // the session starts with its real tabs, not a tab list that fills in later.
    const { targetInfos } = await browser.connection.send("Target.getTargets").catch(() => ({
      targetInfos: [],
    }));
    await Promise.allSettled(
      targetInfos.filter((t) => t.type === "page" && !t.url.startsWith("devtools://"))
        .map((t) => browser.targets.waitForTarget(t.targetId, { timeoutMs: 5000 })),
    );
    return { browser, router };
  }

  /**
   * The browser-level net for tabs the browser opens itself (`PageRouter.holdUnheld`); a
   * browser that cannot is closed (its tabs could not be guarded).
   */
  async #holdUnheld(browser: Browser, router: PageRouter): Promise<void> {
    try {
      await router.holdUnheld(browser.connection);
    } catch (e) {
      await browser.close().catch(() => {});
      throw e;
    }
  }

  #track(browser: Browser) {
    this.#all.add(browser);
    browser.closed.then(() => {
      this.#all.delete(browser);
      if (!browser.closing && !this.#closingAll) this.stats.crashes++;
    });
  }

  /** SIGKILLs every owned browser at once (the exit path when closing takes too long). */
  killAll(): void {
    for (const b of this.#all) b.kill();
  }

  /** Closes owned browsers and disconnects from attached ones. */
  async closeAll(): Promise<void> {
    this.#closingAll = true;
    await Promise.all([...this.#all].map((b) => b.close().catch(() => {})));
    this.#all.clear();
    this.#shared = undefined;
  }
}
