/**
 * The rows of the bench's table: which browxai figure is set against which peer figure, and
 * the targets of issue 3 (a ratio browxai/peer that must not be exceeded).
 *
 * @module
 */
import type { RowSpec } from "./report.ts";

function row(
  label: string,
  page: string,
  unit: string,
  browxai: string,
  peer = browxai,
  max?: number,
): RowSpec {
  return { label, page, unit, browxai, peer, ...(max !== undefined ? { max } : {}) };
}

/** Pages whose snapshot tokens must be ≤ 0.40 of the peer's (elsewhere ≤ 1.0). */
const BIG_DOCS = new Set(["fs", "all"]);
/** Snapshot time targets: ≤ 0.3 on fs.html, under a third on all.html. */
const TIME_TARGET: Record<string, number> = { fs: 0.3, all: 1 / 3 };

/** Issue 13: every concurrent p50 and p95 ≤ 0.7 of the peer's. */
const CONCURRENT_TARGET = 0.7;
/** Issue 13: navigate with `snapshot: "none"` ≤ 0.8 of the peer's `--snapshot-mode none`. */
const NAVIGATE_NONE_TARGET = 0.8;
/** Issue 13: cold start ≤ 0.6 of the peer's. */
const COLD_START_TARGET = 0.6;
/** Issue 13: the server's RSS returns within 20 MB of where it started after the sessions close. */
const SESSIONS_MEMORY_MB = 20;

/** The table's rows for the pages and apps of a run. */
export function rowSpecs(pages: string[], apps: string[]): RowSpec[] {
  const rows: RowSpec[] = [];
  for (const p of pages) {
    rows.push(
      row("snapshot time", p, "ms", "snapshot.ms", "snapshot.ms", TIME_TARGET[p]),
      row(
        "snapshot tokens",
        p,
        "o200k",
        "snapshot.o200k",
        "snapshot.o200k",
        BIG_DOCS.has(p) ? 0.4 : 1,
      ),
      row("snapshot tokens (chars/4)", p, "tok", "snapshot.charsOver4"),
      {
        ...row("snapshot / innerText floor", p, "x", "snapshot.overFloor"),
        ...(BIG_DOCS.has(p) ? { maxA: 1.25 } : {}),
      },
      row("snapshot / textContent", p, "x", "snapshot.overTextContent"),
      row("coverage", p, "%", "snapshot.coverage"),
      row("navigate (A none, B default)", p, "ms", "navigate.ms"),
      row(
        "navigate (A none, B mode none)",
        p,
        "ms",
        "navigate.ms",
        "navigate_nosnap.ms",
        NAVIGATE_NONE_TARGET,
      ),
      // What neither server can beat: Chromium's own Page.navigate → load (bare CDP client).
      row(
        "navigate floor (A raw CDP load, B mode none)",
        p,
        "ms",
        "navigate_floor.ms",
        "navigate_nosnap.ms",
      ),
      row("navigate (A default, B default)", p, "ms", "navigate_default.ms", "navigate.ms"),
      row("navigate result (A none, B default)", p, "o200k", "navigate.o200k"),
      row(
        "navigate result (A default, B default)",
        p,
        "o200k",
        "navigate_default.o200k",
        "navigate.o200k",
      ),
    );
  }
  for (const a of apps) {
    // The result-token target (≤ 0.5, "the delta, not the page") is set against what the agent
    // must read to learn what the action changed: browxai's result carries the delta inline;
    // @playwright/mcp 0.0.83 writes the page snapshot of every action but an explicit
    // browser_snapshot to a file and returns a link, so its figure is the result plus that
    // file. The result alone is still shown, without a target.
    rows.push(
      row("fill+Enter latency", a, "ms", "fill.ms", "fill.ms", 0.5),
      row("fill result tokens", a, "o200k", "fill.o200k"),
      row("fill result + linked file", a, "o200k", "fill.o200k", "fill_linked.o200k", 0.5),
      row("click latency", a, "ms", "click.ms", "click.ms", 0.5),
      row("click result tokens", a, "o200k", "click.o200k"),
      row("click result + linked file", a, "o200k", "click.o200k", "click_linked.o200k", 0.5),
    );
  }
  rows.push(
    row("cold start (spawn → 1st navigate)", "-", "ms", "cold.ms", "cold.ms", COLD_START_TARGET),
    row("server RSS", "-", "MB", "mem.server_mb"),
    row("Chromium RSS (all processes)", "-", "MB", "mem.chromium_mb"),
    row("Chromium RSS +1 session (A incognito, B tab)", "-", "MB", "mem.extra_session_mb"),
    row("Chromium PSS +1 session (A incognito, B tab)", "-", "MB", "mem.extra_session_pss_mb"),
    row("Chromium RSS per isolated session (conc.)", "-", "MB", "conc.rss_per_session_mb"),
    row("Chromium PSS per isolated session (conc.)", "-", "MB", "conc.pss_per_session_mb"),
  );
  // `ready`: open → the first snapshot that shows the app (see ConcurrencyResult.ms).
  // `snapshot`: the first read of each new page (the peer's navigate has read it already);
  // `reread`: the full snapshot after the fill, a page both servers read before.
  const label: Record<string, string> = {
    ready: "open → app in a snapshot",
    snapshot: "snapshot (first read)",
    reread: "snapshot (page read before)",
  };
  for (const act of ["navigate", "snapshot", "reread", "fill", "click", "ready"]) {
    const name = label[act] ?? act;
    rows.push(
      row(`concurrent ${name} p50`, "-", "ms", `conc.${act}.p50`, undefined, CONCURRENT_TARGET),
      row(`concurrent ${name} p95`, "-", "ms", `conc.${act}.p95`, undefined, CONCURRENT_TARGET),
    );
  }
  rows.push({
    ...row("server RSS growth, N sessions opened+closed", "-", "MB", "conc.server_rss_growth_mb"),
    maxA: SESSIONS_MEMORY_MB,
  });
  rows.push(
    row("concurrent errors", "-", "n", "conc.errors"),
    row("concurrent wall time", "-", "ms", "conc.wall_ms"),
    row("concurrent CPU: server process", "-", "ms", "conc.cpu_server_ms"),
    row("concurrent CPU: Chromium (live processes)", "-", "ms", "conc.cpu_browser_ms"),
    row("tools/list default", "-", "o200k", "tools.default.o200k", "tools.default.o200k", 1),
    row("tools/list default (tools)", "-", "n", "tools.default.count"),
    row("tools/list default, whole JSON", "-", "o200k", "tools.default.wire_o200k"),
    row("tools/list full", "-", "o200k", "tools.all.o200k", "tools.all.o200k", 1),
    row("tools/list full (tools)", "-", "n", "tools.all.count"),
    row("tools/list full, whole JSON", "-", "o200k", "tools.all.wire_o200k"),
  );
  return rows;
}
