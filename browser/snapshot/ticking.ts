/**
 * Text that changes on its own (a clock, a counter, "3s ago"): seen changing between two reads
 * with no input between them ({@link selfChanges}), its change during an action is the page's,
 * not the action's, and the delta sums it up in one note instead of listing it
 * ({@link dropTicking}). A line ticks when only its numbers changed, in the same place (its
 * ancestors the same but for their numbers). A page seen reordering its lines on its own (a
 * table that re-sorts) has the moves of a delta counted in a note, not listed (`delta.ts`).
 * Pure functions over `delta_lines.ts`'s lines.
 *
 * @module
 */
import { type Line, parse } from "./delta_lines.ts";

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

/** Each line's place: its ancestors' and its own text, numbers made equal (hashed). */
function placeKeys(lines: Line[]): string[] {
  const keys: string[] = [];
  for (const l of lines) {
    const up = l.parent >= 0 ? keys[l.parent]! : "";
    keys.push(hash(`${up}\u0001${numberless(l.text)}`));
  }
  return keys;
}

/** Each line's own text in its place (ancestors numberless): equal when the line is unchanged. */
function exactKeys(lines: Line[], places: string[]): string[] {
  return lines.map((l) => `${l.parent >= 0 ? places[l.parent] : ""}\u0001${l.text.trim()}`);
}

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
 * (their ancestors the same but for numbers), and whether unchanged lines changed order.
 */
export function selfChanges(before: string, after: string): SelfChanges {
  const a = parse(before), b = parse(after);
  const pa = placeKeys(a), pb = placeKeys(b);
  const xa = exactKeys(a, pa), xb = exactKeys(b, pb);
  const ea = new Set(xa), eb = new Set(xb);
  // Places of `before` whose exact line `after` lacks.
  const gone = new Set(pa.filter((_, i) => !eb.has(xa[i]!)));
  const ticking = new Set<string>();
  xb.forEach((k, i) => {
    if (!ea.has(k) && gone.has(pb[i]!)) ticking.add(pb[i]!);
  });
  return { ticking, reorders: reordered(xa, xb) };
}

/** Whether the keys found once in each list stand in another order in `b` than in `a`. */
function reordered(a: string[], b: string[]): boolean {
  const once = (keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => seen.set(k, seen.has(k) ? -1 : i));
    return seen;
  };
  const ia = once(a), ib = once(b);
  let last = -1;
  for (const [k, j] of ib) {
    const i = ia.get(k);
    if (j < 0 || i === undefined || i < 0) continue;
    if (i < last) return true;
    last = i;
  }
  return false;
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
  const pa = placeKeys(a), pb = placeKeys(b);
  /** Removed lines of `a` by place, for pairing. */
  const removedAt = new Map<string, number[]>();
  for (const i of change.removedIdx) {
    if (ticking.has(pa[i]!)) removedAt.set(pa[i]!, [...removedAt.get(pa[i]!) ?? [], i]);
  }
  const dropA = new Set<number>(), dropB = new Set<number>();
  for (const j of change.addedIdx) {
    const key = pb[j]!;
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
  change.addedIdx.splice(0, Infinity, ...change.addedIdx.filter((j) => !dropB.has(j)));
  change.removedIdx.splice(0, Infinity, ...change.removedIdx.filter((i) => !dropA.has(i)));
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
