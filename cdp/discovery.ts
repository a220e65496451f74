/**
 * Finding a Chromium to run. Order: the explicit path (`--browser`),
 * `BROWX_BROWSER`, `CHROME_PATH`, browxai's own browser cache (Chrome for
 * Testing installed by `browxai install-browser`, see `install_browser.ts`),
 * then the standard install locations of Linux, macOS and Windows, then
 * `chromium`/`google-chrome` on `PATH`.
 *
 * `BROWX_BROWSER_SEARCH=cache-only` stops after the cache (tests that must
 * not see the machine's own Chromium; an operator who wants only the pinned
 * build).
 *
 * @module
 */
import { join } from "node:path";

/** Where a browser was found, and by which rule. */
export interface FoundBrowser {
  /** Absolute path of the executable. */
  path: string;
  /** The rule that found it: `flag`, `BROWX_BROWSER`, `CHROME_PATH`, `cache`, `standard`, `PATH`. */
  source: string;
}

/** One place discovery looked at, and why it was not used (`why` undefined: it was). */
export interface TriedPath {
  path: string;
  source: string;
  /** `not found`, `not a file`, `headless-only build (headful asked)`, …; undefined for the one used. */
  why?: string | undefined;
}

/** No browser was found; `searched` lists every place looked at, in order. */
export class BrowserNotFoundError extends Error {
  readonly searched: string[];
  /** True when the user named the path (`--browser`, `BROWX_BROWSER`): never install over it. */
  readonly explicit: boolean;
  constructor(searched: string[], options: { explicit?: boolean; hint?: string } = {}) {
    super(
      `Cannot find Chromium or Chrome: searched ${searched.map((s) => `"${s}"`).join(", ")}. ` +
        (options.hint ??
          `Run "browxai install-browser" (Chrome for Testing into browxai's cache), install one ` +
            `(Debian/Ubuntu: apt-get install chromium), or point browxai at it with ` +
            `--browser PATH or BROWX_BROWSER=PATH`),
    );
    this.name = "BrowserNotFoundError";
    this.searched = searched;
    this.explicit = options.explicit ?? false;
  }
}

