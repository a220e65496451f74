/**
 * What runs and listens on this machine, as tests of process lifetimes see it
 * (Linux /proc).
 *
 * @module
 */
import { cmdline, descendants } from "./_util.ts";

/** TCP ports (IPv4 and IPv6) in LISTEN state whose socket one of `pids` holds open. */
export function listeningPorts(pids: readonly number[]): number[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of Deno.readDirSync(`/proc/${pid}/fd`)) {
        try {
          const m = /^socket:\[(\d+)\]$/.exec(Deno.readLinkSync(`/proc/${pid}/fd/${fd.name}`));
          if (m) inodes.add(m[1]!);
        } catch { /* closed meanwhile */ }
      }
    } catch { /* exited */ }
  }
  const ports: number[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is col 1 ("ADDR:PORT" in hex), st col 3 (0A = LISTEN), inode col 9.
      if (cols[3] === "0A" && inodes.has(cols[9] ?? "")) {
        ports.push(parseInt(cols[1]!.split(":")[1]!, 16));
      }
    }
  }
  return ports;
}

/** Live processes (other than this one) whose command line mentions `text`. */
export function processesMentioning(text: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const pid = Number(e.name);
    if (pid === Deno.pid || !cmdline(pid).includes(text)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") out.push(pid);
    } catch { /* exited */ }
  }
  return out;
}

/** The Chromium processes under a server process (its browsers and their helpers). */
export function chromiumsUnder(pid: number): number[] {
  return descendants(pid).filter((p) => /chrom/i.test(cmdline(p)));
}
