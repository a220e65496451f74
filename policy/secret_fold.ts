/**
 * Folded text for matching secrets whatever a page's styling did to their letters: CSS
 * `text-transform` (`uppercase`, `lowercase`, `capitalize`, `full-width`) changes what
 * `innerText` reads, and a URL parser lower-cases a host name. A value is found in text when
 * its folded form is in the text's folded form; the spans found there are mapped back to the
 * text, so the original characters are what a mask replaces.
 *
 * The fold of a cluster (a character and the combining marks after it) is its NFKC form
 * (full-width and compatibility forms to their plain letters, `ﬁ` to `fi`), upper-cased and
 * then lower-cased (so `ß` and `SS` fold alike, as `uppercase` turns one into the other).
 *
 * @module
 */

/**
 * A cluster that needs folding one by one: a character with combining marks after it, or a
 * non-ASCII character (runs of plain ASCII between are lower-cased whole: fast).
 */
const CLUSTER = /[^]?\p{M}+|[\u{80}-\u{10ffff}]/gu;
const NON_ASCII = /[\u{80}-\u{10ffff}]/u;

/** The folded form of `text` (see the module doc). */
export function fold(text: string): string {
  return foldWithMap(text).folded;
}

/** Folds of clusters seen (a text repeats few distinct ones), bounded. */
const folds = new Map<string, string>();

/** One cluster folded. */
function foldCluster(c: string): string {
  let f = folds.get(c);
  if (f === undefined) {
    f = c.normalize("NFKC").toUpperCase().toLowerCase();
    if (folds.size >= 4096) folds.clear();
    folds.set(c, f);
  }
  return f;
}

/**
 * `text` folded, and for each UTF-16 unit of the folded text the offset in `text` of the
 * cluster it came from (one more entry: `text.length`); `at` is undefined when each unit
 * stays where it was (ASCII text: only the case changes).
 */
export function foldWithMap(text: string): { folded: string; at: number[] | undefined } {
  if (!NON_ASCII.test(text)) return { folded: text.toLowerCase(), at: undefined };
  // Only characters that fold to themselves besides ASCII (zero-width spaces, lower-case
  // letters): only the ASCII letters change, in place (checked whole: native, fast).
  const lower = text.toLowerCase();
  if (
    lower.length === text.length && text.normalize("NFKC").toUpperCase().toLowerCase() === lower
  ) {
    return { folded: lower, at: undefined };
  }
  let folded = "";
  const at: number[] = [];
  let last = 0;
  const plain = (end: number) => {
    folded += text.slice(last, end).toLowerCase();
    for (let i = last; i < end; i++) at.push(i);
  };
  for (const m of text.matchAll(CLUSTER)) {
    plain(m.index);
    const f = foldCluster(m[0]);
    folded += f;
    for (let i = 0; i < f.length; i++) at.push(m.index);
    last = m.index + m[0].length;
  }
  plain(text.length);
  at.push(text.length);
  return { folded, at };
}

/**
 * A span `[s, e)` of folded text as the span of the text it came from: from its first
 * unit's cluster to the end of its last unit's cluster (a cluster folded into several units,
 * `ﬁ` → `fi`, is covered whole when any of them is).
 */
export function foldedSpanBack(s: number, e: number, at: readonly number[]): [number, number] {
  const start = at[s]!;
  // The end of the last unit's cluster: the next offset past it.
  const last = at[e - 1]!;
  let end = e;
  while (end < at.length - 1 && at[end] === last) end++;
  return [start, at[end]!];
}

/**
 * The host name a URL parser makes of `value` (lower case; IDNA: full-width folded,
 * non-ASCII as punycode `xn--…`) when that differs from its {@link fold}, or undefined (the
 * same, or a value that cannot be a host name).
 */
export function hostForm(value: string): string | undefined {
  if (/[\s:/?#@\\[\]%]/u.test(value)) return undefined;
  const url = new URL("http://h.invalid/");
  url.hostname = value; // an invalid host is ignored, not thrown
  const host = url.hostname;
  return host !== "h.invalid" && host !== fold(value) ? host : undefined;
}
