/**
 * Where a change stands, for the delta's rendering (`delta_render.ts`): the line printed under
 * a changed line's context, a bare row's label (which row) or a landmark's nearest heading
 * above the change (which section: `- main` holds several, the first of them is not where
 * the change is). Pure functions over `delta_lines.ts`'s lines.
 *
 * @module
 */
import { type Line, rowLabel } from "./delta_lines.ts";

/** Bare lines that stand for one item: their content tells them apart. */
export const ROW_LINE = /^- (?:listitem|row|article|group|treeitem|option|cell|gridcell)\b/;

/** A heading line: markdown (`## Title`) or a node line (`- heading "Title"`). */
export const HEADING = /^(?:#+ |- heading\b)/;

/** Per parsed text: each line's nearest heading at or before it among its siblings (-2: not yet). */
const headingMemo = new WeakMap<Line[], Int32Array>();

/** The nearest heading line at or before line `i` among its siblings, or -1 (memoised: a walk each would cost the list's length). */
function headingAtOrBefore(lines: Line[], i: number): number {
  let memo = headingMemo.get(lines);
  if (!memo) headingMemo.set(lines, memo = new Int32Array(lines.length).fill(-2));
  const walked: number[] = [];
  let found = -1;
  for (let j = i; j >= 0; j = lines[j]!.prevSibling) {
    if (memo[j] !== -2) {
      found = memo[j]!;
      break;
    }
    walked.push(j);
    if (HEADING.test(lines[j]!.text.trimStart())) {
      found = j;
      break;
    }
  }
  for (const j of walked) memo[j] = found;
  return found;
}

/**
 * The line that says where under context line `p` the changed line `i` (a descendant) stands:
 * for a bare row (`- listitem`) its label ({@link rowLabel}: which row); for anything else (a
 * landmark, `- main`, holding several sections) the nearest heading above `i` among `p`'s
 * children, the section the snapshot shows it in (not `p`'s first heading); else the bare
 * line's label when that is no heading below `i`. -1 when none.
 */
export function contextLabel(lines: Line[], p: number, i: number): number {
  if (p < 0) return -1;
  if (ROW_LINE.test(lines[p]!.text.trimStart())) return rowLabel(lines, p);
  let k = i;
  while (k >= 0 && lines[k]!.parent !== p) k = lines[k]!.parent;
  if (k < 0) return -1;
  const h = headingAtOrBefore(lines, k === i ? lines[i]!.prevSibling : k);
  if (h >= 0) return h;
  const label = rowLabel(lines, p);
  return label >= 0 && HEADING.test(lines[label]!.text.trimStart()) ? -1 : label;
}
