/**
 * Text that changes on its own (a clock, a counter, "3s ago"): seen changing between two reads
 * with no input between them ({@link selfChanges}), its change during an action is the page's,
 * not the action's, and the delta sums it up in one note instead of listing it
 * ({@link dropTicking}). A line ticks when only its numbers changed, in the same place (its
 * ancestors the same but for their numbers). A page seen reordering its lines on its own (a
 * table that re-sorts) has the moves of a delta counted in a note, not listed (`delta.ts`).
 * Pure functions over snapshot texts and `delta_lines.ts`'s lines.
 *
 * @module
 */
import type { Line } from "./delta_lines.ts";

/** A line's text with its numbers made equal. */
function numberless(text: string): string {
  return text.trim().replace(/\d+/g, "#");
}

/**
 * A 53-bit hash of a string, as base-36 text (cyrb53): a place's key stays short however deep
 * the line sits (a key made of all its ancestors' text would grow with the depth).
 */
function hash(s: string): string {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The place of line `i`: its ancestors' and its own text, numbers made equal, hashed; computed
 * for the lines asked only (memoised in `memo`), `parent(i)` giving a line's parent or -1.
 */
function placeOf(
  i: number,
  text: (i: number) => string,
  parent: (i: number) => number,
  memo: Map<number, string>,
): string {
  let key = memo.get(i);
  if (key !== undefined) return key;
  const p = parent(i);
  key = hash(`${p >= 0 ? placeOf(p, text, parent, memo) : ""}\u0001${numberless(text(i))}`);
  memo.set(i, key);
  return key;
}

/** The indent of a raw snapshot line. */
function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * Each raw line's parent: the nearest line before it indented less (as `parse` finds it), in
 * one pass (a walk back from each line would cost a long flat list's length per line).
 */
function rawParents(lines: string[]): number[] {
  const out: number[] = [];
  const open: number[] = [];
  const indents = lines.map(indentOf);
  lines.forEach((_, i) => {
    while (open.length && indents[open[open.length - 1]!]! >= indents[i]!) open.pop();
    out.push(open.length ? open[open.length - 1]! : -1);
    open.push(i);
  });
  return out;
}

/** Past this many changed lines between two reads, the page is not ticking but changing. */
const MAX_CHANGED = 200;

/** What changed on its own between two reads with no input between ({@link selfChanges}). */
export interface SelfChanges {
  /** Places of lines that changed only by their numbers (a clock, a counter). */
  ticking: ReadonlySet<string>;
  /** Lines that stayed the same stand in another order (a table that re-sorts itself). */
  reorders: boolean;
}

/**
 * What changed on its own between two reads of a tab (`before` and `after` snapshot texts)
 * when nothing was done between them: lines changed only by their numbers, in their place
 * (their ancestors the same but for numbers), and whether unchanged lines changed order. Only
 * changed lines are placed (a big page costs a split and a count of its lines); more than
 * {@link MAX_CHANGED} of them is a page changing, not ticking (none is said to tick).
 */
export function selfChanges(before: string, after: string): SelfChanges {
  const a = before.split("\n"), b = after.split("\n");
  const left = new Map<string, number>();
  for (const l of a) left.set(l, (left.get(l) ?? 0) + 1);
  const came: number[] = [];
  b.forEach((l, j) => {
    const c = left.get(l) ?? 0;
    if (c > 0) left.set(l, c - 1);
    else came.push(j);
  });
  const gone: number[] = [];
  a.forEach((l, i) => {
    const c = left.get(l) ?? 0;
    if (c > 0) {
      left.set(l, c - 1);
      gone.push(i);
    }
  });
  const ticking = new Set<string>();
  if (came.length && gone.length && came.length + gone.length <= MAX_CHANGED) {
    const ma = new Map<number, string>(), mb = new Map<number, string>();
    const pa = rawParents(a), pb = rawParents(b);
    const at = (lines: string[], parents: number[], memo: Map<number, string>, i: number) =>
      placeOf(i, (k) => lines[k]!, (k) => parents[k]!, memo);
    const places = new Set(gone.map((i) => at(a, pa, ma, i)));
    for (const j of came) {
      const key = at(b, pb, mb, j);
      if (places.has(key)) ticking.add(key);
    }
  }
  return { ticking, reorders: reordered(a, b) };
}

/** Whether the lines found once in each text stand in another order in `b` than in `a`. */
function reordered(a: string[], b: string[]): boolean {
  const once = (lines: string[]) => {
    const seen = new Map<string, number>();
    lines.forEach((l, i) => seen.set(l, seen.has(l) ? -1 : i));
    return seen;
  };
  const ia = once(a), ib = once(b);
  let last = -1;
  for (const [line, j] of ib) {
    const i = ia.get(line);
    if (j < 0 || i === undefined || i < 0) continue;
    if (i < last) return true;
    last = i;
  }
  return false;
}

/** Keeps in `list` (in place) the items `keep` accepts. */
function keepOnly(list: number[], keep: (x: number) => boolean): void {
  let n = 0;
  for (const x of list) if (keep(x)) list[n++] = x;
  list.length = n;
}

/** What {@link dropTicking} left out of a delta. */
export interface Ticked {
  /** How many lines ticked. */
  count: number;
  /** One of them as it reads now (trimmed). */
  example: string;
}

/**
 * Leaves out of a delta the lines in a place `ticking` holds that changed only by their
 * numbers: an added line of `b` paired with a removed line of `a` in the same place, or a ref's
 * line changed in place (in `changedRefs`). Edits `addedIdx`, `removedIdx` and `changedRefs`.
 *
 * @returns what was left out, or undefined when nothing was.
 */
export function dropTicking(
  a: Line[],
  b: Line[],
  change: { addedIdx: number[]; removedIdx: number[]; changedRefs: Set<string> },
  ticking: ReadonlySet<string>,
): Ticked | undefined {
  if (!ticking.size) return undefined;
  const ma = new Map<number, string>(), mb = new Map<number, string>();
  const place = (lines: Line[], memo: Map<number, string>, i: number) =>
    placeOf(i, (k) => lines[k]!.text, (k) => lines[k]!.parent, memo);
  /** Removed lines of `a` by place, for pairing. */
  const removedAt = new Map<string, number[]>();
  for (const i of change.removedIdx) {
    const key = place(a, ma, i);
    if (ticking.has(key)) removedAt.set(key, [...removedAt.get(key) ?? [], i]);
  }
  const dropA = new Set<number>(), dropB = new Set<number>();
  for (const j of change.addedIdx) {
    const key = place(b, mb, j);
    if (!ticking.has(key)) continue;
    const ref = b[j]!.ref;
    if (ref && change.changedRefs.has(ref)) {
      change.changedRefs.delete(ref);
      dropB.add(j);
      continue;
    }
    const i = removedAt.get(key)?.shift();
    if (i === undefined) continue;
    dropA.add(i);
    dropB.add(j);
  }
  if (!dropB.size) return undefined;
  const first = Math.min(...dropB);
  keepOnly(change.addedIdx, (j) => !dropB.has(j));
  keepOnly(change.removedIdx, (i) => !dropA.has(i));
  return { count: dropB.size, example: b[first]!.text.trim() };
}

/** Longest example a {@link tickingNote} quotes, characters. */
const MAX_EXAMPLE = 60;

/** The delta's note on what ticked: `~ ticking on its own (not this action): …`. */
export function tickingNote(t: Ticked): string {
  const ex = t.example.length > MAX_EXAMPLE ? `${t.example.slice(0, MAX_EXAMPLE - 1)}…` : t.example;
  return `~ ticking on its own (not this action's doing): ${t.count} line${
    t.count === 1 ? "" : "s"
  }, e.g. ${ex}`;
}

/** The delta's note on moves of a page that reorders itself: counted, not listed. */
export function reorderNote(moved: number): string {
  return `~ ${moved} line${
    moved === 1 ? "" : "s"
  } moved; this page also reorders itself (seen between reads): take a snapshot for the order`;
}
