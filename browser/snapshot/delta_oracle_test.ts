/**
 * The delta's row passes against their first, plain forms (kept here as the oracle): those read
 * each row's subtree anew and scanned every line for each parent, which cost seconds on deep
 * outlines; the fast forms must find the same on any outline. Seeded random pairs of outlines
 * (`_outlines.ts`): a failure names its seed.
 */
import { assertEquals, assertTrue } from "../../tests/_assert.ts";
import { randomOutlinePair } from "./_outlines.ts";
import {
  assignPaths,
  identify,
  keepEditedRows,
  type Line,
  parse,
  refsIn,
  repeatedLines,
} from "./delta_lines.ts";
import { reidentifyReusedRows, type ReusedRows } from "./reused_rows.ts";
import { alignRepeats } from "./repeat_align.ts";

const REF_ROW = "\u0001ref:";

function subtree(lines: Line[], i: number): number[] {
  const out = [i];
  for (let j = i + 1; j < lines.length && lines[j]!.indent > lines[i]!.indent; j++) out.push(j);
  return out;
}

function plainContent(lines: Line[], i: number): string {
  const texts: string[] = [], all: string[] = [];
  for (const j of subtree(lines, i).slice(1)) {
    const t = lines[j]!.text.trim();
    all.push(t.replace(/ ?\[ref=e\d+\]/g, "").replace(" [focused]", ""));
    if (!/\[ref=e\d+\]/.test(t)) texts.push(t);
  }
  return (texts.length ? texts : all).join("\n");
}

