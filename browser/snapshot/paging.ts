/**
 * Token estimates and paging of snapshot text. Cuts fall only between lines,
 * so a ref or a link is never split, and a cut is always said in the text.
 *
 * @module
 */

/** Default page size of a snapshot, in estimated tokens. */
export const DEFAULT_SNAPSHOT_TOKENS = 12_000;

/**
 * Estimated tokens of a text: `ceil(chars / 4)`, the usual rule of thumb for
 * English prose and markup. On snapshots OpenAI's o200k tokenizer counts
 * about 5–10% more (refs and URLs split into many tokens).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Options of {@link pageText}. */
export interface PageOptions {
  /** Page size in estimated tokens (see {@link estimateTokens}). Default: no limit. */
  maxTokens?: number;
  /** First line to show (0-based), as returned in `nextOffset`. Default 0. */
  offset?: number;
}

/** One page of a text. */
export interface PagedText {
  /**
   * The lines shown. When `offset > 0` it starts with a `… from line N of M`
   * note and the ancestor lines of the first line (for context; among a table's rows, the
   * table's head too); when
   * truncated it ends with a note saying how to continue.
   */
  text: string;
  /** More lines follow: continue with `offset: nextOffset`. */
  truncated: boolean;
  /** The offset this page starts at (clamped). */
  offset: number;
  /** Where the next page starts, when truncated. */
  nextOffset?: number;
  /** Estimated tokens of the whole text. */
  totalTokens: number;
  /** Lines in the whole text. */
  totalLines: number;
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/**
 * A page that starts among a table's rows: the table's head (its row of column headers and the
 * `|---|` under it) before the first row, so the cells read by their columns. Searched back
 * among the rows' siblings only; empty when the head is on the page or there is none.
 */
function tableHead(lines: string[], offset: number): string[] {
  const first = lines[offset]!;
  const indent = indentOf(first);
  const body = first.slice(indent);
  if (!body.startsWith("|") && !body.startsWith("- row")) return [];
  for (let i = offset - 1; i > 0; i--) {
    const d = indentOf(lines[i]!);
    if (d < indent) return [];
    if (d === indent && /^\|(?:---\|)+$/.test(lines[i]!.slice(d))) {
      return i === offset - 1 ? [] : [lines[i - 1]!, lines[i]!];
    }
  }
  return [];
}

/**
 * Returns the page of `text` that starts at line `offset` and fits in
 * `maxTokens` (always at least one line, even a longer one). Lines are never
 * split; a truncated page says so in its last line and in `truncated`.
 */
export function pageText(text: string, options: PageOptions = {}): PagedText {
  const lines = text === "" ? [] : text.split("\n");
  const totalTokens = estimateTokens(text);
  const totalLines = lines.length;
  const maxTokens = options.maxTokens ?? Infinity;
  const offset = Math.min(Math.max(0, Math.floor(options.offset ?? 0)), totalLines);
  if (offset === 0 && totalTokens <= maxTokens) {
    return { text, truncated: false, offset: 0, totalTokens, totalLines };
  }
  if (offset >= totalLines && totalLines > 0) {
    return {
      text: `… offset ${offset} is past the end (the snapshot has ${totalLines} lines)`,
      truncated: false,
      offset,
      totalTokens,
      totalLines,
    };
  }
  const head: string[] = [];
  if (offset > 0) {
    head.push(`… from line ${offset} of ${totalLines}`);
    // The first line's ancestors, nearest last, so the page reads in place.
    const ancestors: string[] = [];
    let want = indentOf(lines[offset]!);
    for (let i = offset - 1; i >= 0 && want > 0; i--) {
      const d = indentOf(lines[i]!);
      if (d < want) {
        ancestors.push(lines[i]!);
        want = d;
      }
    }
    head.push(...ancestors.reverse(), ...tableHead(lines, offset));
  }
  // Keep room for the closing note (~30 tokens).
  const budget = (maxTokens - 30) * 4;
  let used = head.reduce((n, l) => n + l.length + 1, 0);
  let end = offset;
  while (end < totalLines) {
    const cost = lines[end]!.length + 1;
    if (end > offset && used + cost > budget) break;
    used += cost;
    end++;
  }
  const shown = [...head, ...lines.slice(offset, end)];
  const truncated = end < totalLines;
  if (truncated) {
    const rest = estimateTokens(lines.slice(end).join("\n"));
    shown.push(
      `… truncated: lines ${offset}–${end - 1} of ${totalLines} shown, ~${rest} tokens left;` +
        ` continue with offset=${end}`,
    );
  }
  return {
    text: shown.join("\n"),
    truncated,
    offset,
    ...(truncated ? { nextOffset: end } : {}),
    totalTokens,
    totalLines,
  };
}
