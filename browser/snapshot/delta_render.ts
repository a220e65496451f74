/**
 * The rendering of a snapshot delta (`delta.ts`): changed lines with their
 * markers and the unchanged lines kept for context, moved lines with what
 * was added under them, and the closing notes on re-used nodes (stranded
 * refs) and re-created ones (renewed refs). Pure text functions over the
 * parsed lines of `delta_lines.ts`.
 *
 * @module
 */
import { type Line, refsIn, rowLabel } from "./delta_lines.ts";

/** At most this many stranded refs are named. */
const MAX_STRANDED = 10;

/** The closing note on re-used nodes: refs now in another line's place, and refs gone with a dropped node. */
export function strandedNote(refs: string[], gone: string[] = []): string {
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
 * The closing note on refs whose rows now read as other items, held to what the agent was shown
 * (`RefRegistry.settle`) and not named by {@link strandedNote} in `text` already; `""` when none.
 */
export function heldNote(held: readonly string[], text: string): string {
  const noted = new Set(
    text.split("\n").filter((l) => l.endsWith("take a snapshot before using them"))
      .flatMap((l) => l.match(/\be\d+\b/g) ?? []),
  );
  const refs = held.filter((r) => !noted.has(r));
  if (!refs.length) return "";
  const list = refs.slice(0, MAX_STRANDED).join(", ") +
    (refs.length > MAX_STRANDED ? ` and ${refs.length - MAX_STRANDED} more` : "");
  return `~ ${list} now ${
    refs.length > 1 ? "sit in rows" : "sits in a row"
  } that changed: take a snapshot before using ${refs.length > 1 ? "them" : "it"}`;
}

/**
 * Moved lines with `~ `, the lines they follow and their parents with two spaces; lines added
 * under a moved line (`children`) follow it with `+ `.
 */
export function renderMoves(
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

/**
 * Pairs removed lines that show refs with added ones of the same content (refs aside) under
 * the same line: a node, or a line of inline links, the page rendered anew.
 */
export function renewedRefs(a: Line[], removed: number[], b: Line[], added: number[]): Renewed[] {
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

/** The note naming refs the page re-created with the same content, old and new. */
export function renewedNote(renewed: Renewed[]): string {
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
export function renderGroup(lines: Line[], idx: number[], mark: string, out: string[]) {
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
