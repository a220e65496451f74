/**
 * A headless Chromium's user agent without the "HeadlessChrome" token: what the same build
 * sends with a window. Passed as `--user-agent` at launch, which (unlike a CDP override
 * without metadata) keeps `navigator.userAgentData` and the `Sec-CH-UA` headers as they are.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { cacheDir } from "./discovery.ts";

/** The platform part of Chrome's reduced user agent on this OS. */
function platformToken(os: typeof Deno.build.os): string {
  if (os === "darwin") return "Macintosh; Intel Mac OS X 10_15_7";
  if (os === "windows") return "Windows NT 10.0; Win64; x64";
  return "X11; Linux x86_64";
}

/**
 * Chrome's reduced user agent for a major version: `Mozilla/5.0 (X11; Linux x86_64)
 * AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36`.
 */
export function chromeUserAgent(major: number, os: typeof Deno.build.os = Deno.build.os): string {
  return `Mozilla/5.0 (${platformToken(os)}) AppleWebKit/537.36 (KHTML, like Gecko) ` +
    `Chrome/${major}.0.0.0 Safari/537.36`;
}

/** An executable's identity for the version cache: its size and modification time. */
interface Stamp {
  size: number;
  mtimeMs: number;
}

/**
 * The stamp of a binary executable, or undefined (missing, unreadable, or a script: the
 * Debian `/usr/bin/chromium` wrapper runs whichever binary it names, which can change without
 * the script changing).
 */
async function binaryStamp(path: string): Promise<Stamp | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || !info.mtime) return undefined;
    using file = await Deno.open(path);
    const head = new Uint8Array(2);
    if (await file.read(head) !== 2 || (head[0] === 0x23 && head[1] === 0x21)) return undefined;
    return { size: info.size, mtimeMs: info.mtime.getTime() };
  } catch {
    return undefined;
  }
}

/** The version cache's file: `chromium-versions.json` in browxai's cache dir, if there is one. */
export function versionCacheFile(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): string | undefined {
  const dir = cacheDir(Deno.build.os, env);
  return dir ? join(dir, "chromium-versions.json") : undefined;
}

type VersionCache = Record<string, Stamp & { major: number }>;

async function readCache(file: string): Promise<VersionCache> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Adds one entry (written to a temp file, then renamed: a reader never sees half a file). */
async function writeCache(file: string, path: string, entry: Stamp & { major: number }) {
  const cache = await readCache(file);
  cache[path] = entry;
  await Deno.mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(cache));
  await Deno.rename(tmp, file);
}

/**
 * The major version of a Chromium executable, from `PATH --version` ("Chromium
 * 156.0.8078.114 …"); undefined when it does not answer with one within 5 s.
 *
 * Asking starts the browser's binary (~0.1 s of CPU, on the first launch's path): a binary's
 * answer is kept in `cacheFile` (default {@link versionCacheFile}; none: always asked) under
 * its path, size and modification time, and read from there while they stay the same
 * (`cacheFile: undefined`: never cached).
 */
export async function chromiumMajor(
  executablePath: string,
  options: { cacheFile?: string | undefined } = {},
): Promise<number | undefined> {
  // Given as undefined: no cache.
  const file = "cacheFile" in options ? options.cacheFile : versionCacheFile();
  const stamp = file ? await binaryStamp(executablePath) : undefined;
  if (file && stamp) {
    const hit = (await readCache(file))[executablePath];
    // A planted or damaged entry (not a whole number a Chromium could carry) is asked again.
    if (
      hit?.size === stamp.size && hit.mtimeMs === stamp.mtimeMs && Number.isInteger(hit.major) &&
      hit.major > 0 && hit.major < 10_000
    ) return hit.major;
  }
  const major = await askMajor(executablePath);
  if (file && stamp && major !== undefined) {
    // A cache that cannot be written only means asking again next time.
    await writeCache(file, executablePath, { ...stamp, major }).catch(() => {});
  }
  return major;
}

async function askMajor(executablePath: string): Promise<number | undefined> {
  try {
    const out = await new Deno.Command(executablePath, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(5000),
    }).output();
    const m = /\b(\d{2,4})\.\d+\.\d+\.\d+\b/.exec(new TextDecoder().decode(out.stdout));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
