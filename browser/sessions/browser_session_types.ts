/**
 * The types of a `BrowserSession` (`browser_session.ts`): how it reaches its
 * browser, the options it is made with, and what its listeners hear.
 *
 * @module
 */
import type { Page, PageEventArgs } from "../../cdp/page.ts";
import type { RoutedBrowser } from "./browser_host.ts";
import type { DialogRecord } from "./dialogs.ts";
import type { SecretSpans } from "./log_text.ts";

/** How a session reaches its browser. */
export type SessionMode = "incognito" | "persistent" | "attached";

/** Listener of everything that happens in a session's tabs. */
/** The arguments of {@link SessionListener.event}: `(page, method, params, session)`. */
export type SessionEventArgs = [page: Page, ...PageEventArgs];

export interface SessionListener {
  /**
   * Any CDP event of any of the session's tabs (and their OOPIFs): `(page, method, params,
   * session)`, `params` typed by `method` (declare all four parameters, see `CdpEventArgs`).
   */
  event?(...args: SessionEventArgs): void;
  tabOpened?(page: Page): void;
  /** A tab is being created by the page (attaches shortly). */
  tabOpening?(targetId: string): void;
  tabClosed?(page: Page): void;
  /** A tab a page was opening past the session's cap was closed at once (`tab_cap.ts`). */
  tabRefused?(targetId: string): void;
  dialog?(record: DialogRecord): void;
  /** A tab started a dedicated worker (its requests come as the tab's events from now on). */
  workerStarted?(page: Page): void;
}

/** Options of a `BrowserSession`. */
export interface BrowserSessionOptions {
  id: string;
  mode: SessionMode;
  routed: RoutedBrowser;
  /** The session's browser context (undefined: the browser's default context). */
  browserContextId: string | undefined;
  /** Whether closing the session disposes the context / closes the browser. */
  ownsContext: boolean;
  ownsBrowser: boolean;
  profileDir?: string;
  /** Where secrets' values occur in a text: the logs never keep a cut one's prefix. */
  secretSpans?: SecretSpans | undefined;
  /**
   * Its browser is shown to a person (`open_session({ headful: true })`, or a server started
   * `--headful`): the session is attended even when nobody watches it in the console.
   */
  headful?: boolean | undefined;
  /**
   * Its Chromium serves other MCP clients' sessions too (`--http` with
   * `BROWX_HTTP_BROWSERS=shared`, `--cdp-endpoint` or `--shared-browser-context`): what is
   * whole-browser (a trace, the clipboard) is not this client's alone.
   */
  sharedWithClients?: boolean | undefined;
}
