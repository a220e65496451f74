/**
 * N concurrent sessions, each running the TodoMVC flow at once.
 *
 * - browxai: one server over one stdio connection; N named incognito sessions (`open_session`
 *   with the app's URL), all calls in flight together.
 * - peer: `@playwright/mcp` over Streamable HTTP, N clients; with `--isolated` each client gets
 *   its own browser context in one shared browser (its way to serve several isolated agents).
 *
 * @module
 */
import { type BenchClient, type ServerKind, startPeerHttp, startServer } from "./clients.ts";
import { navigate, type TodoFlow, todoFlow } from "./flows.ts";
import { cpuMs, treeCpuMs, treeMemory } from "./proc_mem.ts";

/** What one concurrent run measured. */
export interface ConcurrencyResult {
  sessions: number;
  /**
   * Latency of each action over all sessions, in ms (NaN for a call that did not happen).
   * `ready`: from opening the page to the first snapshot that shows the app (the open, then
   * every snapshot until one does): what the agent waits before it can act. It sets the two
   * servers side by side whatever each does at the open: the peer's navigate takes its full
   * snapshot (its default) after the load, browxai's `open_session` returns at the load, and
   * the work a page does after its load (TodoMVC react transforms its JSX in the page) then
   * falls in browxai's first snapshot instead.
   */
  ms: {
    navigate: number[];
    snapshot: number[];
    /** The full snapshot after the fill: a page each server has read before. */
    reread: number[];
    fill: number[];
    click: number[];
    ready: number[];
  };
  /** Errors: failed calls, failed checks, thrown flows. */
  errors: string[];
  /** Wall time of the whole concurrent part, in ms. */
  wallMs: number;
  /**
   * CPU time spent while the flows ran, in ms: the server process itself, and its descendants
   * (Chromium; processes that exited meanwhile are not counted).
   */
  cpuMs: { server: number | null; browser: number | null };
  /** Chromium RSS (sum over the server's descendants) per session added, in KiB. */
  chromiumRssPerSessionKb: number | null;
  /** Chromium PSS per session added, in KiB. */
  chromiumPssPerSessionKb: number | null;
  /**
   * The server process's own RSS (not Chromium's) after all sessions were closed, minus its
   * RSS before they opened (after the warm-up page), in KiB: what N sessions left behind.
   */
  serverRssGrowthKb: number | null;
}

/** How long the server's RSS may take to come down after the sessions closed, ms. */
const RSS_SETTLE_MS = 5000;

/**
 * The server's RSS once it stops falling after the sessions closed: sampled every 250 ms for
 * up to {@link RSS_SETTLE_MS}, the lowest value (a GC may run a little after the last close).
 */
async function settledServerRss(pid: number): Promise<number | null> {
  let low = treeMemory(pid).serverRssKb;
  const end = performance.now() + RSS_SETTLE_MS;
  while (low !== null && performance.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    const now = treeMemory(pid).serverRssKb;
    if (now !== null && now < low) low = now;
  }
  return low;
}

/** Options of {@link runConcurrency}. */
export interface ConcurrencyOptions {
  kind: ServerKind;
  chromium: string;
  peerCli?: string | undefined;
  sessions: number;
  /** App URLs, used round-robin. */
  apps: string[];
  /** A small page to start the browser with before the sessions open. */
  warmupUrl: string;
}

