/**
 * Test and bench helper (no production code imports it): synthetic snapshot outlines, nested
 * (menus, trees, threads) and flat, and seeded random pairs of outlines (a page before and
 * after an action) for the delta's property tests. Deterministic: the same arguments give the
 * same text.
 *
 * @module
 */

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A nested menu of `lines` lines: `- list` › `- listitem` › a link with a ref and a list
 * below, `fan` rows a list, `depth` lists deep (a leaf row holds a text instead); more such
 * menus follow one another until the text has its lines.
 */
export function nestedOutline(lines: number, depth: number, fan = 2): string {
  const out: string[] = [];
  let ref = 1;
  const list = (level: number, indent: string, label: string) => {
    out.push(`${indent}- list`);
    for (let k = 0; k < fan && out.length < lines; k++) {
      out.push(`${indent}  - listitem`);
      out.push(`${indent}    - link "Item ${label}.${k}" [ref=e${ref++}]`);
      if (level < depth) list(level + 1, `${indent}    `, `${label}.${k}`);
      else out.push(`${indent}    Leaf ${label}.${k}`);
    }
  };
  while (out.length < lines) list(1, "", String(out.length));
  return out.slice(0, lines).join("\n");
}

/**
 * A comment thread `depth` replies deep, repeated until the text has `lines` lines: each
 * comment a bare `- article` holding its author's link, its text, a Reply button, and its one
 * reply below (the deepest case: every comment's subtree holds the rest of its thread).
 */
export function threadOutline(lines: number, depth: number): string {
  const out: string[] = [];
  let ref = 1;
  while (out.length < lines) {
    let indent = "";
    for (let d = 0; d < depth && out.length < lines; d++) {
      out.push(`${indent}- article`);
      out.push(`${indent}  - link "user${out.length % 7}" [ref=e${ref++}]`);
      out.push(`${indent}  Comment ${out.length}`);
      out.push(`${indent}  - button "Reply" [ref=e${ref++}]`);
      indent += "  ";
    }
  }
  return out.slice(0, lines).join("\n");
}

/** A flat list of `lines` lines: bare rows, each a link with a ref and a text. */
export function flatOutline(lines: number): string {
  const out = ["- list"];
  let ref = 1;
  while (out.length < lines) {
    out.push("  - listitem");
    out.push(`    - link "Item ${out.length}" [ref=e${ref++}]`);
    out.push(`    Leaf ${out.length}`);
  }
  return out.slice(0, lines).join("\n");
}

/** A node of {@link randomOutline}'s trees: one line and the lines under it. */
interface Node {
  line: string;
  kids: Node[];
}

const WORDS = ["Delete", "Edit", "Out of stock", "Alpha", "Bravo", "Charlie", "Delta", "42 items"];

/** A made-up page: random lists, rows, refs, repeated texts and table rows, `depth` deep. */
function randomTree(rand: () => number, depth: number, refs: { next: number }): Node[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const ref = () => `[ref=e${refs.next++}]`;
  const out: Node[] = [];
  const count = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    const r = rand();
    const kids = () => depth > 0 ? randomTree(rand, depth - 1, refs) : [];
    if (r < 0.15) {
      // A list of rows each told by its checkbox's ref (TodoMVC), some with a list below.
      const rows = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => ({
        line: "- listitem",
        kids: [
          { line: `- checkbox ${ref()}`, kids: [] },
          { line: pick(WORDS), kids: [] },
          ...(rand() < 0.4 ? kids() : []),
        ],
      }));
      out.push({ line: "- list", kids: rows });
    } else if (r < 0.35) {
      // A bare row told by its first child (a ref, or a text), with more below.
      const first = rand() < 0.7
        ? { line: `- checkbox ${ref()}`, kids: [] }
        : { line: pick(WORDS), kids: [] };
      out.push({ line: pick(["- listitem", "- row", "- article"]), kids: [first, ...kids()] });
    } else if (r < 0.45) out.push({ line: pick(["- list", "- group", "- main"]), kids: kids() });
    else if (r < 0.65) {
      out.push({ line: `- ${pick(["button", "link"])} "${pick(WORDS)}" ${ref()}`, kids: [] });
    } else if (r < 0.75) out.push({ line: `| ${pick(WORDS)} | button "Edit" ${ref()}`, kids: [] });
    else if (r < 0.8) out.push({ line: `## ${pick(WORDS)}`, kids: [] });
    else out.push({ line: pick(WORDS), kids: rand() < 0.2 ? kids() : [] });
  }
  return out;
}

