/**
 * Samples, medians, ratios and targets: the bench's table.
 *
 * @module
 */

/** One measured value. */
export interface Sample {
  /** 1-based round (0 for once-only figures such as tools/list). */
  round: number;
  /** `browxai` or `peer` (or a variant such as `peer --snapshot-mode none`, as a figure). */
  server: string;
  /** What was measured, e.g. `snapshot.ms`, `fill.o200k`. */
  figure: string;
  /** The page or app, or `-`. */
  page: string;
  value: number;
}

/** A row of the table: a browxai figure against a peer figure. */
export interface RowSpec {
  label: string;
  page: string;
  unit: string;
  browxai: string;
  peer: string;
  /** The target for browxai/peer, when it has one (pass: ratio ≤ max). */
  max?: number;
  /** A target on browxai's own value (pass: browxai ≤ maxA). */
  maxA?: number;
}

/** A computed row. */
export interface Row extends RowSpec {
  /** Median of the browxai samples (NaN when none). */
  a: number;
  /** Median of the peer samples (NaN when none). */
  b: number;
  /** a / b (NaN when either is missing or b is 0). */
  ratio: number;
  /** Whether the target holds; undefined without a target or without both values. */
  pass?: boolean;
}

/** The median of finite values (NaN for none). */
export function median(values: number[]): number {
  return percentile(values, 50);
}

/** The p-th percentile (0–100) of finite values, nearest-rank (NaN for none). */
export function percentile(values: number[], p: number): number {
  const v = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (!v.length) return NaN;
  if (p === 50 && v.length % 2 === 0) return (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  const rank = Math.max(1, Math.ceil(p / 100 * v.length));
  return v[Math.min(rank, v.length) - 1]!;
}

/** Values of samples matching server, figure and page. */
export function valuesOf(
  samples: Sample[],
  server: string,
  figure: string,
  page: string,
): number[] {
  return samples.filter((s) => s.server === server && s.figure === figure && s.page === page)
    .map((s) => s.value);
}

/** Computes the rows of `specs` from `samples`. */
export function computeRows(samples: Sample[], specs: RowSpec[]): Row[] {
  return specs.map((spec) => {
    const a = median(valuesOf(samples, "browxai", spec.browxai, spec.page));
    const b = median(valuesOf(samples, "peer", spec.peer, spec.page));
    const ratio = Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
    const row: Row = { ...spec, a, b, ratio };
    if (spec.max !== undefined && Number.isFinite(ratio)) row.pass = ratio <= spec.max;
    if (spec.maxA !== undefined && Number.isFinite(a)) row.pass = a <= spec.maxA;
    return row;
  });
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return "n/a";
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString("en-US");
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

function target(r: Row): string {
  const verdict = r.pass === undefined ? "?" : r.pass ? "pass" : "FAIL";
  if (r.max !== undefined) return `ratio ≤ ${+r.max.toFixed(2)} ${verdict}`;
  if (r.maxA !== undefined) return `browxai ≤ ${r.maxA} ${verdict}`;
  return "";
}

/** The rows as a Markdown table: figure, page, unit, browxai, peer, ratio, target. */
export function renderTable(rows: Row[]): string {
  const head = ["figure", "page", "unit", "browxai", "peer", "ratio", "target"];
  const body = rows.map((r) => [
    r.label,
    r.page,
    r.unit,
    fmt(r.a),
    fmt(r.b),
    Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : "n/a",
    target(r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...body.map(line)]
    .join("\n");
}
