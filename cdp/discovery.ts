/**
 * Finding a Chromium to run: explicit path, environment, then the standard
 * install locations of Linux, macOS and Windows, then Chrome for Testing in
 * browxai's cache dir.
 *
 * @module
 */
import { join } from "node:path";

/** Where a browser was found, and by which rule. */
export interface FoundBrowser {
  /** Absolute path of the executable. */
  path: string;
  /** The rule that found it: `flag`, `BROWX_BROWSER`, `CHROME_PATH`, `standard`, `PATH`, `cache`. */
  source: string;
}

/** No browser was found; `searched` lists every place looked at, in order. */
export class BrowserNotFoundError extends Error {
  readonly searched: string[];
  constructor(searched: string[]) {
    super(
      `Cannot find Chromium or Chrome: searched ${searched.map((s) => `"${s}"`).join(", ")}. ` +
        `Install one (Debian/Ubuntu: apt-get install chromium) or point browxai at it with ` +
        `--browser PATH or BROWX_BROWSER=PATH`,
    );
    this.name = "BrowserNotFoundError";
    this.searched = searched;
  }
}

/** Options of {@link findChromium}. */
export interface FindChromiumOptions {
  /** `--browser` flag value; wins over everything. */
  explicitPath?: string | undefined;
  /** Environment lookup; defaults to `Deno.env.get`. */
  env?: (name: string) => string | undefined;
  /** `Deno.build.os` value; defaults to the running OS. */
  os?: typeof Deno.build.os;
  /** Existence check; defaults to a stat that requires a file. */
  exists?: (path: string) => boolean;
}

/** The standard install locations for an OS, most specific first. */
export function standardLocations(
  os: typeof Deno.build.os,
  env: (name: string) => string | undefined,
): string[] {
  if (os === "darwin") {
    const apps = [
      "Google Chrome.app/Contents/MacOS/Google Chrome",
      "Chromium.app/Contents/MacOS/Chromium",
      "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
      "Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
    ];
    const home = env("HOME");
    return [
      ...apps.map((a) => `/Applications/${a}`),
      ...(home ? apps.map((a) => `${home}/Applications/${a}`) : []),
    ];
  }
  if (os === "windows") {
    const roots = [env("PROGRAMFILES"), env("PROGRAMFILES(X86)"), env("LOCALAPPDATA")]
      .filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      `${r}\\Google\\Chrome\\Application\\chrome.exe`,
      `${r}\\Chromium\\Application\\chrome.exe`,
    ]);
  }
  // Linux and the BSDs. The Debian wrapper /usr/bin/chromium is a shell
  // script; the real binary beside it starts faster and gets our signals.
  return [
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "/usr/lib/chromium-browser/chromium-browser",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome-stable",
    "/usr/bin/google-chrome",
    "/opt/google/chrome/chrome",
    "/snap/bin/chromium",
  ];
}

/** browxai's cache dir for downloaded browsers (`$XDG_CACHE_HOME/browxai` or the OS equivalent). */
export function cacheDir(
  os: typeof Deno.build.os,
  env: (name: string) => string | undefined,
): string | undefined {
  if (env("BROWX_CACHE_DIR")) return env("BROWX_CACHE_DIR");
  const home = env("HOME") ?? env("USERPROFILE");
  if (os === "windows") {
    const local = env("LOCALAPPDATA");
    return local ? join(local, "browxai") : undefined;
  }
  if (os === "darwin") return home ? join(home, "Library", "Caches", "browxai") : undefined;
  const xdg = env("XDG_CACHE_HOME");
  return xdg ? join(xdg, "browxai") : home ? join(home, ".cache", "browxai") : undefined;
}

function defaultExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function chromeForTesting(
  os: typeof Deno.build.os,
  env: (name: string) => string | undefined,
): string[] {
  const dir = cacheDir(os, env);
  if (!dir) return [];
  const root = join(dir, "chrome");
  const rel = os === "windows" ? ["chrome-win64/chrome.exe"] : os === "darwin"
    ? [
      "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
      "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    ]
    : ["chrome-linux64/chrome", "chrome-linux-arm64/chrome"];
  let versions: string[] = [];
  try {
    versions = [...Deno.readDirSync(root)].filter((e) => e.isDirectory).map((e) => e.name)
      .sort().reverse();
  } catch {
    return [join(root, "<version>", rel[0]!)];
  }
  return versions.flatMap((v) => rel.map((r) => join(root, v, r)));
}

/**
 * Finds a Chromium executable. Order: `explicitPath`, `BROWX_BROWSER`,
 * `CHROME_PATH`, the standard install locations, `chromium`/`google-chrome`
 * on `PATH`, Chrome for Testing in the cache dir.
 *
 * An explicit path that does not exist is an error of its own (we never fall
 * back silently from what the user named).
 *
 * @throws BrowserNotFoundError with every place searched.
 */
export function findChromium(options: FindChromiumOptions = {}): FoundBrowser {
  const env = options.env ?? ((n: string) => Deno.env.get(n));
  const os = options.os ?? Deno.build.os;
  const exists = options.exists ?? defaultExists;
  const named: [string, string | undefined][] = [
    ["flag", options.explicitPath],
    ["BROWX_BROWSER", env("BROWX_BROWSER")],
  ];
  for (const [source, path] of named) {
    if (!path) continue;
    if (exists(path)) return { path, source };
    throw new BrowserNotFoundError([`${path} (from ${source === "flag" ? "--browser" : source})`]);
  }
  const searched: string[] = [];
  const chromePath = env("CHROME_PATH");
  const candidates: [string, string][] = [];
  if (chromePath) candidates.push(["CHROME_PATH", chromePath]);
  for (const p of standardLocations(os, env)) candidates.push(["standard", p]);
  const pathDirs = (env("PATH") ?? "").split(os === "windows" ? ";" : ":").filter(Boolean);
  const names = os === "windows"
    ? ["chrome.exe"]
    : ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];
  for (const d of pathDirs) for (const n of names) candidates.push(["PATH", join(d, n)]);
  for (const p of chromeForTesting(os, env)) candidates.push(["cache", p]);
  for (const [source, path] of candidates) {
    if (exists(path)) return { path, source };
    searched.push(path);
  }
  throw new BrowserNotFoundError(searched);
}
