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
 * The lines and their identities are in `delta_lines.ts`, the rendering in
 * `delta_render.ts`.
 *
 * @module
 */
import { findMoves } from "./moves.ts";
import { dropTicking, reorderNote, type SelfChanges, type Ticked, tickingNote } from "./ticking.ts";
import { controlText, rowControls } from "./row_line.ts";
import { reidentifyReusedRows } from "./reused_rows.ts";
import { assignPaths, identify, keepEditedRows, parse, repeatedLines } from "./delta_lines.ts";
import { alignRepeats } from "./repeat_align.ts";
import {
  renderGroup,
  renderMoves,
  renderRemovedAdded,
  renewedNote,
  renewedRefs,
  strandedNote,
} from "./delta_render.ts";

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
  /**
   * What the page was seen changing on its own (`ticking.ts` `selfChanges`): lines in a ticking
   * place changed by their numbers are summed up in one note, not listed; and when it reorders
   * itself, moves are counted in a note, not listed.
   */
  self?: SelfChanges | undefined;
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
  /** Lines left out as ticking on their own (see {@link DiffOptions.ticking}). */
  ticked?: Ticked | undefined;
}

const NODE_LINE = /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
/** A markdown heading line, `## Title`; a heading that is one link is found as that link. */
const HEADING_LINE = /^#+ (?!\[)(.+)$/;
const INLINE_LINK = /\[((?:[^[\]]|\[[^\]]*\])*)\](?:\((?:[^()\s]|\([^()\s]*\))*\))?\[ref=(e\d+)\]/g;
const SIGNIFICANT = new Set(["dialog", "alertdialog", "alert", "heading", "iframe"]);

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
  for (const c of rowControls(body)) out.push({ role: c.role, name: c.name, ref: c.ref });
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
  // Siblings that share an identity (`* Banana` twice) paired as a diff pairs lines.
  const guessed = alignRepeats(a, b, intern);
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

  // A clock, a counter: what ticks on its own is not the action's change (one note says it).
  const ticked = options.self
    ? dropTicking(a, b, { addedIdx, removedIdx, changedRefs }, options.self.ticking)
    : undefined;
  const changedCount = changedRefs.size;
  // A node the page re-created with the same content (a list rendered anew): one note names
  // old and new refs, instead of the lines going and coming (paired before the cut to maxLines).
  const paired = renewedRefs(a, removedIdx, b, addedIdx, guessed);
  const gone = new Set(paired.flatMap((r) => r.linesA));
  const came = new Set(paired.flatMap((r) => r.linesB));
  // Re-created in another order (a table sorted): shown once, `~ ` in the new order, new refs.
  const renewed = paired.filter((r) => !r.moved);
  const recreatedMoved = paired.filter((r) => r.moved).flatMap((r) => r.linesB)
    .sort((x, y) => x - y);
  const movedRoots = paired.filter((r) => r.moved).map((r) => r.added).sort((x, y) => x - y);
  // Lines shown: the renewed ones are not (the note names their refs), except new ones under a
  // moved line (below); the room and the cut count only what is shown.
  const removedLines = removedIdx.filter((i) => !gone.has(i));
  const addedLines = addedIdx.filter((i) => !came.has(i));
  const addedSet = new Set(addedIdx);
  const removedSet = new Set(removedIdx);
  const moves = findMoves(a, b, {
    a: a.map((l, i) => !removedSet.has(i) && !(l.ref && changedRefs.has(l.ref))),
    b: b.map((_, i) => !addedSet.has(i)),
  });

  const total = addedLines.length + removedLines.length;
  // What is new matters most; removed lines keep at least a quarter of the room.
  const keepAdded = Math.min(
    addedLines.length,
    maxLines - Math.min(removedLines.length, Math.floor(maxLines / 4)),
  );
  const keepRemoved = Math.min(removedLines.length, maxLines - keepAdded);
  const byIndex = (x: number, y: number) => x - y;
  // The data keeps what went and came, renewed lines too.
  const shownRemoved = [...removedLines.slice(0, keepRemoved), ...gone].sort(byIndex);
  const shownAdded = [...addedLines.slice(0, keepAdded), ...came].sort(byIndex);
  // Moves take the room that is left: what appeared and went away matters more. A page that
  // reorders itself has its moves counted, not listed (the action may not have made them).
  const selfMoved = options.self?.reorders === true && moves.movedCount > 0;
  const shownMoves = selfMoved
    ? []
    : moves.lines.slice(0, Math.max(0, maxLines - keepAdded - keepRemoved));
  const hiddenMoves = selfMoved ? 0 : moves.lines.length - shownMoves.length;
  const truncated = keepAdded + keepRemoved < total || hiddenMoves > 0;

  const render: string[] = [];
  // Lines added under a moved line are shown under it, in its new place.
  const movedShown = new Set(shownMoves.filter((m) => m.kind === "moved").map((m) => m.index));
  const underMoved = new Map<number, number[]>();
  // Per line, its nearest moved ancestor (a row that moved, its new buttons in a cell of it),
  // parents first: a walk up from each added line would cost the depth each.
  const movedAbove: number[] = [];
  if (movedShown.size) {
    b.forEach(({ parent: p }, i) => {
      movedAbove[i] = p < 0 ? -1 : movedShown.has(p) ? p : movedAbove[p]!;
    });
  }
  for (const i of movedShown.size ? shownAdded : []) {
    const p = movedAbove[i]!;
    if (p < 0) continue;
    const under = underMoved.get(p);
    if (under) under.push(i);
    else underMoved.set(p, [i]);
  }
  const inline = new Set([...underMoved.values()].flat());
  const lastAdded = renderRemovedAdded(
    a,
    shownRemoved.filter((i) => !gone.has(i)),
    b,
    shownAdded.filter((i) => !inline.has(i) && !came.has(i)),
    render,
  );
  renderMoves(b, shownMoves, render, underMoved, lastAdded);
  renderGroup(b, recreatedMoved, "~ ", render);
  if (renewed.length) render.push(renewedNote(renewed));
  const stranded = [...new Set([...moves.stranded, ...reused.stranded])];
  if (stranded.length || reused.gone.length) render.push(strandedNote(stranded, reused.gone));
  if (ticked) render.push(tickingNote(ticked));
  if (selfMoved) render.push(reorderNote(moves.movedCount));
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
    moved: [
      ...shownMoves.filter((m) => m.kind === "moved").map((m) => b[m.index]!.text),
      ...movedRoots.map((i) => b[i]!.text),
    ],
    movedCount: moves.movedCount + movedRoots.length,
    strandedRefs: stranded,
    unchanged: total === 0 && moves.movedCount === 0 && stranded.length === 0 &&
      reused.gone.length === 0 && paired.length === 0,
    truncated,
    text: render.join("\n"),
    appeared,
    removedNodes: removedNodeList,
    ...(ticked ? { ticked } : {}),
  };
}

