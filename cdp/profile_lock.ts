/**
 * Which server owns a Chromium profile directory, and what a dead server
 * left behind.
 *
 * A server marks every profile it runs a browser on with an owner file
 * (`.browxai-owner`, holding its pid) on which it keeps an exclusive `flock`
 * while the browser runs. The kernel drops that lock the moment the server
 * dies, however it dies (kill -9, the OOM killer), so a free lock means "no
 * live server owns this profile": no pid files to trust, no pid reuse to
 * fear. On top of it: stale temp profiles are removed at start, and a
 * Chromium `SingletonLock` left by a browser whose server is gone is treated
 * as stale.
 *
 * @module
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import { CdpError } from "./errors.ts";
import { cmdlineOf, killAll, profileProcesses, running } from "./processes.ts";

/** The owner file browxai keeps (and locks) in each profile directory it runs a browser on. */
export const OWNER_FILE = ".browxai-owner";

/** Name prefix of the temp profiles browxai makes (in the OS temp dir). */
export const TEMP_PROFILE_PREFIX = "browxai-profile-";

/** The profile is in use: by another browxai server, or by a Chromium browxai did not start. */
export class ProfileInUseError extends CdpError {}

/** This server's hold on a profile; {@link ProfileClaim.release} lets go (idempotent). */
export interface ProfileClaim {
  release(): void;
}

/**
 * A hold on an open, flock-ed file: `release()` closes it, which drops the lock (idempotent).
 * Shared by the profile lock and the browser install lock.
 */
export function holdOn(file: Deno.FsFile): ProfileClaim {
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        file.close(); // closing the file drops its flock
      } catch { /* closed */ }
    },
  };
}

/**
 * Makes a fresh temp profile (`<tmp>/browxai-profile-XXXX`) already claimed
 * by this server. The owner file is locked under a temporary name and then
 * renamed into place, so a cleaner never sees it unlocked.
 */
export async function makeTempProfile(): Promise<{ dir: string; claim: ProfileClaim }> {
  const dir = await Deno.makeTempDir({ dir: tmpdir(), prefix: TEMP_PROFILE_PREFIX });
  const staging = join(dir, `${OWNER_FILE}.${Deno.pid}`);
  const file = await Deno.open(staging, { read: true, write: true, createNew: true, mode: 0o600 });
  await file.lock(true);
  await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  await Deno.rename(staging, join(dir, OWNER_FILE));
  return { dir, claim: holdOn(file) };
}

/**
 * Claims a persistent profile for this server: an exclusive lock on its
 * owner file (created if missing; one open of one file, so two servers racing
 * get one winner).
 *
 * @throws ProfileInUseError when another live browxai server holds it.
 */
