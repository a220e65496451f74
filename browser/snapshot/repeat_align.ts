/**
 * Repeated siblings told apart for the delta (`delta.ts`): lines that stand several times under
 * one parent with the same identity (`* Banana` twice in a list, each with its own button) are
 * paired between the two texts as a diff pairs lines, in order and by what they hold, and each
 * pair gets an identity of its own. Without it both Bananas share one path, so a change under
 * the second is shown under the first and the lines between them (`* Cherry`) go unseen.
 * Pure functions over `delta_lines.ts`'s lines.
 *
 * @module
 */
import { assignPaths, type Line } from "./delta_lines.ts";

/** Above this many cells (siblings × siblings) the pairing is in order, not a full LCS. */
const MAX_LCS_CELLS = 250_000;

/** A line's text, refs and focus aside. */
const steadyText = (l: Line) =>
  l.text.trimStart().replace(/ ?\[ref=e\d+\]/g, "").replace(" [focused]", "");

/**
 * Per line, a number for its whole subtree's content (children first; O(lines)): as shown, or
 * `steady`, refs and focus aside (what a row the page rendered anew still shows).
 */
function contentIds(lines: Line[], intern: Map<string, number>, steady: boolean): number[] {
  const out = new Array<number>(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const kids: number[] = [];
    for (let c = l.firstChild; c >= 0 && c < l.end; c = lines[c]!.end) kids.push(out[c]!);
    const key = `${steady ? steadyText(l) : l.text.trimStart()}\u0000${kids.join(",")}`;
    let id = intern.get(key);
    if (id === undefined) intern.set(key, id = intern.size);
    out[i] = id;
  }
  return out;
}

/** The children of line `p` (-1: the top lines), in order. */
function childrenOf(lines: Line[], p: number): number[] {
  const out: number[] = [];
  const end = p < 0 ? lines.length : lines[p]!.end;
  for (let c = p < 0 ? (lines.length ? 0 : -1) : lines[p]!.firstChild; c >= 0 && c < end;) {
    out.push(c);
    c = lines[c]!.end;
  }
  return out;
}

/**
 * Pairs of positions `[i, j]` with `x[i] === y[j]`, a longest common subsequence (rising in
 * both). Common ends are taken first; a middle of more than {@link MAX_LCS_CELLS} cells is
 * paired greedily in order instead (a long list re-rendered whole: bounded work).
 */
function commonRun(x: number[], y: number[]): Array<[number, number]> {
  let lo = 0;
  while (lo < x.length && lo < y.length && x[lo] === y[lo]) lo++;
  let hx = x.length, hy = y.length;
  while (hx > lo && hy > lo && x[hx - 1] === y[hy - 1]) hx--, hy--;
  const out: Array<[number, number]> = [];
  for (let k = 0; k < lo; k++) out.push([k, k]);
  const n = hx - lo, m = hy - lo;
  if (n && m && n * m <= MAX_LCS_CELLS) {
    // len[i][j]: LCS of x[lo+i..hx) and y[lo+j..hy), read forward to pick the pairs.
    const len = new Int32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        len[i * (m + 1) + j] = x[lo + i] === y[lo + j]
          ? len[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(len[(i + 1) * (m + 1) + j]!, len[i * (m + 1) + j + 1]!);
      }
    }
    for (let i = 0, j = 0; i < n && j < m;) {
      if (x[lo + i] === y[lo + j]) out.push([lo + i++, lo + j++]);
      else if (len[(i + 1) * (m + 1) + j]! >= len[i * (m + 1) + j + 1]!) i++;
      else j++;
    }
  } else if (n && m) {
    let j = 0;
    for (let i = 0; i < n && j < m; i++) {
      let k = j;
      while (k < m && x[lo + i] !== y[lo + k]) k++;
      if (k < m) out.push([lo + i, lo + k]), j = k + 1;
    }
  }
  for (let k = 0; k < x.length - hx; k++) out.push([hx + k, hy + k]);
  return out;
}

/**
 * The lines under which (at any depth) siblings share an identity: the ancestors of each line
 * whose path the sibling before it already had, and -1 (the top) when there is any. Only there
 * the pairing goes down (a long page with one repeated pair costs its depth, not a walk of
 * every subtree). Between two siblings with one path stand only the first one's descendants,
 * whose paths are longer: the last line seen with a path tells whether it was a sibling.
 */
function withRepeats(lines: Line[]): Set<number> {
  const lastParent = new Map<number, number>(), out = new Set<number>();
  for (const l of lines) {
    const before = lastParent.get(l.path);
    lastParent.set(l.path, l.parent);
    if (before !== l.parent) continue;
    out.add(-1);
    for (let p = l.parent; p >= 0 && !out.has(p); p = lines[p]!.parent) out.add(p);
  }
  return out;
}

/** Lines of `a` and of `b` paired by guess (see {@link alignRepeats}), by index. */
export interface Guessed {
  a: Set<number>;
  b: Set<number>;
}

/**
 * Pairs positions `[x0, x1)` with `[y0, y1)`: a longest common run by `keys[level]`, then each
 * gap between two pairs by the next level's keys. A pair in a run of one key that holds a line
 * left unpaired goes to `unsure` too: one of several alike side by side went or came, and
 * which is a guess.
 */
