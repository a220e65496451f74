/**
 * One round: cold start of each server, then page by page A then B (navigate, whole snapshot
 * with coverage, navigate with the other result mode), the TodoMVC flows, and memory.
 *
 * @module
 */
import { rawLoadMs } from "./raw_load.ts";
import { type BenchServer, type ServerKind, startServer } from "./clients.ts";
import { checkCoverage } from "./coverage.ts";
import { fullSnapshot, navigate, snapshotUntil, todoFlow } from "./flows.ts";
import { treeMemory } from "./proc_mem.ts";
import type { BenchPage } from "./run.ts";
import { countTokens, tokenFigures } from "./tokens.ts";

/** What {@link runRound} needs. */
export interface RoundContext {
  round: number;
  kinds: ServerKind[];
  chromium: string;
  peerCli: string | undefined;
  pages: BenchPage[];
  apps: Array<{ id: string; url: string }>;
  /** A small page for cold start and the extra session. */
  coldUrl: string;
  /** Also measure browxai's default navigate and the peer with `--snapshot-mode none`. */
  variants: boolean;
  add(round: number, server: string, figure: string, page: string, value: number): void;
  errors: string[];
  log(line: string): void;
}

const msg = (e: unknown) => e instanceof Error ? e.message : String(e);

/** Runs one round; failures are recorded in `ctx.errors` and the round goes on. */
export async function runRound(ctx: RoundContext): Promise<void> {
  const { round, add } = ctx;
  const servers = new Map<ServerKind, BenchServer>();
  try {
    // Cold start: spawn → MCP initialize → first navigate's result (each server's default).
    for (const kind of ctx.kinds) {
      const s = await startServer({ kind, chromium: ctx.chromium, peerCli: ctx.peerCli });
      servers.set(kind, s);
      const r = await navigate(s, kind, ctx.coldUrl, { withSnapshot: true });
      if (r.isError) ctx.errors.push(`round ${round} cold start ${kind}: ${r.text.slice(0, 300)}`);
      else add(round, kind, "cold.ms", "-", performance.now() - s.spawnedAt);
    }
    for (const page of ctx.pages) {
      for (const [kind, s] of servers) {
        try {
          await tourPage(ctx, kind, s, page);
        } catch (e) {
          ctx.errors.push(`round ${round} ${page.id} ${kind}: ${msg(e)}`);
        }
      }
    }
    if (ctx.variants && ctx.peerCli) await peerWithoutSnapshots(ctx);
    if (ctx.variants) await navigateFloor(ctx);
    for (const app of ctx.apps) {
      for (const [kind, s] of servers) {
        try {
          const f = await todoFlow(s, kind, app.url, { workDir: s.workDir });
          add(round, kind, "fill.ms", app.id, f.fill.ms);
          add(round, kind, "click.ms", app.id, f.click.ms);
          add(round, kind, "fill.o200k", app.id, countTokens(f.fill.text));
          add(round, kind, "click.o200k", app.id, countTokens(f.click.text));
          if (f.linked.fill !== undefined) {
            add(round, kind, "fill_linked.o200k", app.id, countTokens(f.fill.text + f.linked.fill));
          }
          if (f.linked.click !== undefined) {
            add(
              round,
              kind,
              "click_linked.o200k",
              app.id,
              countTokens(f.click.text + f.linked.click),
            );
          }
          for (const e of f.errors) ctx.errors.push(`round ${round} ${app.id} ${kind}: ${e}`);
        } catch (e) {
          ctx.errors.push(`round ${round} ${app.id} ${kind}: ${msg(e)}`);
        }
      }
    }
    for (const [kind, s] of servers) {
      try {
        await memory(ctx, kind, s);
      } catch (e) {
        ctx.errors.push(`round ${round} memory ${kind}: ${msg(e)}`);
      }
    }
  } finally {
    for (const s of servers.values()) await s.close();
  }
}

