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
  /** The end (exclusive) of its subtree. */
  end: number;
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

/**
 * The shape of one parsed text and what its subtrees hold, computed once per pass and on
 * demand: a nested outline has a list under every row, so walking each row's subtree anew
 * would cost the text's size times its depth.
 */
interface Tree {
  lines: RowLine[];
  /** The children of each line, at `parent + 1` (the top's at 0), in order. */
  kids: number[][];
  /**
   * Per line, an interned number for what its subtree holds below it (each child's trimmed
   * text and its own number, in order), shared by both texts: equal numbers hold the same
   * lines, so the same {@link content}. Made on first use.
   */
  below?: number[];
  /** Per line once asked, what its subtree below it holds (see {@link content}). */
  held: Array<Held | undefined>;
}

/** A subtree's lines below its root, joined by `\n`, and how many there are. */
interface Joined {
  text: string;
  count: number;
}

/** What {@link content} reads of a subtree: its texts (lines without a ref), and all its lines. */
interface Held {
  texts: Joined;
  all: Joined;
}

function treeOf(lines: RowLine[]): Tree {
  const kids: number[][] = Array.from({ length: lines.length + 1 }, () => []);
  lines.forEach((l, j) => kids[l.parent + 1]!.push(j));
  return { lines, kids, held: new Array(lines.length) };
}

/** {@link Tree.below}, made for the whole text on first use (children before parents). */
function below(t: Tree, intern: Map<string, number>): number[] {
  if (t.below) return t.below;
  const out = new Array<number>(t.lines.length);
  for (let i = t.lines.length - 1; i >= 0; i--) {
    const key = t.kids[i + 1]!.map((c) => `${t.lines[c]!.text.trim()}\u0000${out[c]}`)
      .join("\u0001");
    let id = intern.get(key);
    if (id === undefined) intern.set(key, id = intern.size);
    out[i] = id;
  }
  return t.below = out;
}

/** `x` and then `y`, joined as one list's lines. */
function join(x: Joined, y: Joined): Joined {
  if (!y.count) return x;
  return { text: x.count ? `${x.text}\n${y.text}` : y.text, count: x.count + y.count };
}

const NONE: Joined = { text: "", count: 0 };

/** {@link Held} of line `i`, from its children's (made first, each once). */
function heldBy(t: Tree, i: number): Held {
  const done = t.held[i];
  if (done) return done;
  // Children before parents, without recursion (a deep outline would overflow the stack).
  const todo = [i];
  while (todo.length) {
    const j = todo[todo.length - 1]!;
    const kids = t.kids[j + 1]!;
    const before = todo.length;
    for (const c of kids) if (!t.held[c]) todo.push(c);
    if (todo.length > before) continue;
    todo.pop();
    let texts = NONE, all = NONE;
    for (const c of kids) {
      const line = t.lines[c]!.text.trim();
      const own = t.held[c]!;
      if (!/\[ref=e\d+\]/.test(line)) texts = join(texts, { text: line, count: 1 });
      texts = join(texts, own.texts);
      const bare = line.replace(/ ?\[ref=e\d+\]/g, "").replace(" [focused]", "");
      all = join(join(all, { text: bare, count: 1 }), own.all);
    }
    t.held[j] = { texts, all };
  }
  return t.held[i]!;
}

/**
 * What a row holds: its texts (lines without a ref), which say which row it is; a control
 * that shows on hover (the × of a todo) is not what the row is. A row with no text of its
 * own is told by its controls' lines, refs and focus aside.
 */
function content(t: Tree, i: number): string {
  const { texts, all } = heldBy(t, i);
  return (texts.count ? texts : all).text;
}

/** The children of `parent` (-1: top) that are rows told by a ref, in order. */
function refRows(t: Tree, parent: number): number[] {
  return t.kids[parent + 1]!.filter((i) => t.lines[i]!.id.includes(REF_ROW));
}

/** The refs shown in a row's subtree, in order. */
function rowRefs(t: Tree, i: number): string[] {
  const out: string[] = [];
  for (let j = i; j < t.lines[i]!.end; j++) {
    for (const m of t.lines[j]!.text.matchAll(/\[ref=(e\d+)\]/g)) out.push(m[1]!);
  }
  return out;
}

/**
 * Length of the longest common subsequence of two lists of numbers. The common head and tail
 * are counted first (a row edited, dropped or added leaves little else), then the rest by
 * Hunt-Szymanski: for each item of `x`, its matches in `y` (last first) extend the longest
 * rising runs of matched places. Its cost grows with the matching pairs, not with the
 * product of the lengths (a list of 16,000 rows with one edited is not 256 million steps).
 */
