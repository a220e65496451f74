/**
 * What the navigation guard (`nav_guard.ts`) reports, asks of the policy,
 * and knows of the acting call in progress.
 *
 * @module
 */
import type { SendCandidate } from "../injected/form_types.ts";

/** A navigation the guard stopped. */
export interface BlockedNavigation {
  /** Where the request tried to go. */
  url: string;
  /** Set when a server redirect led there (the hop that was stopped). */
  redirectedTo?: string;
  /** `submit`: an undeclared form submission; `site`: a destination the policy does not allow. */
  reason: "submit" | "site";
  /** The frame that was navigating (a tab's main frame, an iframe, or a script's frame). */
  frameId: string;
  /** Set when an iframe's document was refused (the tab stays; the frame shows a blocked note). */
  subframe?: true;
  /** Set when the request sent a form (a submission, or a script's write after a submit event). */
  form?: true;
  /** For `site`: why the policy refuses it (e.g. "not on the allowlist"). */
  why?: string;
  /**
   * Set when a click with Ctrl/Meta/Shift or the middle button would have
   * opened the link or form in a new tab (refused always: see `new_tab_clicks.ts`).
   */
  newTab?: true;
  /** Set when the request carried this bound secret to an origin it is not bound to. */
  secret?: string;
  /**
   * Set when it was a page's own request (fetch, XHR, beacon, image, …), not a document's: no
   * frame was to move by it.
   */
  request?: true;
  /**
   * Set when a WebSocket carried it (its `handshake` URL, or a `frame` the page sent), or a
   * `webtransport` session's URL: no guard can hold one, so it may have been sent.
   */
  webSocket?: "handshake" | "frame" | "webtransport";
  /** Set when a history move or a reload would have sent a form again (a POST entry). */
  replay?: true;
  /**
   * Set when a declared form went somewhere else than a human approved (`approved`: where the
   * question said the forms send): the page changed it as it was sent.
   */
  unapproved?: readonly string[];
  /**
   * Set with `unapproved` when it went where approved but with other data than the human
   * approved (`approved_data.ts`: field names added, gone, or with another value).
   */
  dataChanged?: readonly string[];
  /** Set with `unapproved` when it was the approved send again (a yes covers one). */
  again?: true;
  /**
   * Set with `unapproved` and `webSocket: "handshake"` when the socket was refused before its
   * handshake left (`approved_hold.ts`); absent, it may have connected.
   */
  socketHeld?: true;
}

/** What the guard asks of the policy. */
export interface NavPolicy {
  /**
   * Why the page may not take a frame to `url` while its tab shows `from`
   * (e.g. "not on the allowlist"), or undefined when it may, without asking.
   */
  refusal(url: string, from: string): string | undefined;
  /** True when `url` is on the allowlist (no list: always). Judges a script's form writes. */
  allowlisted(url: string): boolean;
  /**
   * The name of a bound secret that a request to `url` with `body` and `headers` would
   * carry to an origin it is not bound to, or undefined. Absent: no bound
   * secrets (then only documents and writes are held, not every request).
   */
  secretLeak?: (
    url: string,
    body: string,
    headers?: Readonly<Record<string, string>>,
  ) => string | undefined;
  /**
   * True when the policy limits where tabs go (an allowlist, per-site approval, bound
   * secrets): links a modifier or middle click would open in a tab the guard cannot hold are
   * then refused. Forms are refused so always (undeclared submissions).
   */
  limitsNavigation?: boolean;
  /**
   * True when an allowlist limits the origins pages may reach (`BROWX_ALLOWED_ORIGINS`): a
   * script's form write off it is refused, so a worker whose requests cannot be held is too.
   */
  limitsOrigins?: boolean;
  /**
   * True when a human confirms form sends (`BROWX_CONFIRM_REQUIRED` submit or publish): after a
   * yes every write of the session is held to the approved one, so a worker whose requests
   * cannot be held is refused.
   */
  confirmsSends?: boolean;
  /**
   * True when `url` is browxai's own web console or MCP endpoint: no route answers or aborts
   * a request there (a routed page on its origin would carry the person's cookie).
   */
  ownConsole?: (url: string) => boolean;
  /**
   * `--blocked-origins` as URLPattern strings (`policy/blocked_urls.ts`): set on every target
   * with `Network.setBlockedURLs`, so its sub-requests (fetch, XHR, images, scripts) fail too.
   */
  blockedUrls?: readonly string[];
  /**
   * `--blocked-origins` as `Fetch` globs (`policy/blocked_urls.ts` `blockedFetchPatterns`):
   * requests to them are paused too and refused when {@link blocked} says so, since
   * `Network.setBlockedURLs` lets a worklet's module or a request sent in `pagehide` through.
   */
  blockedFetch?: readonly string[];
  /** True when `url` is on `--blocked-origins` (the exact test for a paused request). */
  blocked?: (url: string) => boolean;
}

/** The acting call in progress, as the guard needs it. */
export interface GuardWindow {
  /** The call declared it sends a form (`submits: true`, `fill` with `submit`). */
  submits: boolean;
  /** The URL the agent itself asked for (navigate): the first request to it passes. */
  expectUrl?: string | undefined;
  /** The call replays a history entry (go_back, go_forward, reload): a POST it meets is a resend. */
  replay?: boolean | undefined;
  /**
   * Where a human approved the forms send (`"POST https://host/path?query"`, the facts of the
   * question): a submission elsewhere is refused. Undefined: no human was asked about them.
   */
  approvedSends?: readonly string[] | undefined;
  /**
   * The ways of sending the form the human approved, with their data (`formSendData`): a
   * submission of the main document that is none of them is refused. Undefined: no human was
   * asked, or the forms could not be read.
   */
  approvedData?: readonly SendCandidate[] | undefined;
}
