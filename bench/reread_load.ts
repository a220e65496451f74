/**
 * Re-reads under load: N sessions on TodoMVC apps (the concurrency bench's pages), each opened,
 * read until the app shows, one todo added; then rounds in which every session takes a full
 * snapshot of its page at once (the bench's "re-read"). Per re-read: latency p50/p95, the
 * server's CPU and Chromium's CPU (the server's descendants), from /proc; and the same for
 * an idle pause of the same length (what the pages cost by themselves).
 *
 * ```
 * deno run -A bench/reread_load.ts [--kind browxai|peer] [--sessions 20] [--rounds 5]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { findChromium } from "../cdp/discovery.ts";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { type BenchClient, startPeerHttp, startServer } from "./clients.ts";
import { fullSnapshot, navigate, NEW_TODO, refOn, snapshotUntil } from "./flows.ts";
import { startPageServer } from "./page_server.ts";
import { ensurePeer, PEER_CLI } from "./peer.ts";
import { cpuMs, descendants, treeCpuMs } from "./proc_mem.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    kind: { type: "string", default: "browxai" },
    sessions: { type: "string", default: "20" },
    rounds: { type: "string", default: "5" },
  },
});
const kind = values.kind === "peer" ? "peer" : "browxai";
const n = Number(values.sessions);
const rounds = Number(values.rounds);
const chromium = findChromium().path;
const pages = startPageServer({ todomvcDir: await ensureTodoMvc() });
const apps = ["react", "vue", "vanillajs"].map((a) => pages.url(`/todomvc/examples/${a}/`));

let pid: number;
let close: () => Promise<void>;
const clients: BenchClient[] = [];
if (kind === "browxai") {
  const s = await startServer({ kind, chromium });
  pid = s.pid!;
  close = () => s.close();
  await navigate(s, kind, pages.url("/gen/small.html"));
  for (let i = 0; i < n; i++) {
    const session = `r${i}`;
    const bound: BenchClient = {
      call: (tool, args = {}) => s.call(tool, { ...args, session }),
      listTools: () => s.listTools(),
      close: () => Promise.resolve(),
    };
    clients.push(bound);
  }
} else {
  await ensurePeer();
  const p = await startPeerHttp(chromium, PEER_CLI);
  pid = p.pid;
  close = () => p.close();
  const warm = await p.connect();
  await navigate(warm, kind, pages.url("/gen/small.html"));
  for (let i = 0; i < n; i++) clients.push(await p.connect());
}

// Opened five at a time: 20 targets created at once on a loaded machine can outwait the
// server's wait for a new target.
const prepare = async (c: BenchClient, i: number) => {
  const url = apps[i % apps.length]!;
  if (kind === "browxai") {
    // A loaded machine may outwait the server's wait for a new target: try again.
    for (let tries = 1;; tries++) {
      const o = await c.call("open_session", { url, timeoutMs: 30_000 });
      if (!o.isError) break;
      if (tries === 3) throw new Error(`open ${i}: ${o.text.slice(0, 300)}`);
      await c.call("close_session", {});
    }
  } else await navigate(c, kind, url);
  const snap = await snapshotUntil(c, kind, NEW_TODO);
  const input = refOn(snap.text, NEW_TODO)!;
  const r = kind === "peer"
    ? await c.call("browser_type", { target: input, text: `Todo ${i}`, submit: true })
    : await c.call("fill", { ref: input, value: `Todo ${i}`, submit: true });
  if (r.isError) throw new Error(`fill ${i}: ${r.text.slice(0, 200)}`);
};
for (let i = 0; i < n; i += 5) {
  await Promise.all(clients.slice(i, i + 5).map((c, j) => prepare(c, i + j)));
}
// One read each so that every page has been read after its fill.
await Promise.all(clients.map((c) => fullSnapshot(c, kind)));

const cpu = () => ({ server: cpuMs(pid) ?? 0, tree: treeCpuMs(pid), byPid: byPid() });
/** CPU ms per descendant process, keyed by pid. */
function byPid(): Map<number, number> {
  return new Map(descendants(pid).map((p) => [p, cpuMs(p) ?? 0]));
}
/** A process's Chromium type (`renderer`, `gpu-process`, … `browser`), from its command line. */
function typeOf(p: number): string {
  try {
    const c = Deno.readTextFileSync(`/proc/${p}/cmdline`);
    return /--type=([\w-]+)/.exec(c)?.[1] ?? (/chrom/.test(c) ? "browser" : "other");
  } catch {
    return "gone";
  }
}
/** CPU ms by process type between two samples. */
function byType(a: Map<number, number>, b: Map<number, number>): string {
  const out = new Map<string, number>();
  for (const [p, v] of b) {
    const t = typeOf(p);
    out.set(t, (out.get(t) ?? 0) + v - (a.get(p) ?? 0));
  }
  return [...out].map(([t, v]) => `${t} ${v}`).join(", ");
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

// Wait for Chromium to go quiet: pages keep working for seconds after they show (TodoMVC
// react compiles its JSX in the page, V8 optimizes in the background), and that work is not
// the re-reads'. Quiet: under 10% of a core over half a second, or 30 s passed.
for (let i = 0; i < 60; i++) {
  const a = treeCpuMs(pid);
  await new Promise((r) => setTimeout(r, 500));
  if (treeCpuMs(pid) - a < 50) break;
}
const ms: number[] = [];
const t0 = cpu();
const w0 = performance.now();
for (let r = 0; r < rounds; r++) {
  const got = await Promise.all(clients.map((c) => fullSnapshot(c, kind)));
  for (const g of got) {
    if (g.error) throw new Error(`snapshot: ${g.error.slice(0, 200)}`);
    ms.push(g.ms);
  }
}
const wall = performance.now() - w0;
const t1 = cpu();
// The same time idle: what the pages and servers cost by themselves.
await new Promise((r) => setTimeout(r, wall));
const t2 = cpu();
await new Promise((r) => setTimeout(r, wall));
const t3 = cpu();
const reads = n * rounds;
const per = (a: number, b: number) => ((b - a) / reads).toFixed(1);
console.log(
  `${kind}: ${n} sessions × ${rounds} rounds of concurrent re-reads, ${wall.toFixed(0)} ms wall; ` +
    `latency p50 ${pct(ms, 50).toFixed(0)} ms, p95 ${
      pct(ms, 95).toFixed(0)
    } ms; per re-read CPU: ` +
    `server ${per(t0.server, t1.server)} ms, Chromium ${
      per(t0.tree - t0.server, t1.tree - t1.server)
    } ms; idle over the same time (per re-read): server ${per(t1.server, t2.server)} ms, ` +
    `Chromium ${per(t1.tree - t1.server, t2.tree - t2.server)} ms, then ${
      per(t2.tree - t2.server, t3.tree - t3.server)
    } ms`,
);
console.log(
  `  CPU ms by process: reads ${byType(t0.byPid, t1.byPid)}; idle ${
    byType(t1.byPid, t2.byPid)
  }; idle then ${byType(t2.byPid, t3.byPid)}`,
);
await close();
await pages.close();
