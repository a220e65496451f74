/**
 * The bench run: set-up (peer, pages, ground truth), once-only figures (tools/list), then N
 * rounds alternating browxai (A) and the peer (B) on the same pages, then the concurrency run.
 *
 * @module
 */
import { findChromium } from "../cdp/discovery.ts";
import { ensureTodoMvc } from "../tests/fixtures/todomvc.ts";
import { ROOT } from "../tests/_mcp.ts";
import { type ServerKind, startServer } from "./clients.ts";
import { runConcurrency } from "./concurrency.ts";
import { runNavigateRound } from "./focus.ts";
import { type Probes, probesFromTruth, spread } from "./coverage.ts";
import { ensureNodeDocs } from "./node_docs.ts";
import { ensurePeer, PEER_VERSION } from "./peer.ts";
import { startPageServer } from "./page_server.ts";
import { runRound } from "./round.ts";
import { percentile, type RowSpec, type Sample } from "./report.ts";
import { rowSpecs } from "./rows.ts";
import { countTokens, toolsListTokens } from "./tokens.ts";
import { openTruthBrowser } from "./truth.ts";

/** Options of {@link runBench}. */
export interface BenchOptions {
  /** Rounds (default 3). */
  rounds: number;
  /** One round on one small generated page, a few sessions: for CI. */
  quick: boolean;
  /** How to get the peer: npm (default), npm's cache only, or not at all. */
  peer: "install" | "offline" | "off";
  /** Concurrent sessions (default 20; quick: 3). */
  sessions: number;
  /** Progress lines go here. */
  log: (line: string) => void;
  /**
   * Only these parts (issue 13's targets), repeated for each round: `navigate` (cold start and
   * navigate without a snapshot, see `focus.ts`), `conc` (the concurrent sessions and the
   * server's memory after they close). Omitted: the whole bench.
   */
  only?: Array<"navigate" | "conc"> | undefined;
}

/** A page of the tour. */
export interface BenchPage {
  id: string;
  url: string;
  probes: Probes;
  /** Tokens of the page's rendered text: innerText (see `coverage.ts` TRUTH_SCRIPT). */
  floorO200k: number;
  /** Tokens of the body's text nodes, hidden ones included (see TRUTH_SCRIPT). */
  textContentO200k: number;
  /** Interactive elements with a name that the truth script found (before sampling). */
  interactiveTotal: number;
  /** Poll snapshots until this shows before timing one (apps that render late). */
  ready?: RegExp;
}

/** Everything a run produced (written as JSON). */
export interface BenchResult {
  startedAt: string;
  options: Omit<BenchOptions, "log">;
  machine: { cpus: number; loadavgStart: number[]; loadavgEnd: number[]; memTotalMb: number };
  chromium: string;
  /** browxai's commit, and whether its code (main.ts, tools/, cdp/, policy/) had local changes. */
  browxai: { commit: string; dirty: boolean };
  peer: { version: string; available: boolean; reason?: string };
  pages: Array<Omit<BenchPage, "ready">>;
  samples: Sample[];
  rows: RowSpec[];
  notes: string[];
  errors: string[];
}

const PEER_ALL_CAPS = "config,network,storage,devtools,vision,pdf,testing";
const APPS = ["react", "vue", "vanillajs"] as const;

function gitState(): { commit: string; dirty: boolean } {
  const git = (...args: string[]) => {
    try {
      const out = new Deno.Command("git", { args, cwd: ROOT, stdout: "piped", stderr: "null" })
        .outputSync();
      return out.success ? new TextDecoder().decode(out.stdout).trim() : "";
    } catch {
      return "";
    }
  };
  const dirty = git("status", "--porcelain", "--", "main.ts", "tools", "cdp", "policy") !== "";
  return { commit: git("rev-parse", "--short", "HEAD") || "unknown", dirty };
}

function loadavg(): number[] {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).map(Number);
  } catch {
    return [];
  }
}

