/**
 * Rows a framework re-used by position (AngularJS `ng-repeat` without `track by`, an unkeyed
 * Vue or Svelte list): deleting the first of three rows leaves the first two row nodes in
 * place, rewrites their labels, and drops the last node. Matched by their refs, such a list
 * reads as every row's text changing and the last row going; this pass matches the rows by
 * what they hold instead, so the delta says the first row went, and names the refs that now
 * sit in another row (they did not move with their lines) and the ones that are gone.
 *
 * Pure text functions over the parsed lines of `delta.ts`.
 *
 * @module
 */

/** What this pass reads and rewrites of a parsed snapshot line (`delta.ts`'s Line). */
export interface RowLine {
  text: string;
  indent: number;
  parent: number;
  firstChild: number;
  /** Identity within the parent; rows told by their first ref carry `\u0001ref:`. */
  id: string;
  ref: string | undefined;
}

/** What the pass found: refs now in another row, and refs gone from re-used rows. */
export interface ReusedRows {
  /** Refs (after) that sit in a row with other content than when they were shown. */
  stranded: string[];
  /** Refs of re-used rows that are gone (the row nodes the framework dropped). */
  gone: string[];
  /** Indexes (before) of ref lines gone with a dropped node: named in the note, not listed. */
  goneLines: Set<number>;
}

const REF_ROW = "\u0001ref:";

/** The children of `parent` (-1: top) that are rows told by a ref, in order. */
function refRows(lines: RowLine[], parent: number): number[] {
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (l.parent === parent && l.id.includes(REF_ROW)) out.push(i);
  });
  return out;
}

/** The end (exclusive) of line `i`'s subtree. */
function subtreeEnd(lines: RowLine[], i: number): number {
  let j = i + 1;
  while (j < lines.length && lines[j]!.indent > lines[i]!.indent) j++;
  return j;
}

/**
 * What a row holds: its texts (lines without a ref), which say which row it is; a control
 * that shows on hover (the × of a todo) is not what the row is. A row with no text of its
 * own is told by its controls' lines, refs and focus aside.
 */
function content(lines: RowLine[], i: number): string {
  const texts: string[] = [], all: string[] = [];
  for (let j = i + 1; j < subtreeEnd(lines, i); j++) {
    const t = lines[j]!.text.trim();
    all.push(t.replace(/ ?\[ref=e\d+\]/g, "").replace(" [focused]", ""));
    if (!/\[ref=e\d+\]/.test(t)) texts.push(t);
  }
  return (texts.length ? texts : all).join("\n");
}

/** The refs shown in a row's subtree, in order. */
function rowRefs(lines: RowLine[], i: number): string[] {
  const out: string[] = [];
  for (let j = i; j < subtreeEnd(lines, i); j++) {
    for (const m of lines[j]!.text.matchAll(/\[ref=(e\d+)\]/g)) out.push(m[1]!);
  }
  return out;
}

/** Length of the longest common subsequence of two string lists. */
function lcs(x: string[], y: string[]): number {
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

/** The parent lines' keys (their text up the chain), to pair parents across the texts. */
function chainKey(lines: RowLine[], i: number): string {
  const parts: string[] = [];
  for (let p = i; p >= 0; p = lines[p]!.parent) parts.push(lines[p]!.id);
  return parts.join("\u0000");
}

/**
 * Finds lists whose row nodes were re-used by position and gives their rows (in both texts)
 * an identity by content instead of by ref; the caller interns paths anew. A list counts as
 * re-used when the rows' first refs stand in the same order in both texts (one a prefix of
 * the other: nodes kept by position), some row changed content in place, and matching by
 * content pairs more rows than matching by place does (one row edited in place does not).
 */
export function reidentifyReusedRows(a: RowLine[], b: RowLine[]): ReusedRows {
  const found: ReusedRows = { stranded: [], gone: [], goneLines: new Set() };
  const parentsB = new Map<string, number>();
  for (const p of new Set([-1, ...b.map((l) => l.parent)])) {
    parentsB.set(p < 0 ? "" : chainKey(b, p), p);
  }
  for (const pa of new Set([-1, ...a.map((l) => l.parent)])) {
    const pb = parentsB.get(pa < 0 ? "" : chainKey(a, pa));
    if (pb === undefined) continue;
    const ra = refRows(a, pa), rb = refRows(b, pb);
    if (ra.length < 2 && rb.length < 2) continue;
    const firstRef = (lines: RowLine[], i: number) => lines[i]!.id.split(REF_ROW)[1] ?? "";
    const idsA = ra.map((i) => firstRef(a, i)), idsB = rb.map((i) => firstRef(b, i));
    const n = Math.min(idsA.length, idsB.length);
    if (idsA.slice(0, n).join() !== idsB.slice(0, n).join()) continue;
    const ca = ra.map((i) => content(a, i)), cb = rb.map((i) => content(b, i));
    let samePlace = 0;
    for (let k = 0; k < n; k++) if (ca[k] === cb[k]) samePlace++;
    // Nothing changed in place: rows appended or dropped at the end read right by ref.
    if (n - samePlace === 0) continue;
    if (lcs(ca, cb) <= samePlace) continue;
    // Rows by content: the k-th row holding the same content is the same row.
    const relabel = (lines: RowLine[], rows: number[], cs: string[]) => {
      const seen = new Map<string, number>();
      rows.forEach((i, k) => {
        const c = cs[k]!;
        const nth = seen.get(c) ?? 0;
        seen.set(c, nth + 1);
        lines[i]!.id = `${lines[i]!.text.trimStart()}\u0003${c}\u0003${nth}`;
      });
    };
    relabel(a, ra, ca);
    relabel(b, rb, cb);
    const rowOfRefA = new Map<string, string>(), rowOfRefB = new Map<string, string>();
    ra.forEach((i) => rowRefs(a, i).forEach((r) => rowOfRefA.set(r, a[i]!.id)));
    rb.forEach((i) => rowRefs(b, i).forEach((r) => rowOfRefB.set(r, b[i]!.id)));
    for (const [r, row] of rowOfRefB) {
      const was = rowOfRefA.get(r);
      if (was !== undefined && was !== row) found.stranded.push(r);
    }
    for (const i of ra) {
      for (let j = i; j < subtreeEnd(a, i); j++) {
        const r = a[j]!.ref;
        if (r && !rowOfRefB.has(r)) {
          found.gone.push(r);
          found.goneLines.add(j);
        }
      }
    }
  }
  return found;
}
