/**
 * What changed between two snapshots of a tab: the lines that appeared,
 * changed or went away, and the significant nodes (dialogs, alerts,
 * headings, controls with refs) among them. Pure text functions.
 *
 * Lines are matched by their content and their ancestry (the chain of lines
 * they are indented under). A line with a ref (`- button "Save" [ref=e4]`) is
 * matched by its ref: same ref with other content (a state or value changed)
 * is a changed line, shown in its new form.
 *
 * Order counts too (`moves.ts`): lines in both texts that stand in another
 * order are shown with `~ ` in their new order, and refs that stayed in place
 * while the line they sat under moved (a re-used node) are named in a closing
 * `~ ` note.
 *
 * @module
 */
import { findMoves } from "./moves.ts";
import { reidentifyReusedRows } from "./reused_rows.ts";

/** A significant node that appeared or went away. */
export interface NodeChange {
  role: string;
  name: string;
  ref?: string;
  /** The text folded into the node's line (`- alert: Saved` → `Saved`), when there is some. */
  text?: string;
}

/** Options of {@link diffSnapshots}. */
export interface DiffOptions {
  /** Cap on `added` + `removed` lines. Default 80. */
  maxLines?: number;
  /** Cap on `appeared` and on `removedNodes`. Default 20. */
  maxNodes?: number;
}

/** The result of {@link diffSnapshots}. */
export interface SnapshotDiff {
  /** Lines (indented as in `after`) that are new, or changed (in their new form), in order. */
  added: string[];
  /** Lines of `before` that are gone (not the old form of changed lines), in order. */
  removed: string[];
  /** Ref lines whose content changed. */
  changedCount: number;
  /** Lines (as in `after`) shown as moved, in order (see `moves.ts`). */
  moved: string[];
  /** How many lines moved (the shown ones may be fewer when capped). */
  movedCount: number;
  /** Refs whose line stayed while the line they sat under moved: the page re-used their nodes. */
  strandedRefs: string[];
  /** Nothing changed, order included. */
  unchanged: boolean;
  /** `added`/`removed` (or the node lists) were capped; `text` says how many were left out. */
  truncated: boolean;
  /**
   * A readable rendering: `- ` removed, `+ ` added or changed, `~ ` moved
   * (in the new order), two spaces for an unchanged line kept for context (an
   * ancestor, or the line a moved run now follows); then a `~ ` note naming
   * stranded refs, and a note when capped.
   */
  text: string;
  /** Significant nodes that appeared (see {@link appearedNodes}). */
  appeared: NodeChange[];
  /** Significant nodes that went away (see {@link removedNodes}). */
  removedNodes: NodeChange[];
}

interface Line {
  text: string;
  indent: number;
  parent: number;
  /** The first line indented under this one, or -1. */
  firstChild: number;
  /** The line before it under the same parent, or -1. */
  prevSibling: number;
  /**
   * Identity within its parent: `ref:eN` for a node line with a ref; for a bare container
   * line (a role with no name, `- listitem`) its text and its first child's identity, so
   * two rows are told apart by what they hold; else the text.
   */
  id: string;
  /** Interned ancestry + identity. */
  path: number;
  ref: string | undefined;
}

const NODE_LINE = /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
/** A markdown heading line, `## Title`; a heading that is one link is found as that link. */
const HEADING_LINE = /^#+ (?!\[)(.+)$/;
const INLINE_LINK = /\[((?:[^[\]]|\[[^\]]*\])*)\](?:\((?:[^()\s]|\([^()\s]*\))*\))?\[ref=(e\d+)\]/g;
const SIGNIFICANT = new Set(["dialog", "alertdialog", "alert", "heading", "iframe"]);
/** A node line that names nothing: a role, maybe states (`- listitem`, `- row [selected]`). */
const BARE_LINE = /^- [\w-]+(?: \[[^\]]*\])*:?$/;

