/**
 * Launching Chromium with loopback-only remote debugging and the flags a
 * closed network needs, and closing it without leaving orphans.
 *
 * @module
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import { CdpError, TimeoutError } from "./errors.ts";

/** Options of {@link launchChromium}. */
export interface LaunchOptions {
  /** Absolute path of the Chromium executable. */
  executablePath: string;
  /** Show a window. @default false */
  headful?: boolean;
  /** A profile directory to keep (persistent mode). Omitted: a fresh temp dir, removed on close. */
  userDataDir?: string;
  /** Extra command-line switches. */
  args?: string[];
  /** Budget for the browser to open its debugging port, in ms. @default 30000 */
  timeoutMs?: number;
}

/** A running Chromium that browxai owns. */
export interface LaunchedBrowser {
  /** `ws://127.0.0.1:PORT/devtools/browser/UUID`. */
  wsEndpoint: string;
  /** The profile directory in use. */
  userDataDir: string;
  /** OS process id of the browser process. */
  pid: number;
  /** Resolves with the exit code when the process has exited. */
  exited: Promise<number>;
  /**
   * Kills the browser (SIGTERM, then SIGKILL after 3 s), waits for its child
   * processes (SIGKILL after 2 s more) and removes a temp profile. Idempotent.
   */
  close(): Promise<void>;
  /**
   * SIGKILLs the browser and its child processes at once, leaving the profile (for an exit
   * that cannot wait: a frozen browser would hold {@link close} for seconds).
   */
  kill(): void;
}

/** The profile is locked by another running Chromium. */
export class ProfileInUseError extends CdpError {}

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
  "CertificateTransparencyComponentUpdater,AcceptCHFrame,PrivacySandboxSettings4",
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

function isRoot(): boolean {
  try {
    return Deno.build.os !== "windows" && Deno.uid() === 0;
  } catch {
    return false;
  }
}

/** The command line browxai passes to Chromium (without the start URL). */
export function chromiumArgs(
  options: Omit<LaunchOptions, "executablePath"> & {
    userDataDir: string;
  },
): string[] {
  const args = [
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    `--user-data-dir=${options.userDataDir}`,
    ...CLOSED_NETWORK_FLAGS,
  ];
  // A common laptop viewport: the headless default (800x600 window) is small for today's layouts.
  if (!options.headful) args.push("--headless", "--hide-scrollbars", "--window-size=1280,800");
  if (isRoot()) args.push("--no-sandbox");
  args.push(...(options.args ?? []));
  return args;
}

/** Reads a profile's SingletonLock (`host-pid` symlink) and tells whether that pid is alive here. */
function lockHolder(userDataDir: string): number | undefined {
  try {
    const target = Deno.readLinkSync(join(userDataDir, "SingletonLock"));
    const pid = Number(target.slice(target.lastIndexOf("-") + 1));
    if (!Number.isFinite(pid) || pid <= 0) return undefined;
    if (Deno.build.os === "windows") return undefined;
    try {
      Deno.statSync(`/proc/${pid}`);
      return pid;
    } catch {
      return undefined;
    }
  } catch {
    return undefined;
  }
}

/**
 * Pids of the live processes running Chromium on this profile: every
 * Chromium process (zygotes, renderers, GPU, utilities) carries
 * `--user-data-dir`. Linux /proc; empty elsewhere.
 */
function profileProcesses(userDataDir: string): number[] {
  if (Deno.build.os !== "linux") return [];
  const flag = `--user-data-dir=${userDataDir}`;
  const out: number[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      // Chromium rewrites its argv into one space-separated string.
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
      if (!`${cmd} `.includes(`${flag} `)) continue;
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
      out.push(Number(e.name));
    } catch { /* exited */ }
  }
  return out;
}

/** True while a process runs (Linux /proc; a zombie counts as gone). */
export function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Process ids of every descendant of `pid` (Linux /proc; elsewhere none). */
export function descendantsOf(pid: number): number[] {
  if (Deno.build.os !== "linux") return [];
  const children = new Map<number, number[]>();
  try {
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        children.set(ppid, [...(children.get(ppid) ?? []), Number(e.name)]);
      } catch { /* exited */ }
    }
  } catch {
    return [];
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/**
 * After the browser process exited, waits for its child processes, which
 * outlive it by up to a few hundred ms (and may still write into the
 * profile; some may even have been started during shutdown), then SIGKILLs
 * any left after 2 s. Only called when we ended the browser ourselves, so
 * the profile was ours until then.
 */
async function reapChildren(userDataDir: string, family: readonly number[]): Promise<void> {
  const deadline = Date.now() + 2000;
  // Some helpers (renderers, zygote children) do not carry the profile flag: the
  // descendants seen before the browser was asked to exit are waited for too.
  const remaining =
    () => [...new Set([...profileProcesses(userDataDir), ...family.filter(running)])];
  let left = remaining();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    left = remaining();
  }
  for (const pid of left) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone meanwhile */ }
  }
}