/** Longest focus line {@link focusLine} returns, characters (a text area's value is long). */
const MAX_FOCUS_LINE = 160;

/**
 * How `text` shows the element of `ref` (the focus moved there), in short: its node line
 * without indent, list marker and ` [focused]` (`textbox "Name" [ref=e1]: Ann`), or a link
 * inline in a line as `link "Docs" [ref=e3]`, a control in a table row's line as
 * `button "Edit" [ref=e4]`; cut at 160 characters. `ref` not in the text
 * (a page cut short): `[ref=eN]` alone. `options.mask` (the call's masker) runs before the cut:
 * a cut inside a secret's value would leave a prefix unmasked. Pure.
 */
export function focusLine(
  text: string,
  ref: string,
  options: { mask?: (line: string) => string } = {},
): string {
  const mark = `[ref=${ref}]`;
  const at = text.indexOf(mark);
  if (at < 0) return mark;
  const start = text.lastIndexOf("\n", at) + 1;
  const end = text.indexOf("\n", at);
  let line = text.slice(start, end < 0 ? undefined : end).trimStart().replace(" [focused]", "");
  const inRow = rowControls(line).find((c) => c.ref === ref);
  if (inRow) line = controlText(line, inRow);
  else if (line.startsWith("- ")) line = line.slice(2);
  else {
    for (const m of line.matchAll(INLINE_LINK)) {
      if (m[2] === ref) line = `link "${m[1]}" ${mark}`;
    }
  }
  if (options.mask) line = options.mask(line);
  return line.length > MAX_FOCUS_LINE ? `${line.slice(0, MAX_FOCUS_LINE - 1)}…` : line;
}
