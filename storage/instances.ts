/**
 * Server instances sharing one workspace: each running server holds an exclusive `flock` on
 * `.instances/<id>.lock` for its whole life. The kernel drops the lock when the process dies,
 * however it dies (kill -9, the OOM killer), so a later start can tell the areas of dead
 * servers — a stdio server's `.artifacts/<id>/`, its HTTP clients' `.clients/<id>-…/` —
 * from those of live ones, and remove them. No pid files: a pid can be reused, a lock cannot
 * be held by a dead process.
 *
 * @module
 */
import { join } from "node:path";
import { safeList, safeMkdir, safeRemove } from "./safe_fs.ts";

/** Folder of the instance locks, relative to the workspace (reserved from the agent). */
export const INSTANCES_DIR = ".instances";

/** What an instance id looks like: `i<pid>-<8 hex>`. */
const INSTANCE_ID = /^i\d{1,10}-[0-9a-f]{8}$/;

/** This server's hold on its instance id; {@link InstanceClaim.release} lets go (idempotent). */
export interface InstanceClaim {
  /** The id: names `.artifacts/<id>/` and prefixes this server's HTTP client namespaces. */
  readonly id: string;
  release(): void;
}

/**
 * Claims a new instance id in `workspace` (an exclusive lock on `.instances/<id>.lock`, made
 * 0600 inside a 0700 folder through the path guard).
 *
 * @throws Error when the workspace cannot hold the folder (the guard's message).
 */
export async function claimInstance(workspace: string): Promise<InstanceClaim> {
  const id = `i${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const dir = await safeMkdir({ workspace }, INSTANCES_DIR);
  const file = await Deno.open(join(dir, `${id}.lock`), {
    read: true,
    write: true,
    createNew: true,
    mode: 0o600,
  });
  await file.lock(true);
  const path = join(dir, `${id}.lock`);
  let held = true;
  return {
    id,
    release() {
      if (!held) return;
      held = false;
      // Unlinked while still locked, so no sweeper ever opens it free and half gone.
      try {
        Deno.removeSync(path);
      } catch { /* gone */ }
      try {
        file.close(); // drops the lock
      } catch { /* closed */ }
    },
  };
}

/**
 * Removes what dead servers left in `workspace`: for each `.instances/<id>.lock` whose lock is
 * free, `.artifacts/<id>/`, every `.clients/<id>-*` and the lock file. Live servers' areas are
 * left alone; folders that name no instance are not known to be ours and stay.
 *
 * @returns the ids swept.
 */
export async function sweepDeadInstances(workspace: string): Promise<string[]> {
  const target = { workspace };
  const swept: string[] = [];
  let locks;
  try {
    locks = await safeList(target, INSTANCES_DIR);
  } catch {
    return swept; // no folder yet, or not a real one: nothing of ours to sweep
  }
  const clients = await safeListDirs(workspace, ".clients");
  for (const entry of locks) {
    const id = entry.name.replace(/\.lock$/, "");
    if (!INSTANCE_ID.test(id) || entry.name !== `${id}.lock`) continue;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(join(workspace, INSTANCES_DIR, entry.name), { read: true });
    } catch {
      continue;
    }
    try {
      if (!await file.tryLock(true)) continue; // its server lives
      await safeRemove(target, `.artifacts/${id}`, { recursive: true }).catch(() => false);
      for (const name of clients) {
        if (name.startsWith(`${id}-`)) {
          await safeRemove(target, `.clients/${name}`, { recursive: true }).catch(() => false);
        }
      }
      await safeRemove(target, `${INSTANCES_DIR}/${entry.name}`).catch(() => false);
      swept.push(id);
    } catch {
      /* raced with another sweeper: the next start retries */
    } finally {
      file.close();
    }
  }
  return swept;
}

/** Names of the real folders (no links) directly in `path`; none when it is missing. */
async function safeListDirs(workspace: string, path: string): Promise<string[]> {
  const out: string[] = [];
  try {
    const real = await Deno.realPath(join(workspace, path));
    if (real !== join(await Deno.realPath(workspace), path)) return out; // a link: not ours
    for await (const e of Deno.readDir(real)) if (e.isDirectory && !e.isSymlink) out.push(e.name);
  } catch { /* missing */ }
  return out;
}
