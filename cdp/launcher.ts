/**
 * Launching Chromium for browxai and closing it without leaving orphans.
 *
 * An owned browser is driven over `--remote-debugging-pipe` (fds 3 and 4 of
 * the browser, see `pipe_transport.ts`): it opens no DevTools port, and it
 * exits by itself when its server dies, however the server dies (its pipe
 * closes). Every profile it runs on is claimed by this server for as long as
 * the browser runs (`profile_lock.ts`), so a second server is refused with
 * {@link ProfileInUseError}, and what a dead server left (a temp profile, a
 * stale `SingletonLock`) is recognised as such. `debugPort` launches a
 * browser on a loopback DevTools port instead, for tests that play a
 * person's own browser. Flags keep Chromium off the network it would call
 * home on (`chromium_args.ts`).
 *
 * @module
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { join } from "node:path";
import { chromiumArgs, newProfilePrefs } from "./chromium_args.ts";
import { BrowserStartError, ProtocolError } from "./errors.ts";
import { type PipeReadable, pipeTransport, type PipeWritable } from "./pipe_transport.ts";
import { descendantsOf, killAll, reapChildren } from "./processes.ts";
import {
  claimProfile,
  clearLeftBrowser,
  lockHolder,
  makeTempProfile,
  type ProfileClaim,
  ProfileInUseError,
  removeProfile,
} from "./profile_lock.ts";
import { type CdpTransport, MAX_MESSAGE_BYTES } from "./transport.ts";

export { ProfileInUseError } from "./profile_lock.ts";
// The process helpers tests check the launcher's reaping with.
export { descendantsOf, running } from "./processes.ts";

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
  /** Budget for the browser to answer its first command (or open its port), in ms. @default 30000 */
  timeoutMs?: number;
  /**
   * Open a DevTools port on 127.0.0.1 (reachable by any local process, no
   * login) instead of the pipe, and keep no pipe: the browser then outlives
   * a server that dies without closing it. For tests that need a browser
   * to attach to. @default false
   */
  debugPort?: boolean;
}

/** A running Chromium that browxai owns. */
export interface LaunchedBrowser {
  /** With `debugPort`: `ws://127.0.0.1:PORT/devtools/browser/UUID`; otherwise undefined. */
  wsEndpoint: string | undefined;
  /** Without `debugPort`: the CDP transport over the browser's pipe (connected, answered once). */
  transport: CdpTransport | undefined;
  /** The profile directory in use. */
  userDataDir: string;
  /** OS process id of the browser process. */
  pid: number;
  /** Resolves with the exit code (128 + signal number when killed) once the process exited. */
  exited: Promise<number>;
  /**
   * Kills the browser (SIGTERM, then SIGKILL after 3 s), waits for its child
   * processes (SIGKILL after 2 s more), lets go of the profile and removes a
   * temp profile. Idempotent.
   */
  close(): Promise<void>;
  /**
   * SIGKILLs the browser and its child processes at once, leaving the profile (for an exit
   * that cannot wait: a frozen browser would hold {@link close} for seconds).
   */
  kill(): void;
}

/**
 * The pipe's cap on one message from the browser, bytes: undefined (the transport's default,
 * 256 MiB), or `BROWX_TEST_CDP_MAX_MESSAGE_BYTES` when set to a whole number from 1 MiB up to
 * that default. A setting for tests only (not in `--help`): tests/hostile_console_test.ts
 * proves the cap's path (a message over it skipped, the browser kept) with a 40 MiB log under
 * a 32 MiB cap instead of a 260 MiB one under the real cap (seconds of CPU less to the suite).
 * Other values are ignored.
 */
export function testMessageCap(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): number | undefined {
  const raw = env("BROWX_TEST_CDP_MAX_MESSAGE_BYTES");
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= 1024 * 1024 && n <= MAX_MESSAGE_BYTES ? n : undefined;
}

/** A spawned browser process: its pipes and its exit. */
interface Spawned {
  pid: number;
  stderr: {
    on(event: "data", fn: (d: Uint8Array) => void): void;
    on(event: "error", fn: () => void): void;
  };
  /** fd 3 (to the browser) and fd 4 (from it); undefined with `debugPort`. */
  pipes: { write: PipeWritable; read: PipeReadable } | undefined;
  /** The exit code, or 128 + the signal's number. */
  exited: Promise<number>;
  kill(signal: "SIGTERM" | "SIGKILL"): void;
}

/**
 * Spawns Chromium with node:child_process: Deno.Command cannot hand a child
 * fds past 2, and the pipe needs 3 and 4.
 *
 * @throws BrowserStartError when the executable cannot be started.
 */
function spawnChromium(path: string, args: string[], pipe: boolean): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, {
      stdio: pipe ? ["ignore", "ignore", "pipe", "pipe", "pipe"] : ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise<number>((r) =>
      child.once(
        "exit",
        (code, signal) => r(code ?? 128 + (signal ? constants.signals[signal] : 0)),
      )
    );
    // Failing to spawn rejects; a later error (a failed kill) must not go unhandled.
    child.on("error", (e) => {
      reject(new BrowserStartError(`Cannot start Chromium "${path}": ${e.message}`, { cause: e }));
    });
    child.once("spawn", () =>
      resolve({
        pid: child.pid!,
        stderr: child.stderr!,
        pipes: pipe
          ? {
            write: child.stdio[3] as unknown as PipeWritable,
            read: child.stdio[4] as unknown as PipeReadable,
          }
          : undefined,
        exited,
        kill: (signal) => {
          try {
            child.kill(signal);
          } catch { /* already gone */ }
        },
      }));
  });
}

