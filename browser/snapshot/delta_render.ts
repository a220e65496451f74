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
import { contextLabel, HEADING, ROW_LINE } from "./delta_context.ts";
import type { Guessed } from "./repeat_align.ts";

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
 * under a moved line (`children`) follow it with `+ `. `last`: the line (in `lines`) written
 * just before, whose parent is not written again when the first move shares it and its section.
 */
export function renderMoves(
  lines: Line[],
  marked: Array<{ index: number; kind: string }>,
  out: string[],
  children: Map<number, number[]>,
  last = -1,
) {
  const picked = new Set(marked.map((m) => m.index));
  const shownContext = new Set<number>();
  // The added line written just before (`last`, in `lines`) stands under the first move's
  // parent and in its section: that context is on screen (a drag's delta printed `- main`
  // again, the second time without its section heading).
  const first = marked[0]?.index;
  const lp = last >= 0 ? lines[last]!.parent : -1;
  if (
    first !== undefined && lp >= 0 && lines[first]!.parent === lp &&
    contextLabel(lines, lp, first) === contextLabel(lines, lp, last)
  ) shownContext.add(lp);
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

/** A subtree gone and one added with the same content, refs aside, under the same place. */
interface Renewed {
  /** Where both stand (their parent's place, refs aside). */
  place: string;
  removed: number;
  added: number;
  from: string[];
  to: string[];
  /** The lines of both subtrees (not shown: the note names the refs). */
  linesA: number[];
  linesB: number[];
  /** Re-created in another place among its renewed siblings (a list sorted): shown moved. */
  moved?: boolean;
}

/**
 * Pairs removed subtrees (a line with everything under it, all removed) that show refs with
 * added ones of the same content (refs aside) in the same place: a node, a row, or a line of
 * inline links the page rendered anew (a list re-rendered on a filter: TodoMVC's rows). Paired
 * only when the content tells them apart (one gone, one new), or, for rows alike ("Delete"
 * under each "Banana"), when the rows they stand under were paired between the texts and not
 * by guess (`guessed`: one of several alike went, which one is not known). Pairs out of their
 * siblings' order are `moved`.
 * Sorted by their old place.
 */
export function renewedRefs(
  a: Line[],
  removed: number[],
  b: Line[],
  added: number[],
  guessed: Guessed = { a: new Set(), b: new Set() },
): Renewed[] {
  const subtrees = (lines: Line[], idx: number[]) => {
    const set = new Set(idx);
    const m = new Map<string, Array<{ root: number; lines: number[]; place: string }>>();
    for (const i of idx) {
      const l = lines[i]!;
      if (l.parent >= 0 && set.has(l.parent)) continue; // inside a removed/added subtree
      // Read no further than the first line not in the set (a subtree half kept is no pair).
      const all = [i];
      for (let c = i + 1; c < l.end && set.has(c); c++) all.push(c);
      if (all.length < l.end - i || !all.some((j) => refsIn(lines[j]!).length)) continue;
      const place = placeOf(lines, i);
      const k = `${place}\u0000${
        all.map((j) => " ".repeat(lines[j]!.indent - l.indent) + noRefs(lines[j]!.text.trimStart()))
          .join("\n")
      }`;
      m.set(k, [...(m.get(k) ?? []), { root: i, lines: all, place }]);
    }
    return m;
  };
  const fresh = subtrees(b, added);
  const gone = subtrees(a, removed);
  const out: Renewed[] = [];
  for (const [k, olds] of gone) {
    const news = fresh.get(k);
    if (!news) continue;
    for (
      const [old, now] of olds.length === 1 && news.length === 1
        ? [[olds[0]!, news[0]!]]
        : underOne(a, olds, b, news, guessed)
    ) {
      const from = old!.lines.flatMap((j) => refsIn(a[j]!));
      const to = now!.lines.flatMap((j) => refsIn(b[j]!));
      if (from.length !== to.length || from.some((r, i) => r === to[i])) continue;
      out.push({
        place: old!.place,
        removed: old!.root,
        added: now!.root,
        from,
        to,
        linesA: old!.lines,
        linesB: now!.lines,
      });
    }
  }
  out.sort((x, y) => x.removed - y.removed);
  // Siblings re-created in another order moved: only those that kept their order are renewed.
  const byPlace = new Map<string, Renewed[]>();
  for (const r of out) byPlace.set(r.place, [...(byPlace.get(r.place) ?? []), r]);
  const kept = new Set([...byPlace.values()].flatMap(inOrder));
  for (const r of out) if (!kept.has(r)) r.moved = true;
  return out;
}

/**
 * Subtrees of the same content in one place that stand several times (a Delete button under
 * each of two "Banana" rows): paired only where the line they stand under is one line in both
 * texts (its path: `repeat_align.ts` tells the two Bananas apart), one old and one new there,
 * and that line was not paired by guess (`guessed`).
 */
function underOne<T extends { root: number }>(
  a: Line[],
  olds: T[],
  b: Line[],
  news: T[],
  guessed: Guessed,
): T[][] {
  // Under a line paired by guess (one of several alike went): no place of its own (-1).
  const under = (lines: Line[], x: T) => {
    const p = lines[x.root]!.parent;
    const unsure = lines === a ? guessed.a : guessed.b;
    for (let q = p; q >= 0; q = lines[q]!.parent) if (unsure.has(q)) return -1;
    return p < 0 ? -1 : lines[p]!.path;
  };
  const byPath = (lines: Line[], xs: T[]) => {
    const m = new Map<number, T[]>();
    for (const x of xs) {
      const at = m.get(under(lines, x));
      if (at) at.push(x);
      else m.set(under(lines, x), [x]);
    }
    return m;
  };
  const newsAt = byPath(b, news);
  const out: T[][] = [];
  for (const [path, here] of byPath(a, olds)) {
    const there = newsAt.get(path);
    if (path >= 0 && here.length === 1 && there?.length === 1) out.push([here[0]!, there[0]!]);
  }
  return out;
}

/**
 * The pairs (sorted by their old place) that kept their order: the longest run whose new places
 * rise too. The others moved (a list re-created in another order): shown as moved lines in
 * their new order, so the order change is seen.
 */
function inOrder(pairs: Renewed[]): Renewed[] {
  // Patience sorting: tails[k] = index of the pair ending the best run of length k + 1.
  const tails: number[] = [], prev: number[] = new Array(pairs.length).fill(-1);
  for (let i = 0; i < pairs.length; i++) {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]!.added < pairs[i]!.added) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep: Renewed[] = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = prev[i]!) {
    keep.push(pairs[i]!);
  }
  return keep.reverse();
}

