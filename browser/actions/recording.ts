/**
 * What an action window recorded (`recorder.ts`): the shape of a
 * {@link Recording} (navigation, new tabs, console, page errors, network
 * traffic with writes summarized by keys, route events, dialogs), and the
 * pure helpers that summarize its parts (request types, hosts, route events). Every URL in it
 * follows one rule, `reportedUrl` of `../network_writes.ts`.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { RoutedEvent } from "../routes/routes.ts";
import type { DialogEntry } from "../sessions/dialogs.ts";
import { reportedUrl } from "../network_writes.ts";

/**
 * How the main frame moved: a new document loaded (`full_load`), a document Chromium kept in
 * its back/forward cache shown again as it was left (`bfcache_restore`: nothing loaded or ran
 * again), the same document's URL by the history API (`spa`) or by its fragment (`hash`); or the
 * tab acted on closed (`tab_closed`: a popup's `window.close()`), `to` being the tab now active.
 */
export type NavigationKind = "full_load" | "bfcache_restore" | "spa" | "hash" | "tab_closed";

/** `navigation` of the ActionResult. */
export interface NavigationInfo {
  changed: boolean;
  from: string;
  to: string;
  kind: NavigationKind | null;
  offOrigin?: { requested: string; landed: string };
}

/** A write request summarized without values. */
export interface Mutation {
  method: string;
  /** Its URL by keys only (`reportedUrl`), at most 200 chars. */
  urlPattern: string;
  status?: number;
  /** Answered with a status below 400. */
  ok: boolean;
  /**
   * No answer yet when the result was taken (no status, not failed; `ok` is false): the request
   * may still reach the server and do its work. Not a failure: sending it again may do it twice.
   */
  pending?: true;
  durationMs?: number;
  responseShape?: string[];
}

/** A request a route answered, aborted or (blocked by policy) could not answer. */
export interface RoutedEntry {
  /** At most 200 chars. */
  url: string;
  /** The route's glob. */
  pattern: string;
  action: "fulfilled" | "aborted" | "refused";
  status?: number;
  /** Why the route did not answer (`refused`). */
  why?: string;
}

/** The recorded facts of one action window. */
export interface Recording {
  navigation: NavigationInfo;
  newTabs: Array<{ index: number; url: string; title: string }>;
  /** All tabs opened in the window (newTabs lists the first 10). */
  newTabCount: number;
  /**
   * The session's active tab's index when the window left another tab active than the one
   * acted on (a link that opened a tab, a popup that closed itself); absent otherwise.
   */
  activeTab?: number;
  /** Tabs the page opened past the session's cap (`MAX_TABS`), closed at once; absent: none. */
  refusedTabs?: number;
  /** Tabs of the session that closed during the window (the first 10): their last URLs. */
  closedTabs?: Array<{ url: string }>;
  console: { errors: string[]; warnings: number };
  pageErrors: string[];
  network: {
    summary: { total: number; byType: Record<string, number>; failed: number };
    requests: Array<{
      method: string;
      url: string;
      status?: number;
      type: string;
      ms?: number;
      failed?: boolean;
      /** Why it failed without an answer (`net::ERR_NAME_NOT_RESOLVED`, `canceled`). */
      errorText?: string;
      /** The navigation guard stopped it or answered it itself: it never reached the server. */
      blockedByPolicy?: boolean;
      /** A document answered as an attachment: saved as a file (see `downloads`), not failed. */
      download?: true;
      /** No answer yet when the result was taken (no status, not failed). */
      pending?: true;
    }>;
    mutations: Mutation[];
    /** What the session's routes did in the window (the first 10); absent when nothing. */
    routed?: RoutedEntry[];
  };
  /**
   * The window's dialogs: the first {@link MAX_DIALOGS}, plus any later one the armed answer
   * went to or that was not delivered; messages cut at {@link MAX_DIALOG_MESSAGE} characters.
   */
  dialogs: DialogEntry[];
  /** How many more dialogs the window saw than `dialogs` lists (a page raising a flood). */
  dialogsOmitted?: number;
  /** The tab the agent now acts on (a followed popup, or the same). */
  activePage: Page;
  /**
   * The page's main frame showed another document after the window (loaded, or restored from
   * the back/forward cache: `navigation.kind` tells which).
   */
  fullLoad: boolean;
  /**
   * The new document is not the page asked for (see {@link loadWarning}): Chromium's error
   * page of a failed load, or a server's answer of 400 or above. Absent otherwise.
   */
  loadWarning?: string;
  /** Settling stopped at its cap with work still in flight. */
  stillLoading: boolean;
  /**
   * The action opened a file chooser on the tab (seen when the window intercepts choosers:
   * `Page.fileChooserOpened`); nothing was attached.
   */
  fileChooser: boolean;
}