/** Reads stderr as it comes (a full pipe would block the browser), keeping the last lines. */
function stderrTail(stream: Spawned["stderr"]): string[] {
  const tail: string[] = [];
  const decoder = new TextDecoder();
  let buf = "";
  stream.on("data", (chunk) => {
    buf += decoder.decode(chunk, { stream: true });
    const lines = buf.split("\n");
    buf = lines.pop() ?? "";
    for (const l of lines) {
      tail.push(l);
      if (tail.length > 20) tail.shift();
    }
  });
  stream.on("error", () => {});
  return tail;
}

/** Polls a `DevToolsActivePort` file until it names a port; undefined once `stop()` is true. */
async function readPortFile(file: string, stop: () => boolean): Promise<string | undefined> {
  while (!stop()) {
    try {
      const [port, path] = (await Deno.readTextFile(file)).split("\n");
      if (port && path) return `ws://127.0.0.1:${port.trim()}${path.trim()}`;
    } catch { /* not there yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

/**
 * Starts Chromium on a claimed profile and waits until it answers: over the
 * pipe, its reply to `Browser.getVersion`; with `debugPort`, its
 * `DevToolsActivePort` file.
 *
 * @throws ProfileInUseError when another browxai server, or a Chromium
 *   browxai did not start, holds the profile.
 * @throws BrowserStartError when the executable cannot be spawned, the browser
 *   exits early (with its last stderr lines), or it does not answer within `timeoutMs`.
 */
export async function launchChromium(options: LaunchOptions): Promise<LaunchedBrowser> {
  const persistent = options.userDataDir !== undefined;
  let userDataDir: string;
  let claim: ProfileClaim;
  if (options.userDataDir !== undefined) {
    userDataDir = options.userDataDir;
    await Deno.mkdir(userDataDir, { recursive: true });
    claim = await claimProfile(userDataDir);
    try {
      await clearLeftBrowser(userDataDir);
    } catch (e) {
      claim.release();
      throw e;
    }
  } else {
    ({ dir: userDataDir, claim } = await makeTempProfile());
  }
  try {
    await newProfilePrefs(userDataDir);
  } catch (e) {
    claim.release();
    throw e;
  }
  const letGo = async () => {
    claim.release();
    if (!persistent) await removeProfile(userDataDir);
  };
  const portFile = join(userDataDir, "DevToolsActivePort");
  if (options.debugPort) await Deno.remove(portFile).catch(() => {});
  let child: Spawned;
  try {
    child = await spawnChromium(
      options.executablePath,
      // A profile's first tab is its session's first tab; a temp profile serves sessions that
      // each make their own context and tabs, so a start tab would be a renderer for nobody
      // (a process to start and set up on every cold start).
      [
        ...chromiumArgs({ ...options, userDataDir }),
        persistent ? "about:blank" : "--no-startup-window",
      ],
      !options.debugPort,
    );
  } catch (e) {
    // No process: nothing else would let go of the profile.
    await letGo();
    throw e;
  }
  const tail = stderrTail(child.stderr);
  let exitCode: number | undefined;
  const exited = child.exited.then((code) => exitCode = code);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (exitCode === undefined) {
        const family = descendantsOf(child.pid);
        child.kill("SIGTERM");
        const killTimer = setTimeout(() => child.kill("SIGKILL"), 3000);
        await exited;
        clearTimeout(killTimer);
        await reapChildren(userDataDir, family);
      }
      await letGo();
    })();
    return closing;
  };
  const cap = testMessageCap();
  const transport = child.pipes &&
    pipeTransport(child.pipes.write, child.pipes.read, cap ? { maxMessageBytes: cap } : {});
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const timeout = new Promise<void>((r) =>
    timer = setTimeout(() => r(void (timedOut = true)), timeoutMs)
  );
  let wsEndpoint: string | undefined;
  if (transport) {
    // Any answer, even an error, means the browser is up and reading its pipe.
    const answered = transport.send("Browser.getVersion", undefined, { timeoutMs }).then(
      () => true,
      (e: unknown) => e instanceof ProtocolError || exited.then(() => false),
    );
    await Promise.race([answered, exited, timeout]);
  } else {
    wsEndpoint = await Promise.race([
      readPortFile(portFile, () => exitCode !== undefined || timedOut),
      exited.then(() => undefined),
      timeout.then(() => undefined),
    ]);
  }
  clearTimeout(timer);
  if (exitCode === undefined && !timedOut && (transport || wsEndpoint)) {
    return {
      wsEndpoint,
      transport,
      userDataDir,
      pid: child.pid,
      exited,
      close,
      kill: () => killAll([...descendantsOf(child.pid), child.pid]),
    };
  }
  await transport?.close();
  await close();
  if (exitCode !== undefined) {
    // A Chromium that finds its profile locked hands its command line to the holder and exits.
    const holder = persistent ? lockHolder(userDataDir) : undefined;
    if (holder !== undefined) {
      throw new ProfileInUseError(
        `Cannot open profile "${userDataDir}": it is in use by ` +
          (holder === 0 ? "a browser on another host" : `Chromium process ${holder}`),
      );
    }
    throw new BrowserStartError(
      `Cannot start Chromium "${options.executablePath}": it exited with code ${exitCode}: ` +
        tail.slice(-5).join(" | "),
    );
  }
  throw new BrowserStartError(
    `Cannot start Chromium "${options.executablePath}": no answer after ${timeoutMs} ms: ` +
      tail.slice(-3).join(" | "),
  );
}
