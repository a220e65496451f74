/**
 * One browser download at a time per cache folder, across processes.
 *
 * The lock is a file (`.install.lock` in the cache folder) holding the
 * owner's pid, on which the owner keeps an exclusive `flock` (as
 * `profile_lock.ts` does for profiles): the kernel drops the lock the moment
 * its owner dies, however it dies, so a lock left by a dead process is taken
 * over at once and a reused pid can never keep it. The pid in the file is
 * for the message a waiter prints.
 *
 * @module
 */
import { join } from "node:path";
import { holdOn } from "./profile_lock.ts";

/** The lock file's name inside the cache folder. */
export const INSTALL_LOCK_FILE = ".install.lock";

/** A held install lock; `release` lets go (idempotent). */
export interface InstallLock {
  release(): void;
}

/**
 * Takes the cache folder's install lock, waiting while another process holds
 * it (`onWait` is told that process's pid once, before waiting).
 *
 * @throws Deno errors when the folder cannot be created or the file opened.
 */
export async function acquireInstallLock(
  dir: string,
  options: { onWait?: ((holderPid: number | undefined) => void) | undefined } = {},
): Promise<InstallLock> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, INSTALL_LOCK_FILE);
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o644 });
  try {
    if (!await file.tryLock(true)) {
      const text = await Deno.readTextFile(path).catch(() => "");
      options.onWait?.(/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);
      await file.lock(true);
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  } catch (e) {
    file.close();
    throw e;
  }
  return holdOn(file);
}