function memTotalMb(): number {
  try {
    const m = /MemTotal:\s+(\d+)/.exec(Deno.readTextFileSync("/proc/meminfo"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function toolsList(
  kind: ServerKind,
  chromium: string,
  peerCli: string | undefined,
  all: boolean,
) {
  const s = await startServer({
    kind,
    chromium,
    peerCli,
    ...(all
      ? kind === "browxai"
        ? { env: { BROWX_TOOLSETS: "all" } }
        : { args: ["--caps", PEER_ALL_CAPS] }
      : {}),
  });
  try {
    const tools = await s.listTools();
    return { count: tools.length, ...toolsListTokens(tools) };
  } finally {
    await s.close();
  }
}

/** Runs the bench. Never throws for a failing measurement: errors land in `errors`. */
export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const log = options.log;
  const chromium = findChromium().path;
  const result: BenchResult = {
    startedAt: new Date().toISOString(),
    options: {
      rounds: options.rounds,
      quick: options.quick,
      peer: options.peer,
      sessions: options.sessions,
    },
    machine: {
      cpus: navigator.hardwareConcurrency,
      loadavgStart: loadavg(),
      loadavgEnd: [],
      memTotalMb: memTotalMb(),
    },
    chromium,
    browxai: gitState(),
    peer: { version: PEER_VERSION, available: false },
    pages: [],
    samples: [],
    rows: [],
    notes: [],
    errors: [],
  };
  let peerCli: string | undefined;
  if (options.peer === "off") result.peer.reason = "--no-peer";
  else {
    try {
      peerCli = await ensurePeer({ offline: options.peer === "offline" });
      result.peer.available = true;
    } catch (e) {
      result.peer.reason = e instanceof Error ? e.message : String(e);
      log(`peer unavailable, running browxai only: ${result.peer.reason}`);
    }
  }
  const kinds: ServerKind[] = peerCli ? ["browxai", "peer"] : ["browxai"];
  const add = (round: number, server: string, figure: string, page: string, value: number) =>
    result.samples.push({ round, server, figure, page, value });
  const ctxOf = (server: { url(path: string): string }): ConcurrencyPartContext => ({
    chromium,
    peerCli,
    sessions: options.sessions,
    warmupUrl: server.url("/gen/small.html"),
    add,
    errors: result.errors,
    log,
  });

  const nodeDocs = options.quick ? undefined : await ensureNodeDocs();
  const todomvc = options.quick ? undefined : await ensureTodoMvc();
  const server = startPageServer({ nodeDocsDir: nodeDocs, todomvcDir: todomvc });
  try {
    const defs: Array<{ id: string; path: string; ready?: RegExp }> = options.quick
      ? [{ id: "small", path: "/gen/small.html" }]
      : [
        { id: "fs", path: "/node/fs.html" },
        { id: "all", path: "/node/all.html" },
        ...APPS.map((a) => ({
          id: a,
          path: `/todomvc/examples/${a}/`,
          ready: /What needs to be done/,
        })),
        { id: "many", path: "/gen/many.html" },
        { id: "shadow", path: "/gen/shadow.html" },
        { id: "frames", path: "/gen/frames.html" },
      ];
    if (options.only) {
      const apps = APPS.map((a) => ({ id: a, url: server.url(`/todomvc/examples/${a}/`) }));
      const pages = defs.map((d) => ({ id: d.id, url: server.url(d.path) }));
      result.rows = rowSpecs(pages.map((p) => p.id), apps.map((a) => a.id));
      for (let round = 1; round <= options.rounds; round++) {
        log(`round ${round}/${options.rounds}`);
        if (options.only.includes("navigate")) {
          await runNavigateRound({
            round,
            kinds,
            chromium,
            peerCli,
            pages,
            coldUrl: server.url("/gen/small.html"),
            add,
            errors: result.errors,
            log,
          });
        }
        if (options.only.includes("conc")) {
          const urls = options.quick ? [server.url("/gen/small.html")] : apps.map((a) => a.url);
          await concurrencyPart(round, kinds, urls, ctxOf(server));
        }
      }
      result.machine.loadavgEnd = loadavg();
      return result;
    }
    log(`ground truth from a plain Chromium (${chromium})`);
    const truth = await openTruthBrowser(chromium);
    const pages: BenchPage[] = [];
    try {
      for (const d of defs) {
        const url = server.url(d.path);
        const t = await truth.collect(url, d.ready ? 1500 : 300);
        const gen = server.generated(url);
        const probes = gen
          ? { interactive: spread(gen.interactive, 50), tail: gen.tail }
          : probesFromTruth(t);
        const page: BenchPage = {
          id: d.id,
          url,
          probes,
          floorO200k: countTokens(t.innerText),
          textContentO200k: countTokens(t.textContent),
          interactiveTotal: gen ? gen.interactive.length : t.interactive.length,
          ...(d.ready ? { ready: d.ready } : {}),
        };
        pages.push(page);
        const { ready: _ready, ...recorded } = page;
        result.pages.push(recorded);
        add(0, "page", "floor.o200k", d.id, page.floorO200k);
        add(0, "page", "textcontent.o200k", d.id, page.textContentO200k);
      }
    } finally {
      await truth.close();
    }
    const apps = options.quick
      ? [{ id: "small", url: server.url("/gen/small.html") }]
      : APPS.map((a) => ({ id: a, url: server.url(`/todomvc/examples/${a}/`) }));
    result.rows = rowSpecs(pages.map((p) => p.id), apps.map((a) => a.id));

    log("tools/list");
    for (const kind of kinds) {
      for (const all of [false, true]) {
        try {
          const t = await toolsList(kind, chromium, peerCli, all);
          const k = all ? "all" : "default";
          add(0, kind, `tools.${k}.o200k`, "-", t.o200k);
          add(0, kind, `tools.${k}.wire_o200k`, "-", t.wireO200k);
          add(0, kind, `tools.${k}.count`, "-", t.count);
        } catch (e) {
          result.errors.push(`tools/list ${kind}: ${e instanceof Error ? e.message : e}`);
        }
      }
    }

    for (let round = 1; round <= options.rounds; round++) {
      log(`round ${round}/${options.rounds}`);
      await runRound({
        round,
        kinds,
        chromium,
        peerCli,
        pages,
        apps,
        coldUrl: server.url("/gen/small.html"),
        variants: !options.quick,
        add,
        errors: result.errors,
        log,
      });
    }

    await concurrencyPart(1, kinds, apps.map((a) => a.url), ctxOf(server));
  } finally {
    await server.close();
  }
  result.machine.loadavgEnd = loadavg();
  return result;
}

/** What {@link concurrencyPart} needs besides the round, the servers and the app URLs. */
interface ConcurrencyPartContext {
  chromium: string;
  peerCli: string | undefined;
  sessions: number;
  warmupUrl: string;
  add(round: number, server: string, figure: string, page: string, value: number): void;
  errors: string[];
  log(line: string): void;
}

/** The concurrent sessions of each server (see `concurrency.ts`), recorded as `conc.*`. */
async function concurrencyPart(
  round: number,
  kinds: ServerKind[],
  apps: string[],
  ctx: ConcurrencyPartContext,
): Promise<void> {
  const { add } = ctx;
  for (const kind of kinds) {
    ctx.log(`${ctx.sessions} concurrent sessions: ${kind}`);
    try {
      const c = await runConcurrency({
        kind,
        chromium: ctx.chromium,
        peerCli: ctx.peerCli,
        sessions: ctx.sessions,
        apps,
        warmupUrl: ctx.warmupUrl,
      });
      for (const [act, values] of Object.entries(c.ms)) {
        add(round, kind, `conc.${act}.p50`, "-", percentile(values, 50));
        add(round, kind, `conc.${act}.p95`, "-", percentile(values, 95));
      }
      add(round, kind, "conc.errors", "-", c.errors.length);
      add(round, kind, "conc.wall_ms", "-", c.wallMs);
      if (c.cpuMs.server !== null) add(round, kind, "conc.cpu_server_ms", "-", c.cpuMs.server);
      if (c.cpuMs.browser !== null) add(round, kind, "conc.cpu_browser_ms", "-", c.cpuMs.browser);
      if (c.chromiumRssPerSessionKb !== null) {
        add(round, kind, "conc.rss_per_session_mb", "-", c.chromiumRssPerSessionKb / 1024);
      }
      if (c.chromiumPssPerSessionKb !== null) {
        add(round, kind, "conc.pss_per_session_mb", "-", c.chromiumPssPerSessionKb / 1024);
      }
      if (c.serverRssGrowthKb !== null) {
        add(round, kind, "conc.server_rss_growth_mb", "-", c.serverRssGrowthKb / 1024);
      }
      ctx.log(
        `  ${kind}: ` + Object.entries(c.ms).map(([act, v]) =>
          `${act} p50 ${percentile(v, 50).toFixed(0)} p95 ${percentile(v, 95).toFixed(0)}`
        ).join(", ") + `; server RSS growth ${((c.serverRssGrowthKb ?? NaN) / 1024).toFixed(1)} MB`,
      );
      for (const e of c.errors.slice(0, 10)) {
        ctx.errors.push(`concurrency ${kind}: ${e}`);
      }
    } catch (e) {
      ctx.errors.push(`concurrency ${kind}: ${e instanceof Error ? e.message : e}`);
    }
  }
}