const noRefs = (text: string) => text.replace(/ ?\[ref=e\d+\]/g, "");

/**
 * Where a line stands, refs aside: its ancestors' texts, the nearest bare row (`- listitem`)
 * told by all else it holds (a row the page rendered anew has new refs, so its identity in the diff is new too;
 * its content, "Todo 1", is what pairs it with the one that went). Only a row is told so: a
 * bare landmark or container (`- main`) holds the rest of the page, whose other changes (a
 * count, "47 users" → "46 users") would make every row under it a new place.
 */
function placeOf(lines: Line[], child: number): string {
  const parts: string[] = [];
  let told = false;
  // The line the walk came up from: its subtree is the element's own, not what tells the row.
  let from = child;
  for (let p = lines[child]!.parent; p >= 0; from = p, p = lines[p]!.parent) {
    const l = lines[p]!;
    const body = noRefs(l.text.trimStart());
    // The nearest row told by what else it holds; the ones above by their own line (their
    // content is other rows, which may have moved).
    if (told || rowLabel(lines, p) < 0 || !ROW_LINE.test(body)) {
      parts.push(body);
      continue;
    }
    let held = body;
    const deep = lines[from]!.indent;
    for (let c = p + 1; c < l.end && held.length < 400;) {
      // Not the element's own subtree, nor lines after it nested deeper than it: skipped a
      // subtree at once (it may be most of the row).
      if (c === from || (c > from && lines[c]!.indent > deep)) {
        c = lines[c]!.end;
        continue;
      }
      held += "\n" + noRefs(lines[c]!.text.trimStart());
      c++;
    }
    told = held !== body;
    parts.push(held);
  }
  return parts.join("\u0001");
}

/** At most this many renewed refs are named. */
const MAX_RENEWED = 25;

/** The note naming refs the page re-created with the same content, old and new. */
export function renewedNote(renewed: Renewed[]): string {
  const from = renewed.flatMap((r) => r.from), to = renewed.flatMap((r) => r.to);
  const shown = Math.min(from.length, MAX_RENEWED);
  const more = from.length > shown ? ` and ${from.length - shown} more` : "";
  // One ref "is gone" and is re-created as "it"; several "are gone", re-created as "them".
  const [is, it] = from.length > 1 ? ["are", "them"] : ["is", "it"];
  return `~ ${from.slice(0, shown).join(", ")}${more} ${is} gone: the page re-created ${it} as ${
    to.slice(0, shown).join(", ")
  }${more} (same content)`;
}

