/**
 * Parts of secrets in text: a run of at least {@link MIN_PART_LENGTH} characters of a
 * registered value (a page that copies what is left of an edited field into its text, a
 * prefix a `maxlength` kept), and text with format characters (Unicode `Cf`: zero-width
 * spaces and joiners, soft hyphens, bidi controls) between a value's characters. Pure
 * functions for `SecretStore` (secrets.ts).
 *
 * @module
 */
/**
 * Shortest run of a value's characters masked on its own (the whole value is masked from 4
 * characters): shorter runs are common words and would shred ordinary text.
 */
export const MIN_PART_LENGTH = 6;

/** A span of text to mask: `[start, end)` UTF-16 offsets and its mask. */
export type MaskSpan = [start: number, end: number, mask: string];

/** Where a gram of a value sits: the value, its mask, and the gram's offset in it. */
interface GramAt {
  value: string;
  mask: string;
  offset: number;
}

/**
 * Length of the grams looked up, and the step between the text's positions that are: every
 * run of {@link MIN_PART_LENGTH} (= 2 × 3) characters holds a whole gram starting at a
 * multiple of 3, so no run is missed.
 */
const GRAM = 3;

/** A 16-bit hash of the gram at `i` (a prefilter: exact grams are compared after). */
function gramHash(text: string, i: number): number {
  return ((text.charCodeAt(i) * 31 + text.charCodeAt(i + 1)) * 31 + text.charCodeAt(i + 2)) &
    0xffff;
}

/**
 * Finds runs of {@link MIN_PART_LENGTH} or more characters of registered values. Built once
 * per store from every value's 3-character grams; a text is probed at every third position
 * (a hash bit, then the exact gram), and each hit grown to the longest run of its value:
 * about 3 ms of CPU per MB of text with a few secrets.
 */
export class PartFinder {
  #grams = new Map<string, GramAt[]>();
  #bits = new Uint8Array(0x10000);

  /** @param values value → mask (`[secret:NAME]`); values shorter than the part length are skipped. */
  constructor(values: Iterable<[value: string, mask: string]>) {
    for (const [value, mask] of values) {
      if (value.length < MIN_PART_LENGTH) continue;
      for (let offset = 0; offset + GRAM <= value.length; offset++) {
        const g = value.slice(offset, offset + GRAM);
        const list = this.#grams.get(g) ?? [];
        list.push({ value, mask, offset });
        this.#grams.set(g, list);
        this.#bits[gramHash(value, offset)] = 1;
      }
    }
  }

  /** Whether any value is long enough to have parts. */
  get active(): boolean {
    return this.#grams.size > 0;
  }

  /** The longest runs of values' characters in `text`, in order, not overlapping. */
  spans(text: string): MaskSpan[] {
    const out: MaskSpan[] = [];
    if (!this.#grams.size) return out;
    const bits = this.#bits;
    let prevEnd = 0;
    for (let i = 0; i + GRAM <= text.length; i += GRAM) {
      if (i < prevEnd || !bits[gramHash(text, i)]) continue;
      let best: MaskSpan | undefined;
      for (const { value, mask, offset } of this.#grams.get(text.slice(i, i + GRAM)) ?? []) {
        let s = i;
        let k = offset;
        while (s > prevEnd && k > 0 && text[s - 1] === value[k - 1]) [s, k] = [s - 1, k - 1];
        let e = i + GRAM;
        let j = offset + GRAM;
        while (e < text.length && j < value.length && text[e] === value[j]) [e, j] = [e + 1, j + 1];
        if (e - s >= MIN_PART_LENGTH && (!best || e - s > best[1] - best[0])) best = [s, e, mask];
      }
      if (!best) continue;
      out.push(best);
      prevEnd = best[1];
    }
    return out;
  }
}

/** A format character (Unicode general category `Cf`): invisible, and ignored by a reader. */
const FORMAT = /\p{Cf}/u;
const FORMAT_ALL = /\p{Cf}/gu;

/** Whether `text` holds a format character. */
export function hasFormatChars(text: string): boolean {
  return FORMAT.test(text);
}

/**
 * `text` without its format characters, and for each of its UTF-16 units the offset in
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