/** The lines of a snapshot text with their tree (identities and paths come after). */
function parse(text: string): Line[] {
  const out: Line[] = [];
  const stack: number[] = [];
  /** parent index → its last child so far. */
  const lastChild = new Map<number, number>();
  for (const raw of text === "" ? [] : text.split("\n")) {
    const body = raw.trimStart();
    const indent = raw.length - body.length;
    while (stack.length && out[stack[stack.length - 1]!]!.indent >= indent) stack.pop();
    const parent = stack.length ? stack[stack.length - 1]! : -1;
    const m = body.startsWith("- ")
      ? /^- [\w-]+(?: "(?:[^"\\]|\\.)*")? \[ref=(e\d+)\]/.exec(body)
      : null;
    const ref = m?.[1];
    if (parent >= 0 && out[parent]!.firstChild < 0) out[parent]!.firstChild = out.length;
    const prevSibling = lastChild.get(parent) ?? -1;
    lastChild.set(parent, out.length);
    out.push({ text: raw, indent, parent, firstChild: -1, prevSibling, id: "", path: -1, ref });
    stack.push(out.length - 1);
  }
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
function repeatedLines(texts: Line[][]): Set<string> {
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
function identify(lines: Line[], intern: Map<string, number>, repeated: Set<string>): void {
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
function assignPaths(lines: Line[], intern: Map<string, number>): void {
  for (const l of lines) {
    const key = `${l.parent < 0 ? -1 : lines[l.parent]!.path}\u0000${l.id}`;
    let path = intern.get(key);
    if (path === undefined) intern.set(key, path = intern.size);
    l.path = path;
  }
}

/** The refs shown in a line's subtree (the line itself included). */
function subtreeRefs(lines: Line[], i: number): Set<string> {
  const out = new Set<string>();
  const indent = lines[i]!.indent;
  for (let j = i; j < lines.length && (j === i || lines[j]!.indent > indent); j++) {
    for (const r of refsIn(lines[j]!)) out.add(r);
  }
  return out;
}

/**
 * A row told by what it holds whose naming line changed (a name edited in place) is still the
 * row when it keeps a ref of one gone row, and of one only: `after`'s row takes that row's
 * identity again (then paths are interned anew), so only the edited line shows.
 */
function keepEditedRows(a: Line[], b: Line[], intern: Map<string, number>): void {
  const pathsA = new Set(a.map((l) => l.path)), pathsB = new Set(b.map((l) => l.path));
  const isRow = (l: Line) => l.id.includes("\u0001");
  const goneByRef = new Map<string, number[]>();
  a.forEach((l, i) => {
    if (!isRow(l) || pathsB.has(l.path)) return;
    for (const r of subtreeRefs(a, i)) goneByRef.set(r, [...(goneByRef.get(r) ?? []), i]);
  });
  if (!goneByRef.size) return;
  let changed = false;
  const taken = new Set<number>();
  b.forEach((l, i) => {
    if (!isRow(l) || pathsA.has(l.path)) return;
    const rows = new Set([...subtreeRefs(b, i)].flatMap((r) => goneByRef.get(r) ?? []));
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

/**
 * The line that says which row a bare line is: its first child that names something (text,
 * or a control with a name), else its first child; -1 for a named line or one with no child.
 */
function rowLabel(lines: Line[], i: number): number {
  const l = lines[i]!;
  if (l.firstChild < 0 || !BARE_LINE.test(l.text.trimStart())) return -1;
  for (let c = l.firstChild; c < lines.length && lines[c]!.indent > l.indent; c++) {
    if (lines[c]!.parent !== i) continue;
    const body = lines[c]!.text.trimStart();
    if (!BARE_LINE.test(body) && !/^- [\w-]+(?: \[[^\]]*\])*$/.test(body)) return c;
  }
  return l.firstChild;
}

function unquote(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}

/** The significant nodes of one line: a node line's role and name, inline links with refs. */
function nodesOf(line: string): NodeChange[] {
  const body = line.trimStart();
  const out: NodeChange[] = [];
  const h = body[0] === "#" ? HEADING_LINE.exec(body) : null;
  if (h) out.push({ role: "heading", name: h[1]!.replace(/ \[[a-z=]+\]$/, "") });
  const m = body.startsWith("- ") ? NODE_LINE.exec(body) : null;
  if (m) {
    const ref = /^(?: \[[^\]]*\])*? \[ref=(e\d+)\]/.exec(m[3]!)?.[1];
    if (ref || SIGNIFICANT.has(m[1]!)) {
      const text = /^(?: \[[^\]]*\])*: (.+)$/.exec(m[3]!)?.[1];
      out.push({
        role: m[1]!,
        name: unquote(m[2] ?? ""),
        ...(ref ? { ref } : {}),
        ...(text && !ref ? { text } : {}),
      });
    }
  }
  for (const l of body.matchAll(INLINE_LINK)) out.push({ role: "link", name: l[1]!, ref: l[2]! });
  return out;
}

function nodeKey(n: NodeChange): string {
  return n.ref ? `ref:${n.ref}` : `${n.role}\u0000${n.name}`;
}

/** Nodes of `candidates` (lines of one text) that `other` (all lines of the other text) lacks. */
function nodeDiff(other: string[], candidates: string[], limit: number): NodeChange[] {
  const have = new Map<string, number>();
  for (const l of other) {
    for (const n of nodesOf(l)) have.set(nodeKey(n), (have.get(nodeKey(n)) ?? 0) + 1);
  }
  const out: NodeChange[] = [];
  for (const l of candidates) {
    for (const n of nodesOf(l)) {
      const k = nodeKey(n);
      const c = have.get(k) ?? 0;
      if (c > 0) have.set(k, c - 1);
      else if (out.length < limit) out.push(n);
    }
  }
  return out;
}

/**
 * Significant nodes (dialogs, alerts, headings, iframes, anything with a
 * ref) present in `after` but not in `before`: matched by ref, or by role and
 * name for nodes without one. At most `limit` (default 20), in page order.
 */
export function appearedNodes(before: string, after: string, limit = 20): NodeChange[] {
  return nodeDiff(before.split("\n"), after.split("\n"), limit);
}

/** Significant nodes present in `before` but not in `after`; see {@link appearedNodes}. */
export function removedNodes(before: string, after: string, limit = 20): NodeChange[] {
  return nodeDiff(after.split("\n"), before.split("\n"), limit);
}

/**
 * Compares two snapshot texts of the same tab. See the module doc for how
 * lines are matched. Bounded: at most `maxLines` lines are listed (the rest
 * counted in the closing note of `text`, and `truncated` set).
 */
export function diffSnapshots(
  before: string,
  after: string,
  options: DiffOptions = {},
): SnapshotDiff {
  const maxLines = options.maxLines ?? 80;
  const maxNodes = options.maxNodes ?? 20;
  const intern = new Map<string, number>();
  const a = parse(before);
  const b = parse(after);
  const repeated = repeatedLines([a, b]);
  identify(a, intern, repeated);
  identify(b, intern, repeated);
  const reused = reidentifyReusedRows(a, b);
  if (reused.stranded.length || reused.gone.length || reused.goneLines.size) {
    assignPaths(a, intern);
    assignPaths(b, intern);
  }
  keepEditedRows(a, b, intern);
  const oldRefText = new Map<string, string>();
  const refsAfter = new Set<string>();
  // Focus moving is not a change worth a line: compare without the marker.
  const unfocused = (t: string) => t.trimStart().replace(" [focused]", "");
  for (const l of a) if (l.ref) oldRefText.set(l.ref, unfocused(l.text));
  for (const l of b) if (l.ref) refsAfter.add(l.ref);
  const counts = new Map<number, number>();
  for (const l of a) if (!l.ref) counts.set(l.path, (counts.get(l.path) ?? 0) + 1);

  const addedIdx: number[] = [];
  const changedRefs = new Set<string>();
  for (let i = 0; i < b.length; i++) {
    const l = b[i]!;
    if (l.ref) {
      const old = oldRefText.get(l.ref);
      if (old === undefined) addedIdx.push(i);
      else if (old !== unfocused(l.text)) {
        changedRefs.add(l.ref);
        addedIdx.push(i);
      }
      continue;
    }
    const c = counts.get(l.path) ?? 0;
    if (c > 0) counts.set(l.path, c - 1);
    else addedIdx.push(i);
  }
  const removedIdx: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const l = a[i]!;
    if (l.ref) {
      if (!refsAfter.has(l.ref) && !reused.goneLines.has(i)) removedIdx.push(i);
      continue;
    }
    const c = counts.get(l.path) ?? 0;
    if (c > 0) {
      counts.set(l.path, c - 1);
      removedIdx.push(i);
    }
  }

  const changedCount = changedRefs.size;
  const addedSet = new Set(addedIdx);
  const removedSet = new Set(removedIdx);
  const moves = findMoves(a, b, {
    a: a.map((l, i) => !removedSet.has(i) && !(l.ref && changedRefs.has(l.ref))),
    b: b.map((_, i) => !addedSet.has(i)),
  });

  const total = addedIdx.length + removedIdx.length;
  // What is new matters most; removed lines keep at least a quarter of the room.
  const keepAdded = Math.min(
    addedIdx.length,
    maxLines - Math.min(removedIdx.length, Math.floor(maxLines / 4)),
  );
  const keepRemoved = Math.min(removedIdx.length, maxLines - keepAdded);
  const shownRemoved = removedIdx.slice(0, keepRemoved);
  const shownAdded = addedIdx.slice(0, keepAdded);
  // Moves take the room that is left: what appeared and went away matters more.
  const shownMoves = moves.lines.slice(0, Math.max(0, maxLines - keepAdded - keepRemoved));
  const hiddenMoves = moves.lines.length - shownMoves.length;
  const truncated = keepAdded + keepRemoved < total || hiddenMoves > 0;

  const render: string[] = [];
  // A node the page re-created with the same content (a list rendered anew): one note names
  // old and new ref, instead of the line going and coming.
  const renewed = renewedRefs(a, shownRemoved, b, shownAdded);
  const gone = new Set(renewed.map((r) => r.removed));
  // Lines added under a moved line are shown under it, in its new place.
  const movedShown = new Set(shownMoves.filter((m) => m.kind === "moved").map((m) => m.index));
  const underMoved = new Map<number, number[]>();
  for (const i of shownAdded) {
    // The nearest moved ancestor (a row that moved, its new buttons in a cell of it).
    let p = b[i]!.parent;
    while (p >= 0 && !movedShown.has(p)) p = b[p]!.parent;
    if (p < 0) continue;
    underMoved.set(p, [...(underMoved.get(p) ?? []), i]);
  }
  const inline = new Set([...underMoved.values()].flat());
  renderGroup(a, shownRemoved.filter((i) => !gone.has(i)), "- ", render);
  renderGroup(b, shownAdded.filter((i) => !inline.has(i)), "+ ", render);
  renderMoves(b, shownMoves, render, underMoved);
  if (renewed.length) render.push(renewedNote(renewed));
  const stranded = [...new Set([...moves.stranded, ...reused.stranded])];
  if (stranded.length || reused.gone.length) render.push(strandedNote(stranded, reused.gone));
  if (truncated) {
    render.push(
      `… ${
        total - keepAdded - keepRemoved + hiddenMoves
      } more changed lines not shown; take a snapshot to see the page`,
    );
  }
  const appeared = nodeDiff(a.map((l) => l.text), addedIdx.map((i) => b[i]!.text), maxNodes);
  const removedNodeList = nodeDiff(
    b.map((l) => l.text),
    removedIdx.map((i) => a[i]!.text),
    maxNodes,
  );
  return {
    added: shownAdded.map((i) => b[i]!.text),
    removed: shownRemoved.map((i) => a[i]!.text),
    changedCount,
    moved: shownMoves.filter((m) => m.kind === "moved").map((m) => b[m.index]!.text),
    movedCount: moves.movedCount,
    strandedRefs: stranded,
    unchanged: total === 0 && moves.movedCount === 0 && stranded.length === 0 &&
      reused.gone.length === 0,
    truncated,
    text: render.join("\n"),
    appeared,
    removedNodes: removedNodeList,
  };
}

/** At most this many stranded refs are named. */
const MAX_STRANDED = 10;

/** The closing note on re-used nodes: refs now in another line's place, and refs gone with a dropped node. */
function strandedNote(refs: string[], gone: string[] = []): string {
  const list = (rs: string[]) =>
    rs.slice(0, MAX_STRANDED).join(", ") +
    (rs.length > MAX_STRANDED ? ` and ${rs.length - MAX_STRANDED} more` : "");
  const parts = [
    ...(refs.length ? [`${list(refs)} did not move with their lines`] : []),
    ...(gone.length ? [`${list(gone)} ${gone.length > 1 ? "are" : "is"} gone`] : []),
  ];
  return `~ ${parts.join("; ")} (re-used nodes): take a snapshot before using them`;
}

/**
 * Moved lines with `~ `, the lines they follow and their parents with two spaces; lines added
 * under a moved line (`children`) follow it with `+ `.
 */
function renderMoves(
  lines: Line[],
  marked: Array<{ index: number; kind: string }>,
  out: string[],
  children: Map<number, number[]>,
) {
  const picked = new Set(marked.map((m) => m.index));
  const shownContext = new Set<number>();
  for (const m of marked) {
    const p = lines[m.index]!.parent;
    if (p >= 0 && !picked.has(p) && !shownContext.has(p)) {
      shownContext.add(p);
      out.push("  " + lines[p]!.text);
    }
    out.push((m.kind === "moved" ? "~ " : "  ") + lines[m.index]!.text);
    // A moved row with no name of its own: which row it is.
    const label = rowLabel(lines, m.index);
    const added = children.get(m.index) ?? [];
    if (label >= 0 && !picked.has(label) && !added.includes(label)) {
      out.push("  " + lines[label]!.text);
    }
    const addedSet = new Set(added);
    const between = new Set<number>();
    for (const c of added) {
      // The lines between the moved row and what was added deeper in it, once.
      const chain: number[] = [];
      for (let q = lines[c]!.parent; q >= 0 && q !== m.index; q = lines[q]!.parent) chain.push(q);
      for (const q of chain.reverse()) {
        if (between.has(q) || addedSet.has(q)) continue;
        between.add(q);
        out.push("  " + lines[q]!.text);
      }
      out.push("+ " + lines[c]!.text);
    }
  }
}

/** A ref line gone and one added with the same content under the same line. */
interface Renewed {
  removed: number;
  from: string[];
  to: string[];
}

/** The refs a line shows: a node line's, or its inline links'. */
function refsIn(l: Line): string[] {
  return [...l.text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]!);
}

