/**
 * Installing Chrome for Testing into browxai's browser cache, through
 * `@puppeteer/browsers` (download, checksum, unzip: the library's, none of
 * our own): chrome-headless-shell for headless use, chrome for headful, at
 * the pinned known-good build {@link PINNED_BUILD}.
 *
 * What this adds around the library:
 * - a lock (`install_lock.ts`): two servers never download at once; the
 *   second waits and reuses what the first installed;
 * - an atomic install: the library downloads and unpacks into a temp folder
 *   in the cache (`.tmp-<pid>-…`), the build is checked, then renamed into
 *   place; a failed or corrupt download leaves nothing, and temp folders of
 *   an interrupted install (a killed process) are removed by the next one;
 * - an integrity check: the archive's SHA-256 when one is known (`sha256`
 *   option / `BROWX_BROWSER_SHA256`, else a `<archive URL>.sha256` the mirror
 *   serves beside it), and always: the unpacked binary must run `--version`;
 * - when it cannot start for missing shared libraries, the `apt-get install`
 *   line that fixes it (`missing_libs.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type { BrowserPlatform } from "@puppeteer/browsers";
import { browserCacheDir } from "./discovery.ts";
import { acquireInstallLock } from "./install_lock.ts";
import { aptInstallLine, missingSonames } from "./missing_libs.ts";

/**
 * The Chrome for Testing build browxai installs: the one Puppeteer 25.16
 * pins and tests against (its `PUPPETEER_REVISIONS`), the same major as the
 * `devtools-protocol` types browxai is compiled with.
 */
export const PINNED_BUILD = "156.0.8078.47";

