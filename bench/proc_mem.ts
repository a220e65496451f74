/**
 * Memory of process trees, from Linux `/proc` (`VmRSS` of `/proc/PID/status`, `Pss` of
 * `/proc/PID/smaps_rollup`). Elsewhere every figure is `null`.
 *
 * @module
 */

/** Memory of a server process and of the processes under it, in KiB. */
export interface TreeMemory {
  /** VmRSS of the server process itself. */
  serverRssKb: number | null;
  /** Sum of VmRSS of all descendants (Chromium and its helpers). */
  childrenRssKb: number | null;
  /** Sum of Pss of all descendants (shared pages divided among sharers). */
  childrenPssKb: number | null;
  /** Number of descendant processes. */
  children: number;
}

/** A `/proc/PID/status` or `smaps_rollup` field in KiB (`VmRSS:  1234 kB` → 1234). */
export function parseKbField(text: string, field: string): number | null {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

/** The parent pid from a `/proc/PID/stat` line (the field after the `(comm)`). */
export function parsePpid(stat: string): number | null {
  const close = stat.lastIndexOf(")");
  if (close < 0) return null;
  const fields = stat.slice(close + 2).split(" ");
  const ppid = Number(fields[1]);
  return Number.isFinite(ppid) ? ppid : null;
}

function read(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** All descendants of `pid` (children, grandchildren, …), from `/proc/*\/stat`. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      const stat = read(`/proc/${e.name}/stat`);
      const ppid = stat ? parsePpid(stat) : null;
      if (ppid === null) continue;
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    }
  } catch {
    return [];
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** CPU time (user + system) of one process, in ms, from `/proc/PID/stat`; null when gone. */
export function cpuMs(pid: number): number | null {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat (12 and 13 after the comm), in clock ticks (USER_HZ, 100 on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of a process and its descendants (summed), in ms. */
export function treeCpuMs(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + (cpuMs(p) ?? 0), 0);
}

/** VmRSS of one process in KiB, or null (gone, or not Linux). */
export function rssKb(pid: number): number | null {
  const s = read(`/proc/${pid}/status`);
  return s ? parseKbField(s, "VmRSS") : null;
}

function pssKb(pid: number): number | null {
  const s = read(`/proc/${pid}/smaps_rollup`);
  return s ? parseKbField(s, "Pss") : null;
}

/** Memory of `pid` and its descendants right now. */
export function treeMemory(pid: number): TreeMemory {
  const kids = descendants(pid);
  let rss: number | null = null;
  let pss: number | null = null;
  for (const k of kids) {
    const r = rssKb(k);
    if (r !== null) rss = (rss ?? 0) + r;
    const p = pssKb(k);
    if (p !== null) pss = (pss ?? 0) + p;
  }
  return { serverRssKb: rssKb(pid), childrenRssKb: rss, childrenPssKb: pss, children: kids.length };
}
