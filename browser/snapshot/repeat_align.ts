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

/** A line's content refs and focus aside: what a row the page rendered anew still shows. */
const steadyText = (l: Line) =>
  l.text.trimStart().replace(/ ?\[ref=e\d+\]/g, "").replace(" [focused]", "");

/** Per line, a number for its whole subtree's content, refs aside (children first; O(lines)). */
function contentIds(lines: Line[], intern: Map<string, number>): number[] {
  const out = new Array<number>(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const kids: number[] = [];
    for (let c = l.firstChild; c >= 0 && c < l.end; c = lines[c]!.end) kids.push(out[c]!);
    const key = `${steadyText(l)}\u0000${kids.join(",")}`;
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
 * for lines paired as the same line, then interns the paths anew. Paired: first by content (a
 * longest common run of the siblings' whole subtrees, refs aside: a list re-rendered keeps
 * its rows), then the rest in order between those pairs by identity (a row changed inside).
 * A repeated line left unpaired is one that went or came. Siblings are compared under parents
 * paired the same way, from the top down.
 */
export function alignRepeats(a: Line[], b: Line[], intern: Map<string, number>): void {
  const wa = withRepeats(a), wb = withRepeats(b);
  // No path stands twice in either text: no siblings share an identity.
  if (!wa.has(-1) && !wb.has(-1)) return;
  const content = new Map<string, number>();
  const ca = contentIds(a, content), cb = contentIds(b, content);
  let changed = false;
  const todo: Array<[number, number]> = [[-1, -1]];
  while (todo.length) {
    const [pa, pb] = todo.pop()!;
    const sa = childrenOf(a, pa), sb = childrenOf(b, pb);
    const dup = new Set<string>();
    repeatedIds(a, sa, dup);
    repeatedIds(b, sb, dup);
    if (dup.size) {
      const pairs = commonRun(sa.map((i) => ca[i]!), sb.map((j) => cb[j]!));
      // Between two content pairs, the repeated lines left are paired in order by identity.
      const all: Array<[number, number]> = [];
      let x = 0, y = 0;
      for (const [i, j] of [...pairs, [sa.length, sb.length] as [number, number]]) {
        const waiting = new Map<string, number[]>();
        for (let k = y; k < j; k++) {
          const id = b[sb[k]!]!.id;
          if (!dup.has(id)) continue;
          const w = waiting.get(id);
          if (w) w.push(k);
          else waiting.set(id, [k]);
        }
        for (let k = x; k < i; k++) {
          // Lists of a gap are short (a few rows changed inside): shift() is no cost here.
          const next = waiting.get(a[sa[k]!]!.id)?.shift();
          if (next !== undefined) all.push([k, next]);
        }
        if (i < sa.length) all.push([i, j]);
        x = i + 1, y = j + 1;
      }
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
}