/**
 * Removes a temp profile. Child processes that are still exiting after the
 * browser process has gone may write into it for a moment (the first attempt
 * then fails with "Directory not empty"), so retry for up to a second.
 */
async function removeProfile(userDataDir: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      await Deno.remove(userDataDir, { recursive: true });
      return;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      if (attempt >= 20) {
        console.error(`browxai: cannot remove temp profile "${userDataDir}":`, e);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Starts Chromium and waits for its `DevToolsActivePort` file.
 *
 * @throws ProfileInUseError when another Chromium holds the profile.
 * @throws CdpError when the executable cannot be spawned, or the browser exits
 *   early (with its last stderr lines).
 * @throws TimeoutError when the port does not appear within `timeoutMs`.
 */
export async function launchChromium(options: LaunchOptions): Promise<LaunchedBrowser> {
  const ownsDir = !options.userDataDir;
  const userDataDir = options.userDataDir ??
    await Deno.makeTempDir({ dir: tmpdir(), prefix: "browxai-profile-" });
  if (options.userDataDir) {
    await Deno.mkdir(userDataDir, { recursive: true });
    const holder = lockHolder(userDataDir);
    if (holder) {
      throw new ProfileInUseError(
        `Cannot open profile "${userDataDir}": it is in use by Chromium process ${holder}; ` +
          `close that session first or use another profile name`,
      );
    }
  }
  const portFile = join(userDataDir, "DevToolsActivePort");
  await Deno.remove(portFile).catch(() => {});
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(options.executablePath, {
      args: [...chromiumArgs({ ...options, userDataDir }), "about:blank"],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    // Missing or not executable: no process, so nothing else would remove the temp profile.
    if (ownsDir) await removeProfile(userDataDir);
    throw new CdpError(
      `Cannot start Chromium "${options.executablePath}": ${(e as Error).message}`,
      { cause: e },
    );
  }
  const stderrTail: string[] = [];
  // Drain stderr so the browser never blocks on a full pipe; keep the tail for errors.
  (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of child.stderr) {
      buf += decoder.decode(chunk, { stream: true });
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) {
        stderrTail.push(l);
        if (stderrTail.length > 20) stderrTail.shift();
      }
    }
  })().catch(() => {});
  let exitCode: number | undefined;
  const exited = child.status.then((s) => exitCode = s.code);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (exitCode === undefined) {
        const family = descendantsOf(child.pid);
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        const killTimer = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch { /* already gone */ }
        }, 3000);
        await exited;
        clearTimeout(killTimer);
        await reapChildren(userDataDir, family);
      }
      if (ownsDir) await removeProfile(userDataDir);
    })();
    return closing;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (true) {
    if (exitCode !== undefined) {
      await close();
      const holder = options.userDataDir ? lockHolder(userDataDir) : undefined;
      if (holder) {
        throw new ProfileInUseError(
          `Cannot open profile "${userDataDir}": it is in use by Chromium process ${holder}`,
        );
      }
      throw new CdpError(
        `Cannot start Chromium "${options.executablePath}": it exited with code ${exitCode}: ` +
          stderrTail.slice(-5).join(" | "),
      );
    }
    try {
      const text = await Deno.readTextFile(portFile);
      const [port, path] = text.split("\n");
      if (port && path) {
        return {
          wsEndpoint: `ws://127.0.0.1:${port.trim()}${path.trim()}`,
          userDataDir,
          pid: child.pid,
          exited,
          close,
          kill: () => {
            for (const pid of [...descendantsOf(child.pid), child.pid]) {
              try {
                Deno.kill(pid, "SIGKILL");
              } catch { /* gone */ }
            }
          },
        };
      }
    } catch { /* not there yet */ }
    if (Date.now() > deadline) {
      await close();
      throw new TimeoutError(
        `Cannot start Chromium "${options.executablePath}": no DevToolsActivePort after ` +
          `${options.timeoutMs ?? 30_000} ms: ${stderrTail.slice(-3).join(" | ")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