/** How many of a window's dialogs a result lists (see {@link Recording.dialogs}). */
export const MAX_DIALOGS = 10;
/** How much of a dialog's message a result shows, characters. */
export const MAX_DIALOG_MESSAGE = 300;

/**
 * CDP resource types as `network.summary.byType` counts them: each its own key, lower case, as
 * the request's `type` names it (a `fetch()` is `fetch`, not folded into `xhr`); any other
 * type is `other`.
 */
export const BY_TYPE: Record<string, string> = {
  XHR: "xhr",
  Fetch: "fetch",
  Document: "document",
  Script: "script",
  Stylesheet: "stylesheet",
  Image: "image",
  Font: "font",
  Media: "media",
};

/** Status texts of the answers a load most often gets, for HTTP/2 (it sends none). */
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * The warning of a new main document that is not the page asked for: Chromium's error page
 * (`chrome-error://…`, a load that failed: what the page shows is Chromium's, not the site's),
 * named with the error of the failed document request among `requests` (the window's, with
 * their frame); or a server's answer of 400 or above (`response`, the document's). Else
 * undefined. Pure.
 */
export function loadWarning(
  url: string,
  response: { status: number; statusText?: string } | undefined,
  failedDocument: { url: string; errorText?: string | undefined } | undefined,
): string | undefined {
  if (url.startsWith("chrome-error://")) {
    const why = failedDocument
      ? ` (${failedDocument.errorText ?? "no answer"} for ${reportedUrl(failedDocument.url)})`
      : "";
    return `the page failed to load${why}: the tab shows Chromium's error page, not the site`;
  }
  if (!response || response.status < 400) return undefined;
  const standard = STATUS_TEXT[response.status];
  const own = response.statusText;
  // A reason phrase of the server's own is quoted: its words, not browxai's ("500 Next: call …").
  const text = !own || own === standard ? standard : JSON.stringify(own.slice(0, 80));
  return `the server answered ${response.status}${text ? ` ${text}` : ""}`;
}

/** `url` without its fragment. */
export function stripHash(url: string): string {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}

/** The host of an http(s) URL; undefined for other schemes or a URL that does not parse. */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** `{ routed }` of a window's route events (the first 10, URLs by {@link reportedUrl}), or `{}` when none. */
export function routedOf(events: RoutedEvent[]): { routed?: RoutedEntry[] } {
  if (!events.length) return {};
  return {
    routed: events.slice(0, 10).map((e) => ({
      url: reportedUrl(e.url, e.method),
      pattern: e.pattern,
      action: e.action,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.why !== undefined ? { why: e.why } : {}),
    })),
  };
}

/**
 * The warning for reads the action's input started that had no answer when the result was
 * taken (`network.requests[].pending`; writes have their own, which says not to resend): the
 * page may still show what it shows while waiting ("Searching…").
 */
export function unansweredNote(requests: Array<{ method: string; url: string }>): string {
  const which = requests.slice(0, 3).map((r) => `${r.method} ${r.url}`).join(", ");
  const more = requests.length > 3 ? ` and ${requests.length - 3} more` : "";
  return `${requests.length === 1 ? "a request" : `${requests.length} requests`} the action ` +
    `started had no answer when the result was taken (${which}${more}; network.requests ` +
    "pending: true): the page may change when it is answered; wait_for what you expect, or " +
    "call again with a larger timeoutMs";
}
