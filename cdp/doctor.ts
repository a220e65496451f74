/**
 * `browxai doctor`: what browxai would run on this machine and what stands in
 * its way. Each check gives a status, a one-line finding, details (the paths
 * discovery tried and why each was skipped) and, for a problem, what to do.
 *
 * @module
 */
import { join } from "node:path";
import { browserCacheDir, discoverChromium, type TriedPath } from "./discovery.ts";
import { BrowserInstallError, probeBrowser } from "./install_browser.ts";

/** One finding of {@link runDoctor}. */
export interface DoctorCheck {
  /** What was checked: `deno`, `chromium`, `sandbox`, `fonts`, `workspace`, `browser cache`. */
  name: string;
  /** `ok`; `warn`: works, with a caveat; `fail`: browxai cannot work until fixed. */
  status: "ok" | "warn" | "fail";
  summary: string;
  details: string[];
  /** What to do (for `warn` and `fail`). */
  fix?: string | undefined;
}

/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** `--browser`. */
  browserPath?: string | undefined;
  headful?: boolean | undefined;
  /** The workspace browxai would use. */
  workspace: string;
  env?: (name: string) => string | undefined;
}

function readProc(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path).trim();
  } catch {
    return undefined;
  }
}

function triedLine(t: TriedPath): string {
  return `${t.why ? "skipped" : "used   "} ${t.path} (${t.source}${t.why ? `: ${t.why}` : ""})`;
}

async function chromiumCheck(o: DoctorOptions, env: (n: string) => string | undefined) {
  const { found, tried, explicit } = discoverChromium({
    explicitPath: o.browserPath,
    headful: o.headful,
    env,
  });
  const details = tried.map(triedLine);
  if (!found) {
    const auto = !["1", "true"].includes(env("BROWX_NO_DOWNLOAD") ?? "") && !explicit;
    return {
      name: "chromium",
      status: "fail",
      summary: explicit ? `${tried[0]?.path} does not exist` : "no Chromium or Chrome found",
      details,
      fix: explicit
        ? "fix --browser / BROWX_BROWSER, or unset it to let browxai find one"
        : `run "browxai install-browser" (Chrome for Testing into the browser cache)` +
          (auto ? "; the first call that needs a browser would also install it" : "") +
          ", or apt-get install -y chromium, or set BROWX_BROWSER=PATH",
    } satisfies DoctorCheck;
  }
  try {
    const version = await probeBrowser(found.path);
    return {
      name: "chromium",
      status: "ok",
      summary: `${found.path} (${found.source}): ${version}`,
      details,
    } satisfies DoctorCheck;
  } catch (e) {
    return {
      name: "chromium",
      status: "fail",
      summary: `${found.path} (${found.source}) does not run`,
      details: [...details, (e as Error).message],
      fix: e instanceof BrowserInstallError && e.aptGet
        ? `as root: ${e.aptGet}`
        : "reinstall it, or point BROWX_BROWSER at a working Chromium",
    } satisfies DoctorCheck;
  }
}

function sandboxCheck(): DoctorCheck {
  if (Deno.build.os !== "linux") {
    return { name: "sandbox", status: "ok", summary: "Chromium's own sandbox", details: [] };
  }
  const userns = readProc("/proc/sys/kernel/unprivileged_userns_clone");
  const maxNs = readProc("/proc/sys/user/max_user_namespaces");
  const apparmor = readProc("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  const details = [
    `unprivileged_userns_clone=${userns ?? "n/a"}`,
    `max_user_namespaces=${maxNs ?? "n/a"}`,
    `apparmor_restrict_unprivileged_userns=${apparmor ?? "n/a"}`,
  ];
  if (Deno.uid() === 0) {
    return {
      name: "sandbox",
      status: "warn",
      summary: "running as root: Chromium is started with --no-sandbox",
      details,
      fix: "run browxai as an unprivileged user to keep Chromium's sandbox",
    };
  }
  const blocked = userns === "0" || maxNs === "0" || apparmor === "1";
  return blocked
    ? {
      name: "sandbox",
      status: "warn",
      summary: "unprivileged user namespaces are restricted: Chromium's sandbox may fail to start",
      details,
      fix: "sysctl -w kernel.unprivileged_userns_clone=1 (Debian) or " +
        "kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu 24.04), or use a Chromium " +
        "with a setuid sandbox",
    }
    : { name: "sandbox", status: "ok", summary: "user namespaces available", details };
}