/**
 * Lines with a marker; an unchanged parent line is shown once before its changed children,
 * with the line that says where in it the change stands ({@link contextLabel}): a bare row's
 * first child, so the agent sees which row it is; a landmark's nearest heading above.
 * `after(i)` is called after line `i` is written (the removed lines' place for the added ones
 * under the same parent, {@link renderRemovedAdded}).
 */
export function renderGroup(
  lines: Line[],
  idx: number[],
  mark: string,
  out: string[],
  options: { shown?: Set<number>; after?: (i: number) => void } = {},
) {
  const picked = new Set(idx);
  const shownContext = options.shown ?? new Set<number>();
  for (const i of idx) {
    const p = lines[i]!.parent;
    if (p >= 0 && !picked.has(p) && !shownContext.has(p)) {
      shownContext.add(p);
      out.push("  " + lines[p]!.text);
    }
    // Under one parent, each section's heading once, before the first change in it.
    const label = p >= 0 && !picked.has(p) ? contextLabel(lines, p, i) : -1;
    if (label >= 0 && label !== i && !picked.has(label) && !shownContext.has(label)) {
      shownContext.add(label);
      out.push("  " + lines[label]!.text);
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
    options.after?.(i);
  }
}

/**
 * The removed lines (`a`, marked `- `), then the added ones (`b`, `+ `). Added lines under a
 * parent the removed ones were shown under follow that parent's last removed line, without
 * its context again (a cart's "- Cart: 0 items" and "+ Cart: 1 items" under one banner and
 * heading, where both were printed twice). Returns the added line written last (index in
 * `b`), -1 when the last line written is a removed one or none.
 */
export function renderRemovedAdded(
  a: Line[],
  removed: number[],
  b: Line[],
  added: number[],
  out: string[],
): number {
  // The unchanged ancestor a changed line is shown under (its parent, or its first unchanged
  // ancestor when its parent changed too), by index.
  const contextOf = (lines: Line[], picked: Set<number>, idx: number[]) => {
    const at = new Map<number, number>();
    for (const i of idx) {
      const p = lines[i]!.parent;
      at.set(i, p >= 0 && picked.has(p) ? at.get(p) ?? -1 : p);
    }
    return at;
  };
  const removedSet = new Set(removed), addedSet = new Set(added);
  const removedCtx = contextOf(a, removedSet, removed);
  const addedCtx = contextOf(b, addedSet, added);
  // The last removed line under each context and section in it (by their paths, shared by a
  // and b): a line added in another section of `- main` is not shown under this one's heading.
  const where = (lines: Line[], picked: Set<number>, c: number, i: number) => {
    let label = contextLabel(lines, c, i);
    // Under a heading that is new (or gone) itself: the section that heading stands in.
    for (let next; label >= 0 && picked.has(label); label = next) {
      // A row's label is the same line whatever asks: only a heading has one above it.
      next = HEADING.test(lines[label]!.text.trimStart()) ? contextLabel(lines, c, label) : -1;
      if (next >= label) next = -1;
    }
    const heading = label >= 0 && HEADING.test(lines[label]!.text.trimStart());
    return `${lines[c]!.path}\u0000${heading ? lines[label]!.path : -1}`;
  };
  const lastUnder = new Map<string, number>();
  for (const i of removed) {
    const c = removedCtx.get(i)!;
    if (c >= 0) lastUnder.set(where(a, removedSet, c, i), i);
  }
  const joined = new Map<number, number[]>();
  const rest: number[] = [];
  for (const i of added) {
    const c = addedCtx.get(i)!;
    const last = c >= 0 ? lastUnder.get(where(b, addedSet, c, i)) : undefined;
    if (last === undefined) rest.push(i);
    else joined.set(last, [...joined.get(last) ?? [], i]);
  }
  // The added line written last, -1 when a removed line was (in `b`).
  let lastAdded = -1;
  renderGroup(a, removed, "- ", out, {
    after(i) {
      const under = joined.get(i);
      lastAdded = under ? under[under.length - 1]! : -1;
      if (!under) return;
      // Its context is on screen: the parent and its row label count as shown.
      const c = addedCtx.get(under[0]!)!;
      const shown = new Set([c, contextLabel(b, c, under[0]!)]);
      renderGroup(b, under, "+ ", out, { shown });
    },
  });
  renderGroup(b, rest, "+ ", out);
  return rest.length ? rest[rest.length - 1]! : lastAdded;
}