function plainLcs(x: string[], y: string[]): number {
  let prev = new Array<number>(y.length + 1).fill(0);
  for (const a of x) {
    const cur = [0];
    for (let j = 0; j < y.length; j++) {
      cur.push(a === y[j] ? prev[j]! + 1 : Math.max(prev[j + 1]!, cur[j]!));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

/** `reidentifyReusedRows` as first written (see its docstring for what it finds). */
function plainReusedRows(a: Line[], b: Line[]): ReusedRows {
  const found: ReusedRows = { stranded: [], gone: [], goneLines: new Set() };
  const chain = (lines: Line[], i: number) => {
    const parts: string[] = [];
    for (let p = i; p >= 0; p = lines[p]!.parent) parts.push(lines[p]!.id);
    return parts.join("\u0000");
  };
  const rows = (lines: Line[], parent: number) =>
    lines.flatMap((l, i) => l.parent === parent && l.id.includes(REF_ROW) ? [i] : []);
  const parentsB = new Map<string, number>();
  for (const p of new Set([-1, ...b.map((l) => l.parent)])) {
    parentsB.set(p < 0 ? "" : chain(b, p), p);
  }
  for (const pa of new Set([-1, ...a.map((l) => l.parent)])) {
    const pb = parentsB.get(pa < 0 ? "" : chain(a, pa));
    if (pb === undefined) continue;
    const ra = rows(a, pa), rb = rows(b, pb);
    if (ra.length < 2 && rb.length < 2) continue;
    const first = (lines: Line[], i: number) => lines[i]!.id.split(REF_ROW)[1] ?? "";
    const idsA = ra.map((i) => first(a, i)), idsB = rb.map((i) => first(b, i));
    const n = Math.min(idsA.length, idsB.length);
    if (idsA.slice(0, n).join() !== idsB.slice(0, n).join()) continue;
    const ca = ra.map((i) => plainContent(a, i)), cb = rb.map((i) => plainContent(b, i));
    let same = 0;
    for (let k = 0; k < n; k++) if (ca[k] === cb[k]) same++;
    if (n === same || plainLcs(ca, cb) <= same) continue;
    const relabel = (lines: Line[], rs: number[], cs: string[]) => {
      const seen = new Map<string, number>();
      rs.forEach((i, k) => {
        const nth = seen.get(cs[k]!) ?? 0;
        seen.set(cs[k]!, nth + 1);
        lines[i]!.id = `${lines[i]!.text.trimStart()}\u0003${cs[k]}\u0003${nth}`;
      });
    };
    relabel(a, ra, ca);
    relabel(b, rb, cb);
    const refsOf = (lines: Line[], i: number) =>
      subtree(lines, i).flatMap((j) => refsIn(lines[j]!));
    const rowA = new Map<string, string>(), rowB = new Map<string, string>();
    for (const i of ra) for (const r of refsOf(a, i)) rowA.set(r, a[i]!.id);
    for (const i of rb) for (const r of refsOf(b, i)) rowB.set(r, b[i]!.id);
    for (const [r, row] of rowB) {
      if (rowA.has(r) && rowA.get(r) !== row) found.stranded.push(r);
    }
    for (const j of ra.flatMap((i) => subtree(a, i))) {
      const r = a[j]!.ref;
      if (r && !rowB.has(r)) found.gone.push(r), found.goneLines.add(j);
    }
  }
  return found;
}

/** `keepEditedRows` as first written. */
function plainKeepEditedRows(a: Line[], b: Line[], intern: Map<string, number>): void {
  const pathsA = new Set(a.map((l) => l.path)), pathsB = new Set(b.map((l) => l.path));
  const isRow = (l: Line) => l.id.includes("\u0001");
  const refs = (lines: Line[], i: number) =>
    new Set(subtree(lines, i).flatMap((j) => refsIn(lines[j]!)));
  const goneByRef = new Map<string, number[]>();
  a.forEach((l, i) => {
    if (!isRow(l) || pathsB.has(l.path)) return;
    for (const r of refs(a, i)) goneByRef.set(r, [...(goneByRef.get(r) ?? []), i]);
  });
  if (!goneByRef.size) return;
  let changed = false;
  const taken = new Set<number>();
  b.forEach((l, i) => {
    if (!isRow(l) || pathsA.has(l.path)) return;
    const rows = new Set([...refs(b, i)].flatMap((r) => goneByRef.get(r) ?? []));
    if (rows.size !== 1) return;
    const [row] = rows;
    const old = a[row!]!;
    if (taken.has(row!) || old.text.trimStart() !== l.text.trimStart()) return;
    if (old.parent >= 0 !== l.parent >= 0) return;
    taken.add(row!);
    l.id = old.id;
    changed = true;
  });
  if (changed) assignPaths(b, intern);
}

/** Both texts parsed and identified as `diffSnapshots` does before the row passes. */
function prepared(before: string, after: string) {
  const intern = new Map<string, number>();
  const a = parse(before), b = parse(after);
  const repeated = repeatedLines([a, b]);
  identify(a, intern, repeated);
  identify(b, intern, repeated);
  alignRepeats(a, b, intern);
  return { a, b, intern };
}

const SEEDS = 600;

Deno.test("row passes: the fast forms find what the plain ones do on random outlines", () => {
  let reused = 0, kept = 0;
  for (let seed = 1; seed <= SEEDS; seed++) {
    const { before, after } = randomOutlinePair(seed, 2 + (seed % 4));
    const fast = prepared(before, after), plain = prepared(before, after);
    const found = reidentifyReusedRows(fast.a, fast.b);
    const want = plainReusedRows(plain.a, plain.b);
    const shown = (r: ReusedRows) => [r.stranded, r.gone, [...r.goneLines].sort((x, y) => x - y)];
    assertEquals([seed, ...shown(found)], [seed, ...shown(want)]);
    const ids = (x: { a: Line[]; b: Line[] }) => [x.a.map((l) => l.id), x.b.map((l) => l.id)];
    assertEquals([seed, ...ids(fast)], [seed, ...ids(plain)]);
    if (want.goneLines.size || want.stranded.length) reused++;
    for (const x of [fast, plain]) assignPaths(x.a, x.intern), assignPaths(x.b, x.intern);
    const idsBefore = JSON.stringify(ids(plain));
    keepEditedRows(fast.a, fast.b, fast.intern);
    plainKeepEditedRows(plain.a, plain.b, plain.intern);
    assertEquals([seed, ...ids(fast)], [seed, ...ids(plain)]);
    if (JSON.stringify(ids(plain)) !== idsBefore) kept++;
  }
  // The pairs reach both passes' work, not only their early ways out.
  assertTrue(reused > SEEDS / 40, `re-used lists in ${reused} pairs`);
  assertTrue(kept > SEEDS / 100, `edited rows kept in ${kept} pairs`);
});