async function fontsCheck(env: (n: string) => string | undefined): Promise<DoctorCheck> {
  if (Deno.build.os !== "linux") {
    return { name: "fonts", status: "ok", summary: "system fonts", details: [] };
  }
  const out = await new Deno.Command("fc-list", { stdout: "piped", stderr: "null" }).output()
    .catch(() => undefined);
  let count: number;
  let how: string;
  if (out?.success) {
    count = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).length;
    how = "fc-list";
  } else {
    const home = env("HOME") ?? "";
    const dirs = ["/usr/share/fonts", "/usr/local/share/fonts", join(home, ".fonts")];
    count = dirs.reduce((n, d) => n + countFiles(d), 0);
    how = `font files in ${dirs.join(", ")}`;
  }
  return count > 0
    ? { name: "fonts", status: "ok", summary: `${count} fonts (${how})`, details: [] }
    : {
      name: "fonts",
      status: "warn",
      summary: `no fonts found (${how}): pages render text as boxes`,
      details: [],
      fix: "as root: apt-get install -y fonts-liberation fonts-dejavu-core",
    };
}

function countFiles(dir: string, depth = 0): number {
  if (depth > 4) return 0;
  try {
    let n = 0;
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) n += countFiles(join(dir, e.name), depth + 1);
      else if (/\.(ttf|otf|ttc|pfb|woff2?)$/i.test(e.name)) n++;
    }
    return n;
  } catch {
    return 0;
  }
}

async function writable(dir: string): Promise<string | undefined> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.remove(await Deno.makeTempFile({ dir, prefix: ".probe-" }));
    return undefined;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

/**
 * Runs every check. Usable (exit 0) when no check is `fail`.
 *
 * @returns The checks, in print order.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const env = options.env ?? ((n: string) => Deno.env.get(n));
  const checks: DoctorCheck[] = [{
    name: "deno",
    status: "ok",
    summary: `Deno ${Deno.version.deno} (${Deno.build.os} ${Deno.build.arch})`,
    details: [],
  }];
  checks.push(await chromiumCheck(options, env));
  checks.push(sandboxCheck());
  checks.push(await fontsCheck(env));
  const ws = await writable(options.workspace);
  checks.push(
    ws
      ? {
        name: "workspace",
        status: "fail",
        summary: `${options.workspace} is not writable: ${ws}`,
        details: [],
        fix: "give a directory browxai may create and write with --workspace or BROWX_WORKSPACE",
      }
      : { name: "workspace", status: "ok", summary: `${options.workspace} writable`, details: [] },
  );
  const cache = browserCacheDir(Deno.build.os, env);
  const cw = cache ? await writable(cache) : "no cache folder (HOME unset)";
  const mirror = env("BROWX_BROWSER_MIRROR");
  checks.push(
    cw
      ? {
        name: "browser cache",
        status: "warn",
        summary: `${cache ?? "(none)"}: ${cw}`,
        details: [],
        fix: "set BROWX_BROWSER_CACHE to a writable folder to let browxai install a browser",
      }
      : {
        name: "browser cache",
        status: "ok",
        summary: `${cache} writable` + (mirror ? `; downloads from ${mirror}` : ""),
        // Said only when set: a bare "BROWX_NO_DOWNLOAD=" line read as a setting with no value.
        details: env("BROWX_NO_DOWNLOAD")
          ? [`BROWX_NO_DOWNLOAD=${env("BROWX_NO_DOWNLOAD")}: no browser is installed on first need`]
          : [],
      },
  );
  return checks;
}

/** The report as text, one block per check. */
export function formatDoctor(checks: DoctorCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.status.padEnd(4)}  ${c.name}: ${c.summary}`);
    for (const d of c.details) lines.push(`        ${d}`);
    if (c.fix) lines.push(`        fix: ${c.fix}`);
  }
  const bad = checks.filter((c) => c.status === "fail").length;
  lines.push(bad ? `${bad} problem(s): browxai cannot work until they are fixed` : "usable");
  return lines.join("\n");
}
