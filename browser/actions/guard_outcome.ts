/**
 * What the navigation guard's verdicts become in an acting tool: the
 * `blocked-by-policy` error of an action whose navigation was stopped.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";
import { type BlockedNavigation, noteOrigin } from "../nav_guard/nav_guard.ts";
import { keysOnly, shownUrl } from "../network_writes.ts";

/**
 * The error of an action whose navigation the policy stopped (the tab has
 * not moved): details `url` (where the tab stands), `blockedUrl`,
 * `redirected_to` (a stopped redirect hop) and `policy.rule`.
 *
 * @param options.openedTab the index of the new tab the navigation was to load in (a form with
 *   `target=_blank`): said, and `tabUrl` is the acted-on tab's URL. Details `openedTab`.
 * @param options.openedClosed that tab was closed since (it stayed blank).
 * @param options.unlistedTab the navigation was a new tab's that was closed (blank) before it was
 *   listed among the session's tabs (a tab the browser opened itself).
 */
export function blockedNavigation(
  stopped: BlockedNavigation[],
  tabUrl: string,
  options: { openedTab?: number | undefined; openedClosed?: boolean; unlistedTab?: boolean } = {},
): ToolError {
  const stop = stopped[0]!;
  const opened = options.openedTab;
  // Where the request was to load, and that the acted-on tab stayed.
  const stayed = options.unlistedTab
    ? `it was to load in a new tab (closed again, blank); this tab has not moved (${tabUrl})`
    : opened === undefined
    ? `the tab has not moved (${tabUrl})`
    : `it was to load in a new tab (tab ${opened}, left blank${
      options.openedClosed ? " and closed again" : ""
    }); this tab has not moved (${tabUrl})`;
  // A form's URL carries its fields' values (a GET form with a password field): by its keys.
  const formish = stop.form || stop.reason === "submit" || stop.replay;
  const b = { ...stop, url: formish ? keysOnly(stop.url) : shownUrl({ url: stop.url }) };
  const details = {
    url: tabUrl,
    ...(opened !== undefined ? { openedTab: opened } : {}),
    blockedUrl: b.url,
    ...(b.redirectedTo ? { redirected_to: b.redirectedTo } : {}),
    policy: {
      rule: b.secret !== undefined
        ? "secret-origin"
        : b.newTab
        ? "new-tab-click"
        : b.replay
        ? "form-resend"
        : b.unapproved
        ? "unapproved-submit"
        : b.reason === "submit"
        ? "undeclared-submit"
        : b.form
        ? "form-target"
        : "navigation",
      decision: "refused",
    },
  };
  if (b.secret !== undefined && b.webSocket) {
    // Chromium holds no WebSocket or WebTransport: seen as it went, so say it may have gone.
    const kind = b.webSocket === "webtransport" ? "WebTransport session" : "WebSocket";
    return new ToolError(
      "blocked-by-policy",
      `policy: the secret guard saw a ${kind} to ${noteOrigin(b.url)} carry the secret ` +
        `${b.secret} (${
          b.webSocket === "frame" ? "in a message sent on it" : "in its URL"
        }), which is bound to other origins. No guard can hold a ${kind}: it may have been ` +
        "sent, and the page may send it again while it stays open",
      "leave this page (navigate elsewhere, or close its tab) and do not fill the secret into " +
        "it again; tell the operator: the value may need rotating",
      details,
    );
  }
  if (b.secret !== undefined) {
    // What became of the tab: a stopped document leaves its frame where it was; a page's own
    // request (a fetch, a beacon) was never to move it, and the tab is wherever it is now.
    const after = b.request
      ? `(a request of the page's own, not a navigation; the tab is at ${tabUrl})`
      : b.subframe
      ? `(an iframe's document: the frame shows "blocked by policy"; the tab is at ${tabUrl})`
      : `and the tab has not moved (${tabUrl})`;
    return new ToolError(
      "blocked-by-policy",
      // Which secret is not said: a URL the agent wrote would learn by it which value it
      // guessed (red team s17 F2).
      `policy: the secret guard stopped a request to ${noteOrigin(b.url)}: it carried a ` +
        `registered secret bound to other origins, and was not sent ${after}`,
      "send a bound secret only to the origins the secrets file names (NAME@origin=value)",
      details,
    );
  }
  if (b.newTab) {
    return new ToolError(
      "blocked-by-policy",
      `policy: this click or Enter (with Ctrl, Meta, Shift, Alt or the middle button) would open ` +
        `${b.url} in a new tab or download it, which the navigation guard cannot hold; nothing was opened or sent and ` +
        `the tab has not moved (${tabUrl})`,
      "click without modifiers (add submits: true for a form), or open a tab with " +
        'tabs({ action: "new" }) and navigate it',
      details,
    );
  }
  if (b.replay) {
    return new ToolError(
      "blocked-by-policy",
      `policy: this would send a form again (POST to ${b.url}); browxai never resends a form ` +
        `from history or a reload; the tab has not moved (${tabUrl})`,
      "submit the form again yourself (submits: true), or navigate to a page",
      details,
    );
  }
  if (b.unapproved && b.webSocket) return unapprovedSocket(b, tabUrl, details);
  if (b.unapproved && b.redirectedTo) {
    return new ToolError(
      "blocked-by-policy",
      `policy: the approved send went, and its server answered with a redirect that would send ` +
        `the same data on to ${b.url}, an origin the human was not told of ` +
        `(${b.unapproved.join(", ")}); that was refused and not sent there; ${stayed}`,
      "tell the human where the site redirects; calling again asks them again",
      details,
    );
  }
  if (b.unapproved && b.request) {
    // A script's write after the yes (red team s15 #4): the yes covered one send, not this.
    const what = b.again
      ? "again, after the approved send had gone (a yes covers one send)"
      : b.dataChanged
      ? `with other data than the human approved (${b.dataChanged.join(", ")})`
      : `not where the human approved the form to send (${b.unapproved.join(", ")})`;
    return new ToolError(
      "page-changed",
      `policy: after the human's yes the page sent a request of its own (to ${b.url}) ${what}; ` +
        `it was refused and not sent (the tab is at ${tabUrl})`,
      "take a snapshot to see the page as it is now; calling again asks the human about that",
      { ...details, ...(b.dataChanged ? { changed: b.dataChanged } : {}) },
    );
  }
  if (b.unapproved && b.dataChanged) {
    return new ToolError(
      "page-changed",
      `Nothing was sent: the form went to ${b.url} with other data than the human approved ` +
        `(${b.dataChanged.join(", ")}): the page changed it as it was sent; ${stayed}`,
      "take a snapshot to see the form as it is now; calling again asks the human about that " +
        "(a page that always does this needs a yes for the whole site, or a pre-approval)",
      { ...details, changed: b.dataChanged },
    );
  }
  if (b.unapproved && b.again) {
    return new ToolError(
      "page-changed",
      `policy: the page sent the approved form again (to ${b.url}) after the approved send had ` +
        `gone (a yes covers one send); it was not sent again and ${stayed}`,
      "take a snapshot to see the page as it is now; tell the human what the page did",
      details,
    );
  }
  if (b.unapproved) {
    return new ToolError(
      "blocked-by-policy",
      `policy: the form went to ${b.url}, not where the human approved it to send ` +
        `(${
          b.unapproved.join(", ")
        }): the page changed it as it was sent; it was not sent and ${stayed}`,
      "take a snapshot to see the form as it is now; calling again asks the human about that " +
        "(a page that always does this needs a yes for the whole site, or a pre-approval)",
      details,
    );
  }
  if (b.form) {
    return new ToolError(
      "blocked-by-policy",
      `policy: the form sends to ${b.url}, which no approval covers (${b.why}); ` +
        (b.subframe ? `it was not sent (${tabUrl})` : `it was not sent and ${stayed}`),
      "send forms only to approved origins; the operator can add the origin to BROWX_ALLOWED_ORIGINS",
      details,
    );
  }
  if (b.reason === "submit") {
    return new ToolError(
      "blocked-by-policy",
      `policy: the page tried to send a form (to ${b.url}) that this call did not declare; ` +
        `the request was stopped and ${stayed}` +
        // A script's request fails under the page's own handler: it may show an error now.
        (b.request ? " (the page saw its request fail)" : ""),
      "repeat the call with submits: true if you mean to send the form" +
        (b.request ? "; if the page now shows an error, reload it first" : ""),
      details,
    );
  }
  return new ToolError(
    "blocked-by-policy",
    // A new tab's first request: the agent's own Ctrl-click, or a page's script.
    `policy: ${
      opened === undefined && !options.unlistedTab
        ? "the page tried to take the tab"
        : "a new tab was to go"
    } to ${b.url}${
      b.redirectedTo ? " (through a redirect)" : ""
    }, which no approval covers; the request was stopped and ${stayed}`,
    "navigate to that URL yourself to be asked for it, or stay on the approved sites",
    details,
  );
}