/** Options of {@link findChromium}. */
export interface FindChromiumOptions {
  /** `--browser` flag value; wins over everything. */
  explicitPath?: string | undefined;
  /** A headful browser is wanted: chrome-headless-shell builds in the cache are skipped. */
  headful?: boolean | undefined;
  /** Environment lookup; defaults to `Deno.env.get`. */
  env?: (name: string) => string | undefined;
  /** `Deno.build.os` value; defaults to the running OS. */
  os?: typeof Deno.build.os;
  /** Existence check; defaults to a stat that requires a file. */
  exists?: (path: string) => boolean;
  /** Lists a directory's subdirectory names; defaults to `Deno.readDirSync` ([] when missing). */
  listDirs?: (path: string) => string[];
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

/** browxai's cache dir (`BROWX_CACHE_DIR`, else `$XDG_CACHE_HOME/browxai` or the OS equivalent). */
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

/**
 * Where browxai installs browsers: `BROWX_BROWSER_CACHE`, else `browsers/` in
 * {@link cacheDir} (`~/.cache/browxai/browsers` on Linux). The layout inside
 * is `@puppeteer/browsers`' own: `<browser>/<platform>-<buildId>/<archive folder>/<exe>`.
 */
export function browserCacheDir(
  os: typeof Deno.build.os = Deno.build.os,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): string | undefined {
  if (env("BROWX_BROWSER_CACHE")) return env("BROWX_BROWSER_CACHE");
  const dir = cacheDir(os, env);
  return dir ? join(dir, "browsers") : undefined;
}

/** Executables inside a Chrome for Testing build folder, per browser name, for an OS. */
function cftExecutables(os: typeof Deno.build.os, browser: string): string[] {
  const mac = ["mac-arm64", "mac-x64"];
  const linux = ["linux64", "linux-arm64"];
  if (browser === "chrome-headless-shell") {
    if (os === "windows") return ["chrome-headless-shell-win64\\chrome-headless-shell.exe"];
    return (os === "darwin" ? mac : linux).map((f) =>
      `chrome-headless-shell-${f}/chrome-headless-shell`
    );
  }
  if (os === "windows") return ["chrome-win64\\chrome.exe"];
  if (os === "darwin") {
    return mac.map((f) =>
      `chrome-${f}/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing`
    );
  }
  return linux.map((f) => `chrome-${f}/chrome`);
}

/** Newest build first: `linux-156.0.8078.47` sorts by its version numbers. */
function byBuildDesc(a: string, b: string): number {
  const num = (s: string) => (s.match(/\d+/g) ?? []).map(Number);
  const [x, y] = [num(a), num(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (y[i] ?? 0) - (x[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** Candidate executables in the browser cache: headless shell first (headless only), then chrome. */
function cacheCandidates(
  os: typeof Deno.build.os,
  env: (name: string) => string | undefined,
  headful: boolean,
  listDirs: (path: string) => string[],
): TriedPath[] {
  const root = browserCacheDir(os, env);
  if (!root) return [];
  const out: TriedPath[] = [];
  for (const browser of ["chrome-headless-shell", "chrome"]) {
    const builds = listDirs(join(root, browser)).sort(byBuildDesc);
    if (!builds.length) {
      out.push({ path: join(root, browser, "<platform>-<build>"), source: "cache" });
      continue;
    }
    for (const b of builds) {
      for (const rel of cftExecutables(os, browser)) {
        const why = headful && browser === "chrome-headless-shell"
          ? "headless-only build (headful asked)"
          : undefined;
        out.push({ path: join(root, browser, b, rel), source: "cache", why });
      }
    }
  }
  return out;
}

function defaultExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function defaultListDirs(path: string): string[] {
  try {
    return [...Deno.readDirSync(path)].filter((e) => e.isDirectory && !e.name.startsWith("."))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * Every place discovery looks at, in order, with why each one before the
 * chosen one was skipped (`browxai doctor` prints this). Same rules as
 * {@link findChromium}, which throws where this returns `found: undefined`.
 */
export function discoverChromium(
  options: FindChromiumOptions = {},
): { found: FoundBrowser | undefined; tried: TriedPath[]; explicit: boolean } {
  const env = options.env ?? ((n: string) => Deno.env.get(n));
  const os = options.os ?? Deno.build.os;
  const exists = options.exists ?? defaultExists;
  const listDirs = options.listDirs ?? defaultListDirs;
  const tried: TriedPath[] = [];
  const named: [string, string | undefined][] = [
    ["flag", options.explicitPath],
    ["BROWX_BROWSER", env("BROWX_BROWSER")],
  ];
  for (const [source, path] of named) {
    if (!path) continue;
    // An explicit path that does not exist is an error of its own: never fall back
    // silently from what the user named.
    if (exists(path)) return { found: { path, source }, tried: [{ path, source }], explicit: true };
    tried.push({ path, source, why: "not found" });
    return { found: undefined, tried, explicit: true };
  }
  const candidates: TriedPath[] = [];
  const chromePath = env("CHROME_PATH");
  if (chromePath) candidates.push({ path: chromePath, source: "CHROME_PATH" });
  candidates.push(...cacheCandidates(os, env, options.headful ?? false, listDirs));
  if (env("BROWX_BROWSER_SEARCH") !== "cache-only") {
    for (const p of standardLocations(os, env)) candidates.push({ path: p, source: "standard" });
    const pathDirs = (env("PATH") ?? "").split(os === "windows" ? ";" : ":").filter(Boolean);
    const names = os === "windows"
      ? ["chrome.exe"]
      : ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];
    for (const d of pathDirs) {
      for (const n of names) candidates.push({ path: join(d, n), source: "PATH" });
    }
  }
  for (const c of candidates) {
    if (c.why) {
      tried.push(c);
    } else if (c.path.includes("<platform>-<build>")) {
      tried.push({ ...c, why: "nothing installed (browxai install-browser)" });
    } else if (exists(c.path)) {
      tried.push(c);
      return { found: { path: c.path, source: c.source }, tried, explicit: false };
    } else {
      tried.push({ ...c, why: "not found" });
    }
  }
  return { found: undefined, tried, explicit: false };
}

/**
 * Finds a Chromium executable (order: see the module doc).
 *
 * @throws BrowserNotFoundError with every place searched (`explicit` when
 *   the path named by `--browser`/`BROWX_BROWSER` does not exist).
 */
export function findChromium(options: FindChromiumOptions = {}): FoundBrowser {
  const { found, tried, explicit } = discoverChromium(options);
  if (found) return found;
  const searched = tried.map((t) =>
    explicit ? `${t.path} (from ${t.source === "flag" ? "--browser" : t.source})` : t.path
  );
  throw new BrowserNotFoundError(
    searched,
    explicit ? { explicit, hint: "Fix the path, or unset it to let browxai find one" } : {},
  );
}
