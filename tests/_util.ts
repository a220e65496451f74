/**
 * Small helpers for end-to-end tests.
 *
 * @module
 */

/** The ref on the first snapshot line matching `pattern`; throws with the tree when none. */
export function refOf(tree: string, pattern: RegExp | string): string {
  const re = typeof pattern === "string"
    ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    : pattern;
  for (const line of tree.split("\n")) {
    if (!re.test(line)) continue;
    const m = /\[ref=(e\d+)\]/.exec(line);
    if (m) return m[1]!;
  }
  throw new Error(`no line with a ref matches ${re} in:\n${tree}`);
}

/** Waits until `fn` returns a truthy value (polling), or throws after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 5000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `timed out waiting for ${what}: last ${
      last instanceof Error ? last.message : JSON.stringify(last)
    }`,
  );
}

/** Process ids of every descendant of `pid` (Linux /proc). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    } catch { /* exited */ }
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

/** True when a process is alive (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The command line of a process, or "". */
export function cmdline(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}