/** The install failed; the message says why and what to do. Nothing was left in the cache. */
export class BrowserInstallError extends Error {
  /** The `apt-get install -y …` line when the browser lacks shared libraries. */
  readonly aptGet: string | undefined;
  constructor(message: string, options: { aptGet?: string | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "BrowserInstallError";
    this.aptGet = options.aptGet;
  }
}

/** Download progress, bytes (`total` 0 when the server sent no length). */
export interface InstallProgress {
  browser: string;
  buildId: string;
  downloaded: number;
  total: number;
}

/** Options of {@link installBrowser}. */
export interface InstallBrowserOptions {
  /** Install chrome (can show windows) instead of chrome-headless-shell. @default false */
  headful?: boolean;
  /** The cache folder. @default browserCacheDir() */
  cacheDir?: string | undefined;
  /** Base URL in Chrome for Testing's layout (`BROWX_BROWSER_MIRROR`). @default Google's bucket */
  mirror?: string | undefined;
  /** Build to install. @default PINNED_BUILD */
  buildId?: string;
  /** Expected SHA-256 of the archive (lowercase hex). @default BROWX_BROWSER_SHA256 or the mirror's */
  sha256?: string | undefined;
  /** Called as bytes arrive. */
  onProgress?: (p: InstallProgress) => void;
  /** Called once when another process holds the install lock and this one waits. */
  onWait?: (holderPid: number | undefined) => void;
}

/** What {@link installBrowser} installed or found. */
export interface InstalledBrowserInfo {
  /** Absolute path of the executable. */
  path: string;
  browser: "chrome-headless-shell" | "chrome";
  buildId: string;
  /** What the binary printed for `--version`. */
  version: string;
  /** True when it was already installed (by an earlier run or the lock's previous holder). */
  reused: boolean;
}

/**
 * Runs `exe --version` (20 s at most).
 *
 * @returns The version line.
 * @throws BrowserInstallError, with the `apt-get` line when shared libraries are missing.
 */
export async function probeBrowser(exe: string): Promise<string> {
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(exe, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(20_000),
    }).output();
  } catch (e) {
    throw new BrowserInstallError(`Cannot run "${exe}": ${(e as Error).message}`, { cause: e });
  }
  const stdout = new TextDecoder().decode(out.stdout).trim();
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (out.success && /\d+\.\d+/.test(stdout)) return stdout.split("\n")[0]!;
  let sonames = missingSonames(stderr);
  if (sonames.length && Deno.build.os === "linux") {
    // The loader names only the first missing library; ldd names them all.
    const ldd = await new Deno.Command("ldd", { args: [exe], stdout: "piped", stderr: "null" })
      .output().catch(() => undefined);
    if (ldd) {
      sonames = [...new Set([...sonames, ...missingSonames(new TextDecoder().decode(ldd.stdout))])];
    }
  }
  const { line, unknown } = aptInstallLine(sonames);
  if (sonames.length) {
    throw new BrowserInstallError(
      `The browser "${exe}" cannot start: missing shared libraries ${sonames.join(", ")}` +
        (line ? `. Install them (Debian/Ubuntu, as root): ${line}` : "") +
        (unknown.length ? ` (no package known for ${unknown.join(", ")})` : ""),
      { aptGet: line },
    );
  }
  throw new BrowserInstallError(
    `The browser "${exe}" does not run: --version exited with ${out.code}` +
      (stderr ? `: ${stderr.split("\n")[0]}` : ""),
  );
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The archive's expected SHA-256: given, from the environment, or `<url>.sha256` on the mirror. */
async function expectedSha256(
  url: URL,
  given: string | undefined,
  mirror: string | undefined,
): Promise<string | undefined> {
  const named = given ?? Deno.env.get("BROWX_BROWSER_SHA256");
  if (named) return named.trim().toLowerCase();
  if (!mirror) return undefined;
  try {
    const res = await fetch(`${url}.sha256`, { signal: AbortSignal.timeout(10_000) });
    const text = res.ok ? await res.text() : (await res.body?.cancel(), "");
    return /^[0-9a-f]{64}\b/i.exec(text.trim())?.[0].toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Installs (or finds already installed) the pinned Chrome for Testing build
 * in the browser cache. Safe to call from several processes at once.
 *
 * @returns Where it is, and whether it was there already.
 * @throws BrowserInstallError: no build for this platform, download or
 *   unpack failed (truncated, corrupt, checksum mismatch), the binary does
 *   not run (with the `apt-get` line for missing libraries).
 */
export async function installBrowser(
  options: InstallBrowserOptions = {},
): Promise<InstalledBrowserInfo> {
  const root = options.cacheDir ?? browserCacheDir();
  if (!root) {
    throw new BrowserInstallError(
      "Cannot install a browser: no cache folder (set BROWX_BROWSER_CACHE or HOME)",
    );
  }
  // Loaded here, not at start: only a machine without a browser needs the installer.
  const {
    Browser: PbBrowser,
    computeExecutablePath,
    detectBrowserPlatform,
    getDownloadUrl,
    install,
  } = await import("@puppeteer/browsers");
  const platform: BrowserPlatform | undefined = detectBrowserPlatform();
  if (!platform) {
    throw new BrowserInstallError(
      `Cannot install a browser: Chrome for Testing has no build for ${Deno.build.os} ${Deno.build.arch}`,
    );
  }
  const browser = options.headful ? PbBrowser.CHROME : PbBrowser.CHROMEHEADLESSSHELL;
  const buildId = options.buildId ?? PINNED_BUILD;
  const mirror = options.mirror?.replace(/\/+$/, "") || undefined;
  const exeIn = (cacheDir: string) =>
    computeExecutablePath({ cacheDir, browser, buildId, platform });
  const final = join(root, browser, `${platform}-${buildId}`);
  const done = (path: string, version: string, reused: boolean): InstalledBrowserInfo => ({
    path,
    browser,
    buildId,
    version,
    reused,
  });
  const lock = await acquireInstallLock(root, { onWait: options.onWait });
  try {
    await removeLeftovers(root);
    if (await exists(exeIn(root))) {
      try {
        return done(exeIn(root), await probeBrowser(exeIn(root)), true);
      } catch (e) {
        // Missing libraries are the machine's, not the install's: say so, keep the build.
        if (e instanceof BrowserInstallError && e.aptGet) throw e;
      }
    }
    // A folder without a working browser is an install that did not finish: start over.
    await Deno.remove(final, { recursive: true }).catch(() => {});
    const tmp = await Deno.makeTempDir({ dir: root, prefix: `.tmp-${Deno.pid}-` });
    try {
      const url = getDownloadUrl(browser, platform, buildId, mirror);
      const sha = await expectedSha256(url, options.sha256, mirror);
      try {
        await install({
          cacheDir: tmp,
          browser,
          buildId,
          platform,
          ...(mirror ? { baseUrl: mirror } : {}),
          ...(sha ? { expectedHash: sha } : {}),
          downloadProgressCallback: (downloaded: number, total: number) =>
            options.onProgress?.({ browser, buildId, downloaded, total }),
        });
      } catch (e) {
        throw new BrowserInstallError(
          `Cannot install ${browser} ${buildId} from ${url}: ${(e as Error).message}` +
            ((e as Error).cause ? ` (${((e as Error).cause as Error).message})` : ""),
          { cause: e },
        );
      }
      const version = await probeBrowser(exeIn(tmp));
      await Deno.mkdir(join(root, browser), { recursive: true });
      await Deno.rename(join(tmp, browser, `${platform}-${buildId}`), final);
      return done(exeIn(root), version, false);
    } finally {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
  } finally {
    lock.release();
  }
}

/** Temp folders of installs that did not finish (their process died). Called under the lock. */
async function removeLeftovers(root: string): Promise<void> {
  for await (const e of Deno.readDir(root)) {
    if (e.name.startsWith(".tmp-")) {
      await Deno.remove(join(root, e.name), { recursive: true }).catch(() => {});
    }
  }
}

/**
 * A progress printer for stderr: a bar redrawn in place on a terminal, a
 * line every 10 % otherwise (logs stay short).
 */
export function stderrProgress(): (p: InstallProgress) => void {
  const tty = Deno.stderr.isTerminal();
  let lastStep = -1;
  const enc = new TextEncoder();
  return (p) => {
    const mb = (n: number) => (n / 1e6).toFixed(1);
    const pct = p.total ? Math.floor((p.downloaded / p.total) * 100) : 0;
    const step = Math.floor(pct / 10);
    const finished = p.total > 0 && p.downloaded >= p.total;
    if (!tty && step === lastStep && !finished) return;
    if (!tty && finished && lastStep === 10) return;
    lastStep = finished ? 10 : step;
    const bar = "#".repeat(Math.floor(pct / 5)).padEnd(20, ".");
    const text = `browxai: downloading ${p.browser} ${p.buildId} [${bar}] ${pct}% ` +
      `(${mb(p.downloaded)}/${p.total ? mb(p.total) : "?"} MB)`;
    Deno.stderr.writeSync(enc.encode(tty ? `\r${text}${finished ? "\n" : ""}` : `${text}\n`));
  };
}