/** Runs the flow in `sessions` sessions at once on a fresh server. */
export async function runConcurrency(o: ConcurrencyOptions): Promise<ConcurrencyResult> {
  const flows: Array<Promise<TodoFlow>> = [];
  let pid: number | undefined;
  let close: () => Promise<void>;
  let t0 = 0;
  let before = { rss: null as number | null, pss: null as number | null };
  let serverBefore: number | null = null;
  let cpuBefore = { server: null as number | null, tree: 0 };
  const cpuNow = () => ({ server: cpuMs(pid!), tree: treeCpuMs(pid!) });
  /** Closes every session the flows opened (the server and its browser stay up). */
  let closeSessions: () => Promise<void>;
  if (o.kind === "browxai") {
    const s = await startServer({ kind: "browxai", chromium: o.chromium });
    close = () => s.close();
    pid = s.pid;
    await navigate(s, "browxai", o.warmupUrl);
    const m = treeMemory(pid!);
    before = { rss: m.childrenRssKb, pss: m.childrenPssKb };
    serverBefore = m.serverRssKb;
    closeSessions = async () => {
      for (let i = 0; i < o.sessions; i++) {
        const r = await s.call("close_session", { session: `bench-${i}` });
        if (r.isError) throw new Error(`close_session bench-${i}: ${r.text.slice(0, 200)}`);
      }
    };
    cpuBefore = cpuNow();
    t0 = performance.now();
    for (let i = 0; i < o.sessions; i++) {
      flows.push(todoFlow(s, "browxai", o.apps[i % o.apps.length]!, {
        session: `bench-${i}`,
        todo: `Todo of session ${i}`,
      }));
    }
  } else {
    const p = await startPeerHttp(o.chromium, o.peerCli!);
    close = () => p.close();
    pid = p.pid;
    const warm = await p.connect();
    await navigate(warm, "peer", o.warmupUrl);
    const m = treeMemory(pid);
    before = { rss: m.childrenRssKb, pss: m.childrenPssKb };
    serverBefore = m.serverRssKb;
    const clients: BenchClient[] = [];
    for (let i = 0; i < o.sessions; i++) clients.push(await p.connect());
    // A client's close ends its MCP session; with --isolated its browser context goes too.
    closeSessions = async () => {
      for (const c of clients) await c.close();
    };
    cpuBefore = cpuNow();
    t0 = performance.now();
    clients.forEach((c, i) =>
      flows.push(todoFlow(c, "peer", o.apps[i % o.apps.length]!, { todo: `Todo of session ${i}` }))
    );
  }
  const result: ConcurrencyResult = {
    sessions: o.sessions,
    ms: { navigate: [], snapshot: [], reread: [], fill: [], click: [], ready: [] },
    errors: [],
    wallMs: 0,
    cpuMs: { server: null, browser: null },
    chromiumRssPerSessionKb: null,
    chromiumPssPerSessionKb: null,
    serverRssGrowthKb: null,
  };
  try {
    const settled = await Promise.allSettled(flows);
    result.wallMs = performance.now() - t0;
    const cpu = cpuNow();
    if (cpu.server !== null && cpuBefore.server !== null) {
      result.cpuMs = {
        server: cpu.server - cpuBefore.server,
        browser: (cpu.tree - cpu.server) - (cpuBefore.tree - cpuBefore.server),
      };
    }
    const after = treeMemory(pid!);
    const per = (a: number | null, b: number | null) =>
      a !== null && b !== null ? (a - b) / o.sessions : null;
    result.chromiumRssPerSessionKb = per(after.childrenRssKb, before.rss);
    result.chromiumPssPerSessionKb = per(after.childrenPssKb, before.pss);
    settled.forEach((s, i) => {
      if (s.status === "rejected") {
        result.errors.push(
          `session ${i}: ${s.reason instanceof Error ? s.reason.message : s.reason}`,
        );
        return;
      }
      const f = s.value;
      result.ms.navigate.push(f.navigate.ms);
      result.ms.snapshot.push(f.snapshot.ms);
      result.ms.reread.push(f.reread.ms);
      result.ms.fill.push(f.fill.ms);
      result.ms.click.push(f.click.ms);
      result.ms.ready.push(f.navigate.ms + f.snapshotWaitMs);
      for (const e of f.errors) result.errors.push(`session ${i}: ${e}`);
    });
    try {
      await closeSessions();
      const after = await settledServerRss(pid!);
      if (after !== null && serverBefore !== null) result.serverRssGrowthKb = after - serverBefore;
    } catch (e) {
      result.errors.push(`closing the sessions: ${e instanceof Error ? e.message : e}`);
    }
  } finally {
    await close();
  }
  return result;
}