/**
 * Pairs removed lines that show refs with added ones of the same content (refs aside) under
 * the same line: a node, or a line of inline links, the page rendered anew.
 */
function renewedRefs(a: Line[], removed: number[], b: Line[], added: number[]): Renewed[] {
  const key = (lines: Line[], l: Line) =>
    `${l.parent < 0 ? -1 : lines[l.parent]!.path}\u0000${
      l.text.trimStart().replace(/ ?\[ref=e\d+\]/g, "")
    }`;
  const group = (lines: Line[], idx: number[]) => {
    const m = new Map<string, number[]>();
    for (const i of idx) {
      if (!refsIn(lines[i]!).length) continue;
      const k = key(lines, lines[i]!);
      m.set(k, [...(m.get(k) ?? []), i]);
    }
    return m;
  };
  const fresh = group(b, added);
  const gone = group(a, removed);
  // Paired only when the content tells them apart (one gone, one new): identical rows
  // ("Delete" under each "Item") are never matched by guess.
  const out: Renewed[] = [];
  for (const [k, olds] of gone) {
    const news = fresh.get(k);
    if (olds.length !== 1 || news?.length !== 1) continue;
    const from = refsIn(a[olds[0]!]!), to = refsIn(b[news[0]!]!);
    if (from.length !== to.length || from.some((r, i) => r === to[i])) continue;
    out.push({ removed: olds[0]!, from, to });
  }
  out.sort((x, y) => x.removed - y.removed);
  return out;
}

