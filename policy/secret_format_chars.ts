/**
 * Secrets in text with invisible characters between a value's characters: format characters
 * (Unicode `Cf`: zero-width spaces and joiners, soft hyphens, bidi controls), the other
 * default-ignorable code points (`Default_Ignorable_Code_Point`: the combining grapheme joiner
 * U+034F, variation selectors U+FE00–FE0F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0) and
 * the blank Braille pattern U+2800. A reader does not see them, so a value split by them reads
 * as the value. Pure functions for `SecretStore` (secrets.ts):
 * the text without them, and spans found there mapped back.
 *
 * Parts of values (runs of 6 characters, say) are deliberately not masked: the agent can put
 * any text on a page (a plain fill, an argument echoed in an error), and where a mask of a
 * part ends would confirm a guess one character at a time from a known prefix (`sk-live-`).
 *
 * @module
 */
/** A span of text to mask: `[start, end)` UTF-16 offsets and its mask. */
export type MaskSpan = [start: number, end: number, mask: string];

/**
 * An invisible character: a format character (general category `Cf`), a default-ignorable
 * code point (`\p{DI}`, which holds letters and marks that render as nothing), or U+2800 (a
 * symbol, not default-ignorable, that renders blank). Each is ignored by a reader.
 */
const FORMAT = /[\p{Cf}\p{DI}\u2800]/u;
const FORMAT_ALL = /[\p{Cf}\p{DI}\u2800]/gu;

/** Whether `text` holds an invisible character (see {@link FORMAT}). */
export function hasFormatChars(text: string): boolean {
  return FORMAT.test(text);
}

/**
 * `text` without its invisible characters (see {@link FORMAT}), and for each of its UTF-16 units the offset in
 * `text` it came from (one more entry: `text.length`, the end).
 */
export function withoutFormatChars(text: string): { stripped: string; at: number[] } {
  const at: number[] = [];
  let stripped = "";
  let last = 0;
  for (const m of text.matchAll(FORMAT_ALL)) {
    for (let i = last; i < m.index; i++) at.push(i);
    stripped += text.slice(last, m.index);
    last = m.index + m[0].length;
  }
  for (let i = last; i < text.length; i++) at.push(i);
  stripped += text.slice(last);
  at.push(text.length);
  return { stripped, at };
}

/**
 * Spans of the stripped text (see {@link withoutFormatChars}) as spans of the text it came
 * from: each covers from its first character to its last (the format characters between).
 */
export function spansBack(spans: readonly MaskSpan[], at: readonly number[]): MaskSpan[] {
  return spans.map(([s, e, mask]) => [at[s]!, at[e - 1]! + 1, mask]);
}

/** `text` with each span (in order, not overlapping) replaced by its mask. */
export function replaceSpans(text: string, spans: readonly MaskSpan[]): string {
  if (!spans.length) return text;
  let out = "";
  let last = 0;
  for (const [s, e, mask] of spans) {
    out += text.slice(last, s) + mask;
    last = e;
  }
  return out + text.slice(last);
}

/** Spans merged into one sorted list with no overlaps (an overlap keeps the first's mask). */
export function mergeSpans(spans: MaskSpan[]): MaskSpan[] {
  const sorted = spans.toSorted((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: MaskSpan[] = [];
  for (const span of sorted) {
    const prev = out.at(-1);
    if (prev && span[0] < prev[1]) prev[1] = Math.max(prev[1], span[1]);
    else out.push([...span]);
  }
  return out;
}