export async function claimProfile(dir: string): Promise<ProfileClaim> {
  const path = join(dir, OWNER_FILE);
  // The name is ours: anything but a plain file there (a planted link) is removed, never
  // written through.
  const stat = await Deno.lstat(path).catch(() => undefined);
  if (stat && !stat.isFile) await Deno.remove(path, { recursive: true });
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  if (!await tryLockOwn(file, path)) {
    let owner = "";
    try {
      owner = (await Deno.readTextFile(path)).trim();
    } catch { /* unreadable: say less */ }
    file.close();
    throw new ProfileInUseError(
      `Cannot open profile "${dir}": it is in use by another browxai server` +
        (/^\d+$/.test(owner) ? ` (pid ${owner})` : ""),
    );
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  return holdOn(file);
}

/**
 * How long a claim waits on a lock its own process let go of, ms: a child this process
 * forked at that moment (another session's download helper, a test's Chromium) holds a copy
 * of the closed descriptor, and with it the `flock`, until its `exec` closes it.
 */
const OWN_LOCK_WAIT_MS = 1000;

/**
 * `tryLock` on the owner file; when the owner it names is this very process (a browser it
 * closed a moment ago on the same profile), tries again until {@link OWN_LOCK_WAIT_MS}.
 */
async function tryLockOwn(file: Deno.FsFile, path: string): Promise<boolean> {
  const until = Date.now() + OWN_LOCK_WAIT_MS;
  while (true) {
    if (await file.tryLock(true)) return true;
    let owner = "";
    try {
      owner = (await Deno.readTextFile(path)).trim();
    } catch { /* unreadable: not ours to wait for */ }
    if (owner !== String(Deno.pid) || Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A profile's Chromium `SingletonLock`: the host and pid it names. */
function readSingletonLock(dir: string): { host: string; pid: number } | undefined {
  try {
    const target = Deno.readLinkSync(join(dir, "SingletonLock"));
    const dash = target.lastIndexOf("-");
    const pid = Number(target.slice(dash + 1));
    if (dash < 0 || !Number.isInteger(pid) || pid <= 0) return undefined;
    return { host: target.slice(0, dash), pid };
  } catch {
    return undefined;
  }
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
}

/**
 * The pid of a live Chromium running on this profile that holds its
 * `SingletonLock`, if any; a lock naming a dead pid, or a live process that
 * is not a Chromium on this profile (a reused pid), is stale and removed
 * (with its `SingletonSocket` and `SingletonCookie`). A lock from another
 * host is reported as held (pid 0): we cannot see that host's processes.
 */
export function lockHolder(dir: string): number | undefined {
  const lock = readSingletonLock(dir);
  if (!lock) return undefined;
  if (lock.host !== hostname()) return 0;
  const cmd = running(lock.pid) ? cmdlineOf(lock.pid) : "";
  if (`${cmd} `.includes(`--user-data-dir=${dir} `)) return lock.pid;
  for (const name of ["SingletonLock", "SingletonSocket", "SingletonCookie"]) {
    try {
      Deno.removeSync(join(dir, name));
    } catch { /* not there */ }
  }
  return undefined;
}

/**
 * Makes a claimed profile free of browsers left behind: a Chromium still
 * holding its `SingletonLock` that browxai started (it runs on a
 * `--remote-debugging-pipe`) belongs to a dead server, since this one holds
 * the claim now. Such a browser exits on its own once its pipe closes; it is
 * waited for up to `graceMs`, then killed with every process on the profile.
 *
 * @throws ProfileInUseError when a Chromium browxai did not start holds the
 *   profile, or a lock from another host.
 */
export async function clearLeftBrowser(dir: string, graceMs = 5000): Promise<void> {
  const holder = lockHolder(dir);
  if (holder === undefined) return;
  if (holder === 0 || !cmdlineOf(holder).includes("--remote-debugging-pipe")) {
    throw new ProfileInUseError(
      `Cannot open profile "${dir}": it is in use by ` +
        (holder === 0 ? "a browser on another host" : `Chromium process ${holder}`),
    );
  }
  const deadline = Date.now() + graceMs;
  while (running(holder) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  killAll([...profileProcesses(dir), holder].filter(running));
  while (profileProcesses(dir).length > 0 && Date.now() < deadline + 2000) {
    await new Promise((r) => setTimeout(r, 20));
  }
  lockHolder(dir); // removes the lock the killed browser left
}

/**
 * Removes the temp profiles (`<tmp>/browxai-profile-*` of this user, with an
 * owner file) whose server is gone: their owner file's lock is free. Browsers still
 * running on one are killed first. Directories without an owner file are not
 * known to be ours and are left alone, as are those a live server holds.
 *
 * @returns the directories removed.
 */
export async function cleanStaleTempProfiles(parent = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(parent)];
  } catch {
    return removed;
  }
  for (const e of entries) {
    if (!e.isDirectory || !e.name.startsWith(TEMP_PROFILE_PREFIX)) continue;
    const dir = join(parent, e.name);
    // Only our own user's folders (a shared temp dir holds other users' too).
    const uid = Deno.uid();
    if (uid !== null && (await Deno.lstat(dir).catch(() => undefined))?.uid !== uid) continue;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(join(dir, OWNER_FILE), { read: true, write: true });
    } catch {
      continue; // no owner file: not known to be ours
    }
    try {
      if (!await file.tryLock(true)) continue; // its server lives
      killAll(profileProcesses(dir));
      if (await removeProfile(dir)) removed.push(dir);
    } catch {
      /* raced with another cleaner, or a file in use: next start retries */
    } finally {
      file.close();
    }
  }
  return removed;
}

/**
 * Removes a temp profile. Child processes that are still exiting after the
 * browser process has gone may write into it for a moment (the first attempt
 * then fails with "Directory not empty"), so retry for up to a second.
 *
 * @returns whether it is gone.
 */
export async function removeProfile(userDataDir: string): Promise<boolean> {
  for (let attempt = 1;; attempt++) {
    try {
      await Deno.remove(userDataDir, { recursive: true });
      return true;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return true;
      if (attempt >= 20) {
        console.error(`browxai: cannot remove temp profile "${userDataDir}":`, e);
        return false;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