function pairByLevels(
  keys: Array<[number[], number[]]>,
  level: number,
  [x0, x1, y0, y1]: [number, number, number, number],
  out: Array<[number, number]>,
  unsure: Array<[number, number]>,
): void {
  if (level >= keys.length || x0 >= x1 || y0 >= y1) return;
  const [kx, ky] = keys[level]!;
  const x = kx.slice(x0, x1), y = ky.slice(y0, y1);
  const run = commonRun(x, y);
  // A pair is a guess where a line alike went or came beside it: in a run of one key (no other
  // line between) holding an unpaired one. Elsewhere its neighbours tell which one it is.
  const guess = (keys: number[], paired: Set<number>) => {
    const out = new Set<number>();
    for (let u = 0; u < keys.length; u++) {
      if (paired.has(u)) continue;
      for (let v = u - 1; v >= 0 && keys[v] === keys[u] && !out.has(v); v--) out.add(v);
      // Marked further right already: by an earlier walk right, to the run's end (no cost twice).
      for (let v = u + 1; v < keys.length && keys[v] === keys[u] && !out.has(v); v++) out.add(v);
    }
    return out;
  };
  const gx = guess(x, new Set(run.map(([i]) => i))), gy = guess(y, new Set(run.map(([, j]) => j)));
  let px = x0, py = y0;
  for (const [i, j] of [...run, [x1 - x0, y1 - y0] as [number, number]]) {
    pairByLevels(keys, level + 1, [px, x0 + i, py, y0 + j], out, unsure);
    if (i < x1 - x0) {
      out.push([x0 + i, y0 + j]);
      if (gx.has(i) || gy.has(j)) unsure.push([x0 + i, y0 + j]);
    }
    px = x0 + i + 1, py = y0 + j + 1;
  }
}

/** Identities that stand more than once among `sibs`. */
function repeatedIds(lines: Line[], sibs: number[], into: Set<string>): void {
  const seen = new Set<string>();
  for (const i of sibs) {
    const id = lines[i]!.id;
    if (seen.has(id)) into.add(id);
    else seen.add(id);
  }
}

/**
 * Gives siblings that share an identity (in `a` or `b`) one of their own, the same in both texts
 * for lines paired as the same line, then interns the paths anew. Paired level by level
 * ({@link pairByLevels}): by their whole subtree as shown (a row kept, its refs too), then
 * refs aside (a list re-rendered keeps its rows), then by identity in order (a row changed
 * inside). A repeated line left unpaired is one that went or came. Siblings are compared under
 * parents paired the same way, from the top down. Returns the lines paired by guess (one of
 * several alike went or came: which is not known), so no ref is said re-created under them.
 */
export function alignRepeats(a: Line[], b: Line[], intern: Map<string, number>): Guessed {
  const wa = withRepeats(a), wb = withRepeats(b);
  // No path stands twice in either text: no siblings share an identity.
  if (!wa.has(-1) && !wb.has(-1)) return { a: new Set(), b: new Set() };
  const content = new Map<string, number>();
  // Keys by level: the subtree as shown (a row kept), refs aside (a row re-rendered), identity.
  const levels = [true, false].map((exact) => [
    contentIds(a, content, !exact),
    contentIds(b, content, !exact),
  ]);
  const guessed = { a: new Set<number>(), b: new Set<number>() };
  const ids = new Map<string, number>();
  const idKey = (id: string) => {
    let k = ids.get(id);
    if (k === undefined) ids.set(id, k = ids.size);
    return k;
  };
  let changed = false;
  const todo: Array<[number, number]> = [[-1, -1]];
  while (todo.length) {
    const [pa, pb] = todo.pop()!;
    const sa = childrenOf(a, pa), sb = childrenOf(b, pb);
    const dup = new Set<string>();
    repeatedIds(a, sa, dup);
    repeatedIds(b, sb, dup);
    if (dup.size) {
      const keys: Array<[number[], number[]]> = [
        ...levels.map(([ka, kb]) => [sa.map((i) => ka![i]!), sb.map((j) => kb![j]!)]),
        [sa.map((i) => idKey(a[i]!.id)), sb.map((j) => idKey(b[j]!.id))],
      ] as Array<[number[], number[]]>;
      const all: Array<[number, number]> = [], unsure: Array<[number, number]> = [];
      pairByLevels(keys, 0, [0, sa.length, 0, sb.length], all, unsure);
      for (const [i, j] of unsure) guessed.a.add(sa[i]!), guessed.b.add(sb[j]!);
      const pairedA = new Set<number>(), pairedB = new Set<number>();
      let n = 0;
      for (const [i, j] of all) {
        const la = a[sa[i]!]!, lb = b[sb[j]!]!;
        if (la.id !== lb.id) continue;
        pairedA.add(i), pairedB.add(j);
        if (!dup.has(la.id)) continue;
        la.id = lb.id = `${la.id}\u0003${n++}`;
        changed = true;
      }
      // Unpaired repeats: each its own line, in neither text's other.
      sa.forEach((i, k) => {
        if (!pairedA.has(k) && dup.has(a[i]!.id)) a[i]!.id += `\u0003a${k}`, changed = true;
      });
      sb.forEach((j, k) => {
        if (!pairedB.has(k) && dup.has(b[j]!.id)) b[j]!.id += `\u0003b${k}`, changed = true;
      });
    }
    // Recurse into the pairs with the same identity (now one each among their siblings).
    const byId = new Map<string, number>();
    for (const j of sb) byId.set(b[j]!.id, j);
    for (const i of sa) {
      const j = byId.get(a[i]!.id);
      if (j !== undefined && (wa.has(i) || wb.has(j))) todo.push([i, j]);
    }
  }
  if (changed) assignPaths(a, intern), assignPaths(b, intern);
  return guessed;
}