/**
 * The error of a WebSocket (or WebTransport session) a page opened or used after a human's yes
 * (`approved_hold.ts`): a socket opened then was refused before it connected (`socketHeld`);
 * a message on one opened before, or a socket no rule held, may have gone.
 */
function unapprovedSocket(
  b: BlockedNavigation,
  tabUrl: string,
  details: Record<string, unknown>,
): ToolError {
  const kind = b.webSocket === "webtransport" ? "WebTransport session" : "WebSocket";
  const what = b.webSocket === "frame"
    ? `sent a message on a WebSocket (to ${b.url}) it had opened before; no guard can hold a ` +
      "WebSocket: it may have been sent"
    : b.socketHeld
    ? `opened a WebSocket (to ${b.url}): it was refused before it connected, nothing was sent on it`
    : `opened a ${kind} (to ${b.url}), which no guard could hold: it may have been sent`;
  return new ToolError(
    "page-changed",
    `policy: after the human's yes the page ${what}; the approved send is the only write a ` +
      `yes allows (the tab is at ${tabUrl}; whether the approved form went shows in network)`,
    "take a snapshot to see the page as it is now; tell the human what the page did before " +
      "sending again",
    details,
  );
}

/**
 * Splits what the guard stopped during an action: `errors` make the action
 * fail (a navigation of a tab, any form); `notes` are warnings (an iframe's
 * document refused while the page loaded: the page works, the frame shows
 * "blocked by policy").
 */
export function sortStopped(
  stopped: BlockedNavigation[],
): { errors: BlockedNavigation[]; notes: string[] } {
  const errors = stopped.filter((b) => !b.subframe || b.form);
  const notes = [
    ...new Set(
      stopped.filter((b) => b.subframe && !b.form).map((b) =>
        `policy: an iframe's document from ${noteOrigin(b.url)} was not loaded (${b.why}); ` +
        'the frame shows "blocked by policy"'
      ),
    ),
  ];
  return { errors, notes };
}
