/**
 * `deno task bench --only navigate`: a short round for the navigate targets of issue 13.
 * Cold start of each server (spawn → its first navigate, each server's default result), then,
 * once the CPU is idle, both servers up at once and every page navigated by browxai with
 * `snapshot: "none"` and by the peer started with `--snapshot-mode none`, alternating, 3 times. No snapshots, tokens or ground truth: minutes
 * shorter than a full round, so a change can be measured again and again.
 *
 * Figures: `cold.ms`, browxai `navigate.ms`, peer `navigate_nosnap.ms` (the names of the full
 * round, so the same rows of the table compare them).
 *
 * @module
 */
import { rawLoadMs } from "./raw_load.ts";
import { type BenchServer, type ServerKind, startServer } from "./clients.ts";
import { navigate } from "./flows.ts";

/** What {@link runNavigateRound} needs. */
export interface NavigateRoundContext {
  round: number;
  kinds: ServerKind[];
  chromium: string;
  peerCli: string | undefined;
  pages: Array<{ id: string; url: string }>;
  /** A small page for the cold start. */
  coldUrl: string;
  add(round: number, server: string, figure: string, page: string, value: number): void;
  errors: string[];
  log(line: string): void;
}

/** Navigations of each page by each server per round (alternating A, B). */
const REPEATS = 3;

/**
 * Waits until the machine's CPUs were at least 85% idle over half a second (read from
 * /proc/stat), at most 30 s: a round after the concurrency part starts while its Chromiums are
 * still exiting. Says how long it waited; a machine that never quiets is measured anyway.
 */
export async function waitForIdleCpu(log: (line: string) => void): Promise<void> {
  const read = () => {
    const cpu = Deno.readTextFileSync("/proc/stat").split("\n")[0]!.trim().split(/\s+/).slice(1)
      .map(Number);
    return { idle: cpu[3]! + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
  };
  const started = performance.now();
  try {
    while (performance.now() - started < 30_000) {
      const a = read();
      await new Promise((r) => setTimeout(r, 500));
      const b = read();
      if ((b.idle - a.idle) / Math.max(1, b.total - a.total) >= 0.85) break;
    }
  } catch { /* no /proc/stat: not Linux */ }
  const waited = performance.now() - started;
  if (waited > 1000) log(`  waited ${(waited / 1000).toFixed(1)} s for an idle CPU`);
}

/** Runs one navigate round; failures land in `ctx.errors`. */
export async function runNavigateRound(ctx: NavigateRoundContext): Promise<void> {
  await waitForIdleCpu(ctx.log);
  for (const kind of ctx.kinds) {
    const s = await startServer({ kind, chromium: ctx.chromium, peerCli: ctx.peerCli });
    try {
      const r = await navigate(s, kind, ctx.coldUrl, { withSnapshot: true });
      if (r.isError) ctx.errors.push(`round ${ctx.round} cold start ${kind}: ${r.text}`);
      else ctx.add(ctx.round, kind, "cold.ms", "-", performance.now() - s.spawnedAt);
    } finally {
      await s.close();
    }
  }
  // Both servers up at once, each page navigated by A then B, REPEATS times: the two see the
  // same moment of the machine (one sample each, minutes apart, swung the ratio by ±30%).
  await waitForIdleCpu(ctx.log);
  const servers: Array<[ServerKind, BenchServer]> = [];
  try {
    for (const kind of ctx.kinds) {
      const s = await startServer({
        kind,
        chromium: ctx.chromium,
        peerCli: ctx.peerCli,
        ...(kind === "peer" ? { args: ["--snapshot-mode", "none"] } : {}),
      });
      servers.push([kind, s]);
      await navigate(s, kind, ctx.coldUrl); // start its browser
    }
    const lines = new Map<ServerKind, string[]>(ctx.kinds.map((k) => [k, []]));
    for (const page of ctx.pages) {
      const ms = new Map<ServerKind, number[]>(ctx.kinds.map((k) => [k, []]));
      for (let i = 0; i < REPEATS; i++) {
        for (const [kind, s] of servers) {
          const r = await navigate(s, kind, page.url);
          if (r.isError) {
            ctx.errors.push(
              `round ${ctx.round} navigate ${page.id} ${kind}: ${r.text.slice(0, 200)}`,
            );
            continue;
          }
          ctx.add(
            ctx.round,
            kind,
            kind === "peer" ? "navigate_nosnap.ms" : "navigate.ms",
            page.id,
            r.ms,
          );
          ms.get(kind)!.push(r.ms);
        }
      }
      for (const [kind, xs] of ms) {
        lines.get(kind)!.push(`${page.id} ${xs.map((x) => x.toFixed(0)).join("/")}`);
      }
    }
    for (const [kind, line] of lines) {
      ctx.log(`  ${kind} navigate (no snapshot), ms: ${line.join(", ")}`);
    }
  } finally {
    for (const [, s] of servers) await s.close();
  }
  // The floor: Chromium's own Page.navigate → load event, nothing between.
  try {
    const floor = await rawLoadMs(ctx.chromium, ctx.pages, ctx.coldUrl);
    for (const [id, values] of Object.entries(floor)) {
      for (const v of values) ctx.add(ctx.round, "browxai", "navigate_floor.ms", id, v);
    }
    ctx.log(
      `  raw CDP Page.navigate → load, ms: ${
        Object.entries(floor).map(([id, v]) => `${id} ${v[0]!.toFixed(0)}`).join(", ")
      }`,
    );
  } catch (e) {
    ctx.errors.push(`round ${ctx.round} raw load: ${e instanceof Error ? e.message : e}`);
  }
}
