/**
 * The command line browxai starts Chromium with, and a new profile's preferences: flags that
 * keep Chromium off the network it would call home on, headless or headed, the sandbox, and a
 * caller's own switches (its `--disable-features` joined to ours). `launcher.ts` uses them.
 *
 * @module
 */
import { join } from "node:path";

/** What {@link chromiumArgs} needs (see `LaunchOptions` in `launcher.ts`). */
export interface ChromiumArgsOptions {
  /** The profile directory. */
  userDataDir: string;
  /** Show a window. @default false */
  headful?: boolean;
  /** Extra command-line switches. */
  args?: string[];
  /** A DevTools port on 127.0.0.1 instead of the pipe. @default false */
  debugPort?: boolean;
}

/** Switches that keep Chromium quiet: no calls home, no throttling, no first-run UI. */
const CLOSED_NETWORK_FLAGS = [
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--disable-crash-reporter",
  "--metrics-recording-only",
  "--no-pings",
  "--password-store=basic",
  "--use-mock-keychain",
  "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider," +
  "CalculateNativeWinOcclusion,InterestFeedContentSuggestions,AutofillServerCommunication," +
  "CertificateTransparencyComponentUpdater,AcceptCHFrame,PrivacySandboxSettings4," +
  "Prerender2," +
  // The omnibox's WebUI popups (two renderers, `--top-chrome-webui`) are started with a
  // browser's first window even when headless, where no omnibox is ever shown: on a cold
  // start they took CPU from the first tab's renderer (~0.6 s of CPU on 2 busy cores).
  "WebUIOmniboxPopup,WebUIOmniboxAimPopup," +
  // Debian's Chromium asks clients2.google.com for the time at start despite the switches above.
  "NetworkTimeServiceQuerying," +
  // Requests the browser process sends for a page, which no CDP Fetch interception sees (not on
  // the browser target either) and `Network.setBlockedURLs` does not stop: Background Fetch
  // (`registration.backgroundFetch`, the download service), PaymentRequest (a HEAD to the
  // method URL) and FedCM (`navigator.credentials.get({identity})`, its config and
  // `/.well-known/web-identity`). A page could send a bound secret or an undeclared POST past
  // every guard by them (red team s15 #1, #2). Each switch removes its API from every realm
  // (the Blink flag `--disable-blink-features=PaymentRequest` alone does not; measured).
  "BackgroundFetch,WebPayments,FedCm," +
  // `fetchLater()` to a URL `Network.setBlockedURLs` blocks (`--blocked-origins`) killed the
  // tab's renderer (red team s15 #9; raw CDP, no browxai: Inspector.targetCrashed), a page-made
  // crash of every later call. Without the API the page's call throws and nothing is sent.
  "FetchLaterAPI",
  // Nor do those switches stop its on-demand component check (update.googleapis.com) or its
  // account checks (accounts.google.com, every few seconds): through a --proxy-server, a user's
  // proxy saw them all. Pointed at a closed loopback port (loopback bypasses any proxy), they
  // fail at once, locally (scripts/background_requests.ts: 8 requests in 60 s, now none).
  "--component-updater=url-source=http://127.0.0.1:9/",
  "--gaia-url=http://127.0.0.1:9/",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-renderer-backgrounding",
  "--disable-ipc-flooding-protection",
  "--disable-hang-monitor",
  "--disable-prompt-on-repost",
  "--disable-popup-blocking",
  "--mute-audio",
  "--disable-dev-shm-usage",
];

/**
 * A fresh profile's preferences: no preloading (`net.network_prediction_options`
 * 2 = never), so speculation rules neither prefetch nor prerender a page the
 * navigation guard never saw a request for.
 */
const NO_PRELOADING_PREFS = JSON.stringify({ net: { network_prediction_options: 2 } });

/** Gives a profile that has no preferences yet {@link NO_PRELOADING_PREFS}; an existing one is left as it is. */
export async function newProfilePrefs(userDataDir: string): Promise<void> {
  await Deno.mkdir(join(userDataDir, "Default"), { recursive: true });
  try {
    await Deno.writeTextFile(join(userDataDir, "Default", "Preferences"), NO_PRELOADING_PREFS, {
      createNew: true,
    });
  } catch (e) {
    if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
  }
}

function isRoot(): boolean {
  try {
    return Deno.build.os !== "windows" && Deno.uid() === 0;
  } catch {
    return false;
  }
}

/** The command line browxai passes to Chromium (without the start URL). */
export function chromiumArgs(options: ChromiumArgsOptions): string[] {
  const args = [
    ...(options.debugPort
      ? ["--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"]
      : ["--remote-debugging-pipe"]),
    `--user-data-dir=${options.userDataDir}`,
    ...CLOSED_NETWORK_FLAGS,
  ];
  // A common laptop viewport: the headless default (800x600 window) is small for today's layouts.
  if (!options.headful) args.push("--headless", "--hide-scrollbars", "--window-size=1280,800");
  if (isRoot()) args.push("--no-sandbox");
  // Chromium keeps only the last --disable-features: a caller's own list joins ours instead of
  // silently turning ours back on.
  const DISABLE = "--disable-features=";
  const extra = options.args ?? [];
  const theirs = extra.filter((a) => a.startsWith(DISABLE)).map((a) => a.slice(DISABLE.length));
  if (theirs.length) {
    const i = args.findIndex((a) => a.startsWith(DISABLE));
    args[i] = [args[i], ...theirs.filter((f) => f)].join(",");
  }
  args.push(...extra.filter((a) => !a.startsWith(DISABLE)));
  return args;
}
