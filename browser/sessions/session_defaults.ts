/**
 * Puts what the operator's flags give sessions ({@link SessionDefaults}) on a new session,
 * before its first tab: the viewport and user agent (a device's) as emulation state, the init
 * scripts, and — for the `default` session — the storage state.
 *
 * @module
 */
import { injectStorageState } from "../../storage/storage_state.ts";
import { withScratchTab } from "./scratch_tab.ts";
import type { SessionDefaults } from "./browser_host.ts";
import type { BrowserSession } from "./browser_session.ts";
import { shownTabs } from "../visibility.ts";

/** The running browser's major version (`Browser.getVersion`), or undefined. */
async function runningMajor(session: BrowserSession): Promise<number | undefined> {
  const v = await session.browser.connection.send("Browser.getVersion").catch(() => undefined);
  const m = /\/(\d+)\./.exec(v?.product ?? "");
  return m ? Number(m[1]) : undefined;
}

/**
 * Applies `defaults` to `session` (see the module doc). The storage state goes in through a
 * scratch tab (its visits are stubbed: no page of the state's origins runs), merged over what
 * a persistent profile holds. CDP: `Emulation.*` (`emulation.ts`),
 * `Page.addScriptToEvaluateOnNewDocument`, `Storage.setCookies`, `DOMStorage.setDOMStorageItem`.
 *
 * @returns Warnings (emulation failures on tabs open already, cookies Chromium refused).
 */
export async function applySessionDefaults(
  session: BrowserSession,
  defaults: SessionDefaults,
  options: { isDefault: boolean },
): Promise<string[]> {
  // A ref from another tab names the index `tabs` switches to.
  session.refs.tabIndex = (targetId) => {
    const i = shownTabs(session).findIndex((p) => p.target.targetId === targetId && !p.isClosed);
    return i < 0 ? undefined : i;
  };
  if (session.mode === "attached") return [];
  const pages = () => session.tabs.filter((p) => !p.isClosed).map((p) => p.session);
  const warnings: string[] = [];
  if (defaults.initScripts?.length) {
    await session.emulation.addInitScripts(defaults.initScripts, pages());
  }
  // A device preset's user agent names a Chrome version; say the one that runs.
  const userAgent = defaults.userAgent && /Chrome\/\d+\.0\.0\.0/.test(defaults.userAgent)
    ? await runningMajor(session).then((major) =>
      major
        ? defaults.userAgent!.replace(/Chrome\/\d+\.0\.0\.0/, `Chrome/${major}.0.0.0`)
        : defaults.userAgent
    )
    : defaults.userAgent;
  const patch = {
    ...(defaults.viewport ? { viewport: { ...defaults.viewport } } : {}),
    ...(userAgent ? { userAgent } : {}),
  };
  if (Object.keys(patch).length) {
    warnings.push(
      ...await session.emulation.set(patch, pages(), async () => {
        const v = await session.browser.connection.send("Browser.getVersion");
        return v.userAgent;
      }),
    );
  }
  const state = defaults.storageState;
  if (options.isDefault && state && (state.cookies.length || state.origins.length)) {
    const r = await withScratchTab(session, (tab) =>
      injectStorageState(
        { connection: session.browser.connection, browserContextId: session.browserContextId },
        tab,
        state,
        { mode: "merge", frameUrls: [] },
      ));
    if (r.cookiesRejected.length) {
      warnings.push(`--storage-state: ${r.cookiesRejected.length} cookies were not stored`);
    }
  }
  return warnings;
}