function render(nodes: Node[], indent = ""): string[] {
  return nodes.flatMap((n) => [`${indent}${n.line}`, ...render(n.kids, `${indent}  `)]);
}

function clone(nodes: Node[]): Node[] {
  return nodes.map((n) => ({ line: n.line, kids: clone(n.kids) }));
}

/** Every list of nodes in the tree (the top included), with the lists below. */
function lists(nodes: Node[]): Node[][] {
  return [nodes, ...nodes.flatMap((n) => lists(n.kids))];
}

/**
 * A random page and the same page after a random change or a few: texts edited, states set,
 * rows dropped, added, swapped or sorted, a list re-used by position (its labels shifted up,
 * its last row dropped: an unkeyed framework), rows re-created with new refs. Seeded: the same
 * `seed` gives the same pair.
 */
export function randomOutlinePair(seed: number, depth = 4): { before: string; after: string } {
  const rand = seeded(seed);
  const refs = { next: 1 };
  const tree = randomTree(rand, depth, refs);
  const after = clone(tree);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const edits = 1 + Math.floor(rand() * 3);
  for (let e = 0; e < edits; e++) {
    const all = lists(after).filter((l) => l.length);
    // Lists of rows half the time: where re-used and re-created rows happen.
    const rows = all.filter((l) => l.length > 1 && l.every((n) => n.line === "- listitem"));
    const list = rows.length && rand() < 0.5 ? pick(rows) : pick(all);
    if (!list) continue;
    const k = Math.floor(rand() * list.length);
    const r = rand();
    if (r < 0.15) list[k]!.line += " edited";
    else if (r < 0.25) list[k]!.line = list[k]!.line.replace(/\[ref=e\d+\]/, "$& [checked]");
    else if (r < 0.35) list.splice(k, 1);
    else if (r < 0.45) list.splice(k, 0, ...randomTree(rand, 1, refs));
    else if (r < 0.55 && list.length > 1) list.push(list.splice(k, 1)[0]!);
    else if (r < 0.65) list.sort((x, y) => (x.line < y.line ? -1 : x.line > y.line ? 1 : 0));
    else if (r < 0.8 && list.length > 1) {
      // Re-used by position: each node keeps its line and its first child (its ref) and
      // takes the next one's other content; the last node goes.
      for (let i = k; i < list.length - 1; i++) {
        list[i]!.kids = [...list[i]!.kids.slice(0, 1), ...list[i + 1]!.kids.slice(1)];
      }
      list.pop();
    } else if (r < 0.9) {
      // Re-created: the same content under new refs.
      const renew = (n: Node) => {
        n.line = n.line.replace(/\[ref=e\d+\]/g, () => `[ref=e${refs.next++}]`);
        n.kids.forEach(renew);
      };
      renew(list[k]!);
    } else list[k]!.line += " [focused]";
  }
  return { before: render(tree).join("\n"), after: render(after).join("\n") };
}

/**
 * `text` after a typical action somewhere deep in it: the first ref line from a third of the
 * way down gets `[expanded]`, the first text line from half way is edited, and a new link
 * (a new ref) appears after the first text line from two thirds down.
 */
export function actedOutline(text: string): string {
  const lines = text.split("\n");
  const from = (at: number, ok: (l: string) => boolean) => {
    for (let i = Math.floor(lines.length * at); i < lines.length; i++) if (ok(lines[i]!)) return i;
    return -1;
  };
  const toggled = from(1 / 3, (l) => l.includes("[ref="));
  if (toggled >= 0) lines[toggled] += " [expanded]";
  const edited = from(1 / 2, (l) => !l.includes("[ref=") && !l.trimStart().startsWith("- "));
  if (edited >= 0) lines[edited] += " (edited)";
  const after = from(2 / 3, (l) => !l.includes("[ref=") && !l.trimStart().startsWith("- "));
  if (after >= 0) {
    const indent = lines[after]!.length - lines[after]!.trimStart().length;
    lines.splice(after + 1, 0, `${" ".repeat(indent)}- link "New" [ref=e999999]`);
  }
  return lines.join("\n");
}
