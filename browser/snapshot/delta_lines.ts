/**
 * The parsed lines of a snapshot text, for the delta (`delta.ts`): each
 * line's tree (parent, first child, previous sibling), its identity within
 * its parent (a ref, a bare row told by what it holds, a repeated text told
 * by the line before it, else its text) and its interned path. Pure
 * functions.
 *
 * @module
 */

import { firstRowRef } from "./row_line.ts";

/** One line of a snapshot text, with its place in the tree and its identity. */
export interface Line {
  text: string;
  indent: number;
  parent: number;
  /** The first line indented under this one, or -1. */
  firstChild: number;
  /** The line before it under the same parent, or -1. */
  prevSibling: number;
  /** The end (exclusive) of its subtree: the next line not indented under it. */
  end: number;
  /**
   * Identity within its parent: `ref:eN` for a node line with a ref (a table row's line: its
   * first ref); for a bare container
   * line (a role with no name, `- listitem`) its text and its first child's identity, so
   * two rows are told apart by what they hold; else the text.
   */
  id: string;
  /** Interned ancestry + identity. */
  path: number;
  ref: string | undefined;
}

/** A node line that names nothing: a role, maybe states (`- listitem`, `- row [selected]`). */
const BARE_LINE = /^- [\w-]+(?: \[[^\]]*\])*:?$/;

/** The lines of a snapshot text with their tree (identities and paths come after). */
export function parse(text: string): Line[] {
  const out: Line[] = [];
  const stack: number[] = [];
  /** parent index → its last child so far. */
  const lastChild = new Map<number, number>();
  for (const raw of text === "" ? [] : text.split("\n")) {
    const body = raw.trimStart();
    const indent = raw.length - body.length;
    while (stack.length && out[stack[stack.length - 1]!]!.indent >= indent) {
      out[stack.pop()!]!.end = out.length;
    }
    const parent = stack.length ? stack[stack.length - 1]! : -1;
    const m = body.startsWith("- ")
      ? /^- [\w-]+(?: "(?:[^"\\]|\\.)*")? \[ref=(e\d+)\]/.exec(body)
      : null;
    // A table row's line is told by its first ref (a cell that changed is a changed row).
    const ref = m?.[1] ?? firstRowRef(body);
    if (parent >= 0 && out[parent]!.firstChild < 0) out[parent]!.firstChild = out.length;
    const prevSibling = lastChild.get(parent) ?? -1;
    lastChild.set(parent, out.length);
    out.push({
      text: raw,
      indent,
      parent,
      firstChild: -1,
      prevSibling,
      end: -1,
      id: "",
      path: -1,
      ref,
    });
    stack.push(out.length - 1);
  }
  for (const i of stack) out[i]!.end = out.length;
  return out;
}

/** The key of a bare line among its siblings: its parent's text and its own. */
function siblingKey(lines: Line[], l: Line): string {
  return `${l.parent < 0 ? "" : lines[l.parent]!.text.trimStart()}\u0000${l.text.trimStart()}`;
}

/**
 * Lines (no ref) that stand several times under one parent in either text: bare rows of a
 * list or a table, told apart by what they hold; and leaf texts ("Out of stock" under each
 * product), told apart by the line before them. A line that stands alone (`- main`,
 * `- navigation`) keeps its own text as identity: its content changing is not it going.
 */
export function repeatedLines(texts: Line[][]): Set<string> {
  const out = new Set<string>();
  for (const lines of texts) {
    const seen = new Map<string, number>();
    lines.forEach((l, i) => {
      if (l.ref) return;
      const k = `${l.parent}\u0000${l.text.trimStart()}`;
      if (seen.has(k)) out.add(siblingKey(lines, l));
      else seen.set(k, i);
    });
  }
  return out;
}

/** What a line before a repeated text stands for: its ref (a field whose value changes), else its text. */
function anchorOf(l: Line): string {
  return l.ref ? `ref:${l.ref}` : l.text.trimStart();
}

/**
 * Gives each line its identity (children first: a row's identity takes its first child's,
 * which may itself be a bare cell told by what it holds) and its interned path (parents
 * first).
 */
export function identify(lines: Line[], intern: Map<string, number>, repeated: Set<string>): void {
  // What first names something in each line's subtree: its ref, or its text when it is not
  // bare, else its first child's.
  const sig: string[] = new Array(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    const body = l.text.trimStart();
    const bare = BARE_LINE.test(body);
    sig[i] = l.ref ? `ref:${l.ref}` : !bare ? body : l.firstChild >= 0 ? sig[l.firstChild]! : "";
    const again = !l.ref && repeated.has(siblingKey(lines, l));
    l.id = l.ref
      ? `ref:${l.ref}`
      : again && bare && l.firstChild >= 0
      ? `${body}\u0001${sig[l.firstChild]}`
      : again && !bare && l.firstChild < 0
      // A text that stands several times among its siblings ("Out of stock" under each
      // product, "Required" beside each field) is told by the line before it.
      ? `${body}\u0002${l.prevSibling < 0 ? "" : anchorOf(lines[l.prevSibling]!)}`
      : body;
  }
  assignPaths(lines, intern);
}