/** At most this many renewed refs are named. */
const MAX_RENEWED = 10;

function renewedNote(renewed: Renewed[]): string {
  const from = renewed.flatMap((r) => r.from), to = renewed.flatMap((r) => r.to);
  const shown = Math.min(from.length, MAX_RENEWED);
  const more = from.length > shown ? ` and ${from.length - shown} more` : "";
  return `~ ${from.slice(0, shown).join(", ")}${more} are gone: the page re-created ${
    from.length > 1 ? "them" : "it"
  } as ${to.slice(0, shown).join(", ")}${more} (same content)`;
}

/**
 * Lines with a marker; an unchanged parent line is shown once before its changed children,
 * and a bare one (`- listitem`) with its first child, so the agent sees which row it is.
 */
function renderGroup(lines: Line[], idx: number[], mark: string, out: string[]) {
  const picked = new Set(idx);
  const shownContext = new Set<number>();
  for (const i of idx) {
    const p = lines[i]!.parent;
    if (p >= 0 && !picked.has(p) && !shownContext.has(p)) {
      shownContext.add(p);
      out.push("  " + lines[p]!.text);
      const label = rowLabel(lines, p);
      if (label >= 0 && label !== i && !picked.has(label)) {
        shownContext.add(label);
        out.push("  " + lines[label]!.text);
      }
    }
    // A text that stands several times among its siblings: the line before it says where.
    const prev = lines[i]!.prevSibling;
    if (
      lines[i]!.id.includes("\u0002") && prev >= 0 && !picked.has(prev) && !shownContext.has(prev)
    ) {
      shownContext.add(prev);
      out.push("  " + lines[prev]!.text);
    }
    out.push(mark + lines[i]!.text);
  }
}
