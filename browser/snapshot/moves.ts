/**
 * Order changes between two snapshot texts, for the delta (`delta.ts`): lines
 * that are in both texts but stand in another order (rows swapped, a list
 * sorted, two texts exchanged), and refs that stayed in place while the line
 * they sat under moved away (a framework that re-uses its DOM nodes and
 * rewrites only the labels). Pure functions over parsed lines.
 *
 * Only lines that can be told apart take part: a ref line (by its ref), or a
 * line whose text and ancestry occur exactly once in each text. Repeated
 * lines (`- listitem`, `Delete`) are never said to move: with duplicates any
 * order reads the same.
 *
 * @module
 */

/** What {@link findMoves} needs of a parsed line (see `delta.ts`). */
export interface OrderedLine {
  /** Index of the line it is indented under, -1 at the top. */
  parent: number;
  /** Interned ancestry + identity: equal paths are the same line in both texts. */
  path: number;
  /** Its ref, when it is a node line with one. */
  ref: string | undefined;
  /** The line as shown (indent included), when known: a parent's text tells a re-used node. */
  text?: string;
}

/** One line of the rendering of moves: an index into the after text and its mark. */
export interface MarkedLine {
  index: number;
  /** `moved`: shown with `~ `; `anchor`: the unmarked line a moved run now follows. */
  kind: "moved" | "anchor";
}

/** The result of {@link findMoves}. */
export interface Moves {
  /** Lines of the after text to show, in order: moved lines and the anchors they follow. */
  lines: MarkedLine[];
  /** How many lines moved. */
  movedCount: number;
  /** Refs whose line stayed while the line they sat under moved (the node was re-used), in order. */
  stranded: string[];
}

/** Longest increasing subsequence of `s` (distinct numbers): the positions kept. */
function lisPositions(s: number[]): Set<number> {
  const tails: number[] = [];
  const prev = new Array<number>(s.length).fill(-1);
  for (let i = 0; i < s.length; i++) {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[tails[mid]!]! < s[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = prev[i]!) keep.add(i);
  return keep;
}

/** Per line, the key of its identity when it can be told apart in both texts (see the module doc). */
function uids(lines: OrderedLine[], counts: Map<number, number>, other: Map<number, number>) {
  return lines.map((l) =>
    l.ref !== undefined
      ? `r${l.ref}`
      : counts.get(l.path) === 1 && other.get(l.path) === 1
      ? `p${l.path}`
      : undefined
  );
}

/** Per line, the uid of its nearest ancestor that has one (`""` for the top). */
function groups(lines: OrderedLine[], uid: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const l of lines) out.push(l.parent < 0 ? "" : uid[l.parent] ?? out[l.parent]!);
  return out;
}

function pathCounts(lines: OrderedLine[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const l of lines) if (l.ref === undefined) m.set(l.path, (m.get(l.path) ?? 0) + 1);
  return m;
}

/**
 * Finds the lines of `b` that stand in another order than in `a`, among
 * siblings (lines under the same identifiable parent). `sameA[i]` / `sameB[i]`
 * say which lines the delta already found unchanged (neither added, removed
 * nor changed); only those can move.
 *
 * Within one parent, a block of siblings whose set is the same but whose order
 * differs (a sort, a swap) is shown whole, in its new order; when few lines of
 * a long block moved (one row taken to the end), only those are shown, each
 * run after the unchanged line it now follows.
 */
export function findMoves(
  a: OrderedLine[],
  b: OrderedLine[],
  same: { a: boolean[]; b: boolean[] },
): Moves {
  const countA = pathCounts(a);
  const countB = pathCounts(b);
  const uidA = uids(a, countA, countB);
  const uidB = uids(b, countB, countA);
  const indexA = new Map<string, number>();
  uidA.forEach((u, i) => {
    if (u !== undefined && same.a[i]) indexA.set(u, i);
  });
  // Parents that exist in both texts (the top included).
  const inA = new Set(uidA);
  const liveUids = new Set<string>([""]);
  uidB.forEach((u) => u !== undefined && inA.has(u) && liveUids.add(u));
  const groupA = groups(a, uidA);
  const groupB = groups(b, uidB);
  const seqs = new Map<string, Array<{ bi: number; ai: number }>>();
  const stranded: string[] = [];
  for (let bi = 0; bi < b.length; bi++) {
    const u = uidB[bi];
    const ai = u === undefined || !same.b[bi] ? undefined : indexA.get(u);
    if (ai === undefined) continue;
    const g = groupB[bi]!;
    if (groupA[ai] !== g) {
      // A ref whose line stayed while its parent line moved, between two lines in both texts.
      // One still under a line that reads the same moved with it (a card dragged to another
      // column): not a re-used node.
      const pa = a[ai]!.parent, pb = b[bi]!.parent;
      const sameParent = pa >= 0 && pb >= 0 && a[pa]!.text !== undefined &&
        a[pa]!.text!.trimStart() === b[pb]!.text?.trimStart();
      if (
        b[bi]!.ref !== undefined && !sameParent && liveUids.has(g) && liveUids.has(groupA[ai]!)
      ) {
        stranded.push(b[bi]!.ref!);
      }
      continue;
    }
    let seq = seqs.get(g);
    if (!seq) seqs.set(g, seq = []);
    seq.push({ bi, ai });
  }
  const lines: MarkedLine[] = [];
  let movedCount = 0;
  for (const seq of seqs.values()) {
    const s = seq.map((x) => x.ai);
    const t = [...s].sort((x, y) => x - y);
    let start = 0;
    let max = -1;
    for (let i = 0; i < s.length; i++) {
      max = Math.max(max, s[i]!);
      if (max !== t[i]) continue;
      // s[start..i] holds the same lines as before, in another order when longer than one.
      if (i > start) movedCount += showBlock(seq, start, i, lines);
      start = i + 1;
    }
  }
  // An anchor may be the last moved line of the block before: shown once, as moved.
  const byIndex = new Map<number, MarkedLine>();
  for (const l of lines) if (byIndex.get(l.index)?.kind !== "moved") byIndex.set(l.index, l);
  return {
    lines: [...byIndex.values()].sort((x, y) => x.index - y.index),
    movedCount,
    stranded,
  };
}

/** Adds the rendering of one reordered block; returns how many of its lines moved. */
function showBlock(
  seq: Array<{ bi: number; ai: number }>,
  from: number,
  to: number,
  out: MarkedLine[],
): number {
  const block = seq.slice(from, to + 1);
  const kept = lisPositions(block.map((x) => x.ai));
  const moved = block.length - kept.size;
  if (block.length <= 2 * moved + 2 && (moved > 1 || block.length === 2)) {
    // A sort or a swap: the block in its new order reads best. (One line taken elsewhere in
    // a longer block is that line after the one it now follows.)
    for (const x of block) out.push({ index: x.bi, kind: "moved" });
    return block.length;
  }
  // A few lines taken elsewhere: each run of them after the line it now follows.
  for (let i = 0; i < block.length; i++) {
    if (kept.has(i)) continue;
    if (i === 0 || kept.has(i - 1)) {
      const before = from + i - 1;
      if (before >= 0) out.push({ index: seq[before]!.bi, kind: "anchor" });
    }
    out.push({ index: block[i]!.bi, kind: "moved" });
  }
  return moved;
}
