/**
 * Starting a session's browser side: an incognito context in the shared browser, a profile's
 * own Chromium (persistent), someone else's browser (attached), or — `headful` on a headless
 * server — a shown Chromium of the session's own.
 *
 * @module
 */
import { ToolError } from "../tool_error.ts";
import type { BrowserHost } from "./browser_host.ts";
import { BrowserSession } from "./browser_session.ts";
import type { SessionMode } from "./browser_session_types.ts";
import type { SecretSpans } from "./log_text.ts";

/** Options of `SessionManager.open`. */
export interface OpenOptions {
  mode: SessionMode;
  /** CDP endpoint for `attached`. */
  endpoint?: string | undefined;
  /**
   * Show the session's browser to a person (seed 004's shared window): on a headless server,
   * an incognito session gets a Chromium of its own with its windows shown (a temp profile),
   * a persistent one its profile's browser shown. Not for `attached` (whoever runs that
   * browser decides). Needs a display (`DISPLAY` on Linux: Xvfb serves in CI).
   */
  headful?: boolean | undefined;
  /**
   * `persistent`: the profile directory the operator named (`--user-data-dir`, absolute), used
   * as it is instead of the workspace's profile of the session's name.
   */
  profileDir?: string | undefined;
}

/**
 * Refuses a shown browser where there is no screen to show it on (Linux without `DISPLAY` or
 * `WAYLAND_DISPLAY`): Chromium would fail to start with a less clear message.
 *
 * @throws ToolError browser-unavailable.
 */
function checkDisplay(): void {
  if (Deno.build.os !== "linux") return;
  if (Deno.env.get("DISPLAY") || Deno.env.get("WAYLAND_DISPLAY")) return;
  throw new ToolError(
    "browser-unavailable",
    "Cannot show a browser window: this machine has no display (DISPLAY is not set)",
    "open the session without headful (a person can watch it in the web console, browxai " +
      "--console), or run browxai with a display (e.g. under xvfb-run)",
  );
}

/** Profiles open anywhere in this process (two opens of one profile are refused). */
const openProfiles = new Set<string>();

/**
 * Starts the browser side of session `name` (see the module doc).
 *
 * @param deps.profileDir Makes (through the path guard) the folder of a persistent profile.
 * @param deps.manyClients The host's shared browser serves other MCP clients too: an
 *   incognito session there is `sharedWithClients`.
 * @throws ToolError refused (a profile open twice), invalid-argument (attached without an
 *   endpoint), browser-unavailable (headful without a display); launch and connection errors.
 */
export async function launchSession(
  name: string,
  options: OpenOptions,
  deps: {
    host: BrowserHost;
    secretSpans: SecretSpans | undefined;
    profileDir: (name: string) => Promise<string>;
    manyClients?: boolean | undefined;
  },
): Promise<BrowserSession> {
  if (options.headful) checkDisplay();
  // A shown session on a headless server: its own shown Chromium (a temp profile, a fresh
  // default context like an incognito one), closed with the session.
  if (options.mode === "incognito" && options.headful && !deps.host.headful) {
    const routed = await deps.host.launch(undefined, { headful: true });
    return new BrowserSession({
      id: name,
      mode: "incognito",
      routed,
      browserContextId: undefined,
      ownsContext: false,
      ownsBrowser: true,
      secretSpans: deps.secretSpans,
      headful: true,
    });
  }
  const headful = deps.host.headful || options.headful === true;
  if (options.mode === "incognito") {
    const routed = await deps.host.shared();
    const ctx = await routed.browser.createContext();
    return new BrowserSession({
      id: name,
      mode: "incognito",
      routed,
      browserContextId: ctx,
      ownsContext: true,
      ownsBrowser: false,
      secretSpans: deps.secretSpans,
      headful,
      sharedWithClients: deps.manyClients === true,
    });
  }
  if (options.mode === "persistent") {
    const profileDir = options.profileDir ?? await deps.profileDir(name);
    if (openProfiles.has(profileDir)) {
      throw new ToolError(
        "refused",
        `Cannot open profile "${name}": another session of this server has it open`,
        "close that session first, or use another session name; over --http, a profile " +
          "(--user-data-dir) is one client's at a time unless the server runs with " +
          "--shared-browser-context",
      );
    }
    openProfiles.add(profileDir);
    try {
      const routed = await deps.host.launch(profileDir, { headful });
      routed.browser.closed.then(() => openProfiles.delete(profileDir));
      return new BrowserSession({
        id: name,
        mode: "persistent",
        routed,
        browserContextId: undefined,
        ownsContext: false,
        ownsBrowser: true,
        profileDir,
        secretSpans: deps.secretSpans,
        headful,
      });
    } catch (e) {
      openProfiles.delete(profileDir);
      throw e;
    }
  }
  if (!options.endpoint) {
    throw new ToolError(
      "invalid-argument",
      'Missing "endpoint" for mode "attached"',
      'pass endpoint: "ws://host:port/devtools/browser/…" or "http://host:port"',
    );
  }
  const routed = await deps.host.attach(options.endpoint);
  return new BrowserSession({
    id: name,
    mode: "attached",
    routed,
    browserContextId: undefined,
    ownsContext: false,
    ownsBrowser: false,
    secretSpans: deps.secretSpans,
  });
}