function lcs(x: number[], y: number[]): number {
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let endX = x.length, endY = y.length;
  while (endX > head && endY > head && x[endX - 1] === y[endY - 1]) endX--, endY--;
  const places = new Map<number, number[]>();
  for (let j = head; j < endY; j++) {
    const at = places.get(y[j]!);
    if (at) at.push(j);
    else places.set(y[j]!, [j]);
  }
  // tails[k]: the least place in `y` that ends a common subsequence of length k + 1.
  const tails: number[] = [];
  for (let i = head; i < endX; i++) {
    const at = places.get(x[i]!);
    if (!at) continue;
    for (let m = at.length - 1; m >= 0; m--) {
      const j = at[m]!;
      let lo = 0, hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (tails[mid]! < j) lo = mid + 1;
        else hi = mid;
      }
      tails[lo] = j;
    }
  }
  return head + (x.length - endX) + tails.length;
}

/**
 * Interned keys of the parent lines' chains (their identities up to the top), to pair parents
 * across the texts; -1 (the top) is 0. `keys[p + 1]` must be set for the parent of each line
 * asked, and the line's identity be the one to key by.
 */
function chainKey(
  lines: RowLine[],
  i: number,
  keys: number[],
  intern: Map<string, number>,
): number {
  const k = `${keys[lines[i]!.parent + 1]}\u0000${lines[i]!.id}`;
  let id = intern.get(k);
  if (id === undefined) intern.set(k, id = intern.size + 1);
  return keys[i + 1] = id;
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
  const ta = treeOf(a), tb = treeOf(b);
  const chains = new Map<string, number>(), shapes = new Map<string, number>();
  // Parents are met in text order, each after its own parent: its chain's key is ready.
  const keysA = new Array<number>(a.length + 1).fill(0);
  const keysB = new Array<number>(b.length + 1).fill(0);
  const parentsB = new Map<number, number>();
  for (const p of new Set([-1, ...b.map((l) => l.parent)])) {
    parentsB.set(p < 0 ? 0 : chainKey(b, p, keysB, chains), p);
  }
  for (const pa of new Set([-1, ...a.map((l) => l.parent)])) {
    // Keyed now, not before the loop: a row relabelled below stands in its lists' chains so.
    const pb = parentsB.get(pa < 0 ? 0 : chainKey(a, pa, keysA, chains));
    if (pb === undefined) continue;
    const ra = refRows(ta, pa), rb = refRows(tb, pb);
    if (ra.length < 2 && rb.length < 2) continue;
    const firstRef = (lines: RowLine[], i: number) => lines[i]!.id.split(REF_ROW)[1] ?? "";
    const idsA = ra.map((i) => firstRef(a, i)), idsB = rb.map((i) => firstRef(b, i));
    const n = Math.min(idsA.length, idsB.length);
    if (idsA.slice(0, n).join() !== idsB.slice(0, n).join()) continue;
    // Rows holding the same lines hold the same content: read only the others' (a row's
    // content is its whole subtree, and a nested list's rows each hold the lists below).
    const belowA = below(ta, shapes), belowB = below(tb, shapes);
    let samePlace = 0;
    for (let k = 0; k < n; k++) {
      const i = ra[k]!, j = rb[k]!;
      if (belowA[i] === belowB[j] || content(ta, i) === content(tb, j)) samePlace++;
    }
    // Nothing changed in place: rows appended or dropped at the end read right by ref.
    if (n - samePlace === 0) continue;
    const ca = ra.map((i) => content(ta, i)), cb = rb.map((i) => content(tb, i));
    const texts = new Map<string, number>();
    const num = (c: string) => texts.get(c) ?? texts.set(c, texts.size).size - 1;
    if (lcs(ca.map(num), cb.map(num)) <= samePlace) continue;
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
    ra.forEach((i) => rowRefs(ta, i).forEach((r) => rowOfRefA.set(r, a[i]!.id)));
    rb.forEach((i) => rowRefs(tb, i).forEach((r) => rowOfRefB.set(r, b[i]!.id)));
    for (const [r, row] of rowOfRefB) {
      const was = rowOfRefA.get(r);
      if (was !== undefined && was !== row) found.stranded.push(r);
    }
    for (const i of ra) {
      for (let j = i; j < a[i]!.end; j++) {
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