/** Interns each line's ancestry + identity (parents first). */
export function assignPaths(lines: Line[], intern: Map<string, number>): void {
  for (const l of lines) {
    const key = `${l.parent < 0 ? -1 : lines[l.parent]!.path}\u0000${l.id}`;
    let path = intern.get(key);
    if (path === undefined) intern.set(key, path = intern.size);
    l.path = path;
  }
}

/** {@link keepEditedRows}'s mark for refs or subtrees in no gone row, and in several. */
const NO_ROW = -1, ROWS = -2;

/** The one gone row of two marks (a row's index, {@link NO_ROW} or {@link ROWS}). */
function oneRow(x: number, y: number): number {
  return x === NO_ROW ? y : y === NO_ROW || x === y ? x : ROWS;
}

/**
 * A row told by what it holds whose naming line changed (a name edited in place) is still the
 * row when it keeps a ref of one gone row, and of one only: `after`'s row takes that row's
 * identity again (then paths are interned anew), so only the edited line shows.
 *
 * Rows nest (a tree, a thread): each ref's gone rows are the gone rows above it, and each new
 * row's are its subtree's refs', summed up children first, so no subtree is read twice.
 */
export function keepEditedRows(a: Line[], b: Line[], intern: Map<string, number>): void {
  const pathsA = new Set(a.map((l) => l.path)), pathsB = new Set(b.map((l) => l.path));
  const isRow = (l: Line) => l.id.includes("\u0001");
  // Per ref of `a`: the gone row (a row not in `b`) that holds it, or ROWS when several do.
  const goneRow = new Map<string, number>();
  /** Per line of `a`: the nearest gone row at or above it, and how many there are (to 2). */
  const near = new Array<number>(a.length), above = new Array<number>(a.length);
  a.forEach((l, i) => {
    const gone = isRow(l) && !pathsB.has(l.path);
    near[i] = gone ? i : l.parent < 0 ? NO_ROW : near[l.parent]!;
    above[i] = Math.min(2, (l.parent < 0 ? 0 : above[l.parent]!) + (gone ? 1 : 0));
    if (!above[i]) return;
    const row = above[i] === 1 ? near[i]! : ROWS;
    for (const r of refsIn(l)) goneRow.set(r, oneRow(goneRow.get(r) ?? NO_ROW, row));
  });
  if (!goneRow.size) return;
  // Per line of `b`: the one gone row its subtree's refs were in, NO_ROW or ROWS.
  const held = new Array<number>(b.length).fill(NO_ROW);
  for (let i = b.length - 1; i >= 0; i--) {
    for (const r of refsIn(b[i]!)) held[i] = oneRow(held[i]!, goneRow.get(r) ?? NO_ROW);
    const p = b[i]!.parent;
    if (p >= 0) held[p] = oneRow(held[p]!, held[i]!);
  }
  let changed = false;
  const taken = new Set<number>();
  b.forEach((l, i) => {
    if (!isRow(l) || pathsA.has(l.path)) return;
    const row = held[i]!;
    if (row < 0) return;
    const old = a[row]!;
    if (taken.has(row) || old.text.trimStart() !== l.text.trimStart()) return;
    if (old.parent >= 0 !== l.parent >= 0) return;
    taken.add(row);
    l.id = old.id;
    changed = true;
  });
  if (changed) assignPaths(b, intern);
}

/**
 * A control line that names nothing: a role, states, maybe the `(.class)` / `(#id)` hint of
 * an unnamed control (`- checkbox [ref=e16] [checked] (.toggle)`: TodoMVC's toggle says no
 * todo).
 */
const UNNAMED_CONTROL = /^- [\w-]+(?: \[[^\]]*\])*(?: \([.#][\w-]+\))?$/;

/**
 * The line that says which row a bare line is: its first child that names something (text,
 * or a control with a name), else its first child; -1 for a named line or one with no child.
 */
export function rowLabel(lines: Line[], i: number): number {
  const l = lines[i]!;
  if (l.firstChild < 0 || !BARE_LINE.test(l.text.trimStart())) return -1;
  for (let c = l.firstChild; c < l.end; c = lines[c]!.end) {
    const body = lines[c]!.text.trimStart();
    if (!BARE_LINE.test(body) && !UNNAMED_CONTROL.test(body)) return c;
  }
  return l.firstChild;
}

/** The refs a line shows: a node line's, or its inline links'. */
export function refsIn(l: Line): string[] {
  return [...l.text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]!);
}
