/**
 * The processes of a Chromium browxai launched, seen through Linux /proc:
 * which run on a profile, which descend from the browser, which still run;
 * and reaping them. Elsewhere than Linux these see nothing.
 *
 * @module
 */

/**
 * Pids of the live processes running Chromium on this profile: every
 * Chromium process (zygotes, renderers, GPU, utilities) carries
 * `--user-data-dir`. Linux /proc; empty elsewhere.
 */
export function profileProcesses(userDataDir: string): number[] {
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
export async function reapChildren(userDataDir: string, family: readonly number[]): Promise<void> {
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

/** The command line of a process, its arguments joined by spaces; "" when it is gone. */
export function cmdlineOf(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** SIGKILLs each process; one already gone is skipped. */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}