async function tourPage(ctx: RoundContext, kind: ServerKind, s: BenchServer, page: BenchPage) {
  const { round, add } = ctx;
  const nav = await navigate(s, kind, page.url);
  if (nav.isError) throw new Error(`navigate: ${nav.text.slice(0, 300)}`);
  add(round, kind, "navigate.ms", page.id, nav.ms);
  add(round, kind, "navigate.o200k", page.id, countTokens(nav.text));
  if (page.ready) await snapshotUntil(s, kind, page.ready);
  const snap = await fullSnapshot(s, kind);
  if (snap.error) throw new Error(`snapshot: ${snap.error.slice(0, 300)}`);
  const tf = tokenFigures(snap.text);
  const cov = checkCoverage(snap.text, page.probes);
  add(round, kind, "snapshot.ms", page.id, snap.ms);
  add(round, kind, "snapshot.calls", page.id, snap.calls);
  add(round, kind, "snapshot.o200k", page.id, tf.o200k);
  add(round, kind, "snapshot.charsOver4", page.id, tf.charsOver4);
  add(round, kind, "snapshot.coverage", page.id, cov.percent);
  if (page.floorO200k > 0) {
    add(round, kind, "snapshot.overFloor", page.id, tf.o200k / page.floorO200k);
  }
  if (page.textContentO200k > 0) {
    add(round, kind, "snapshot.overTextContent", page.id, tf.o200k / page.textContentO200k);
  }
  if (cov.missing.length) {
    ctx.log(
      `  ${kind} ${page.id}: coverage ${cov.percent}%, missing ${
        cov.missing.slice(0, 3).join(" · ")
      }`,
    );
  }
  ctx.log(
    `  ${kind} ${page.id}: navigate ${nav.ms.toFixed(0)} ms, snapshot ${snap.ms.toFixed(0)} ms ` +
      `(${snap.calls} call${
        snap.calls > 1 ? "s" : ""
      }), ${tf.o200k} tokens, coverage ${cov.percent}%`,
  );
  if (ctx.variants && kind === "browxai") {
    const d = await navigate(s, kind, page.url, { withSnapshot: true });
    if (!d.isError) {
      add(round, kind, "navigate_default.ms", page.id, d.ms);
      add(round, kind, "navigate_default.o200k", page.id, countTokens(d.text));
    }
  }
}

/** Chromium's own Page.navigate → load on each page (see `raw_load.ts`): the floor. */
async function navigateFloor(ctx: RoundContext) {
  try {
    const floor = await rawLoadMs(ctx.chromium, ctx.pages, ctx.coldUrl);
    for (const [id, values] of Object.entries(floor)) {
      for (const v of values) ctx.add(ctx.round, "browxai", "navigate_floor.ms", id, v);
    }
  } catch (e) {
    ctx.errors.push(`round ${ctx.round} raw load: ${e instanceof Error ? e.message : e}`);
  }
}

/** The peer started with `--snapshot-mode none`: navigate latency without its snapshot file. */
async function peerWithoutSnapshots(ctx: RoundContext) {
  const s = await startServer({
    kind: "peer",
    chromium: ctx.chromium,
    peerCli: ctx.peerCli,
    args: ["--snapshot-mode", "none"],
  });
  try {
    await navigate(s, "peer", ctx.coldUrl); // start its browser
    for (const page of ctx.pages) {
      const r = await navigate(s, "peer", page.url);
      if (r.isError) {
        ctx.errors.push(`round ${ctx.round} ${page.id} peer (mode none): ${r.text.slice(0, 200)}`);
        continue;
      }
      ctx.add(ctx.round, "peer", "navigate_nosnap.ms", page.id, r.ms);
      ctx.add(ctx.round, "peer", "navigate_nosnap.o200k", page.id, countTokens(r.text));
    }
  } finally {
    await s.close();
  }
}

async function memory(ctx: RoundContext, kind: ServerKind, s: BenchServer) {
  if (s.pid === undefined) return;
  const before = treeMemory(s.pid);
  if (before.serverRssKb === null) return; // not Linux
  ctx.add(ctx.round, kind, "mem.server_mb", "-", before.serverRssKb / 1024);
  ctx.add(ctx.round, kind, "mem.chromium_mb", "-", (before.childrenRssKb ?? 0) / 1024);
  // One more session with a page: browxai an incognito session (its own context); the peer
  // over stdio has one context, so a new tab in it.
  const r = kind === "browxai"
    ? await s.call("open_session", { session: "extra", url: ctx.coldUrl })
    : await s.call("browser_tabs", { action: "new", url: ctx.coldUrl });
  if (r.isError) throw new Error(`extra session: ${r.text.slice(0, 200)}`);
  await new Promise((res) => setTimeout(res, 1000));
  const after = treeMemory(s.pid);
  ctx.add(
    ctx.round,
    kind,
    "mem.extra_session_mb",
    "-",
    ((after.childrenRssKb ?? 0) - (before.childrenRssKb ?? 0)) / 1024,
  );
  if (after.childrenPssKb !== null && before.childrenPssKb !== null) {
    const mb = (after.childrenPssKb - before.childrenPssKb) / 1024;
    ctx.add(ctx.round, kind, "mem.extra_session_pss_mb", "-", mb);
  }
}
