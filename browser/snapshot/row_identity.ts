/**
 * What tells a row's item from the same row changed in place, on the server side (the page's
 * side is `browser/injected/context_lib.ts`, the same rules): a context text's skeleton (its
 * counts, times and prices made equal, {@link sameSkeleton}) and its item's number
 * ({@link identityOf}, {@link keepsIdentity}).
 *
 * @module
 */

/**
 * A name or text without its white space: a section `content-visibility: auto` skips is read by
 * tags alone (no styles there), so an inline-block's spaces may differ from a later read.
 */
export const squash = (s: string): string => s.replace(/\s+/g, "");

/** A ref's context, kind and text (`RefContext` in refs.ts). */
export interface RowContext {
  kind: string;
  text: string;
}

// A token that ticks while its row stays the same item: a count, a time, a price, a size
// ("3s", "12:03", "5/140", "$12.50", "45%", "(3)"). Letters glued to digits (INV-1003, #1001,
// v2) are an item's name, not a count.
const VOLATILE =
  /^[([]?[+\-−]?[$€£¥]?\d[\d.,:/]*(ms|s|m|h|d|w|mo|y|min|mins|sec|secs|hr|hrs|k|K|M|B|%)?[)\],.;:]?$/;

/**
 * The first whole number of 3 digits or more in a context: the item's own number (an order's,
 * an invoice's, a build's), not a count that ticks. A red team's list re-used a row's nodes for
 * "Order 1011" where "Order 1001" was shown, and a click cancelled the other order. A comma or
 * a full stop may end it ("Order 1001, shipped"): still the item's, not a count.
 */
const IDENTIFIER = /^#?\d{3,}[,.;:]?$/;

/** A context text with its volatile tokens (counts, times, prices) made equal. */
function skeleton(text: string): string {
  let id = false;
  return text.replace(EXACT_HASH, "").split(" ").map((t) => {
    if (!id && IDENTIFIER.test(t)) return (id = true, t);
    return VOLATILE.test(t) ? "0" : t;
  }).join(" ");
}

// A long context's end, see RefContext: `… #hash~hash`, or `… NUMBER #hash~hash` (the item's
// number, past the shown part).
const HASHED = /… (?:(\S+) )?#[0-9a-z]+(?:~[0-9a-z]+)?$/;

// A long context's second hash, over its exact text (`… #skeleton~exact`): a skeleton leaves it
// out (its counts may tick), an exact comparison keeps it (rows "… line 3" / "… line 4").
const EXACT_HASH = /(?<=… (?:\S+ )?#[0-9a-z]+)~[0-9a-z]+$/;

/**
 * The row's item, as a word of its context text: the first that holds a run of 3 digits or
 * more and is no count, time or price ({@link IDENTIFIER} "1001", "#1001"; glued to letters,
 * "INV-1003"); undefined when the (shown part of the) text holds none.
 */
export function identityOf(text: string): string | undefined {
  return words(text).find((t) => /\d{3}/.test(t) && (IDENTIFIER.test(t) || !VOLATILE.test(t)));
}

// The words of a context text, the punctuation that ends a word left out; of a long one, its
// shown words (not the one the cut split, nor the hash) and the item's number after them.
function words(text: string): string[] {
  const m = HASHED.exec(text);
  const shown = m ? `${text.slice(0, m.index).replace(/\S*$/, "")} ${m[1] ?? ""}` : text;
  return shown.split(" ").filter(Boolean).map((t) => t.replace(/[,.;:]$/, ""));
}

/**
 * Whether a row's text `now` still shows the item `was` showed: a hover adds, drops or swaps
 * words around the item (actions revealed, a date for "2 days ago"), never the item's number
 * ({@link identityOf}) nor every word it was shown with. A row whose "Order 1001" reads
 * "Order 1011" once the pointer is on it, or whose "Alice Adams" reads "Erin Evans", is a node
 * re-used for another item (a red team's list re-rendered on pointermove). Words that are
 * counts, times or prices, or no letter or digit ("·"), are not the item's; `was` without any
 * word of its own keeps its item whatever `now` reads.
 */
export function keepsIdentity(was: string, now: string): boolean {
  const id = identityOf(was);
  const nowWords = words(now);
  if (id !== undefined && !nowWords.includes(id)) return false;
  const own = words(was).filter((w) => /[\p{L}\p{N}]/u.test(w) && !VOLATILE.test(w));
  return own.length === 0 || own.some((w) => nowWords.includes(w));
}

// What ticks on its own while a row shows the same thing: a time of day ("12:03", "9:41pm"), a
// duration ("3s", "5min", "2h"), a counter ("5/140"), and a number before a time or counter
// word ("3 min ago", "135 characters left"). Prices, amounts and other numbers do not.
const TICKS =
  /^[([]?(?:\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|\d+(?:\.\d+)?(?:ms|s|m|h|d|w|mo|y|min|mins|sec|secs|hr|hrs)|\d+\/\d+)[)\],.;:]?$/i;
const TICK_WORD =
  /^(?:ms|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|ago|characters?|chars?|words?|left|remaining)[)\],.;:]?$/i;

/**
 * A context text with what ticks on its own made equal (times, durations, counters: see
 * TICKS), every other word and number kept: what a row may change while a ref in it is acted
 * on without the agent being told (a price, count or amount that changed is told first:
 * resolve.ts checkLive). The page's twin is `context_lib.ts` (a long text's second hash is
 * taken over it).
 */
export function steady(text: string): string {
  const w = text.split(" ");
  return w.map((t, i) =>
    TICKS.test(t) || (/^\d+(?:\.\d+)?$/.test(t) && TICK_WORD.test(w[i + 1] ?? "")) ? "0" : t
  ).join(" ");
}

/**
 * Whether two contexts of the same skeleton ({@link sameSkeleton}) differ only in what ticks on
 * its own ({@link steady}): a clock, a "3s ago", a "5/140" counter; no price or amount.
 */
export function sameSteady(a: RowContext, b: RowContext): boolean {
  return a.kind === b.kind && steady(a.text) === steady(b.text);
}

/**
 * Whether a row's text `now` still reads every price, count or amount `was` read (what ticks on
 * its own left out: {@link steady}); words and numbers it added do not count. A hover that
 * reveals a row's actions or swaps "2 days ago" for a date keeps them; one that rewrote
 * "Gadget $5" as "Gadget $500" as the pointer arrived (a red team's page) does not.
 */
export function keepsValues(was: string, now: string): boolean {
  const nowWords = new Set(words(steady(now)));
  return words(steady(was)).every((w) => !/\d/.test(w) || w === "0" || nowWords.has(w));
}

/**
 * Whether two contexts are the same item's, whatever its counts, times and prices now read
 * (a "3s ago" that ticks, a "5/140" counter, a "♥ 12" after a like): same kind, and texts equal
 * but for tokens that are numbers (with a unit, a currency, a fraction or a time). A long text's
 * hash (`… #…`) is taken over the same skeleton on the page (`context_lib.ts`).
 */
export function sameSkeleton(a: RowContext | undefined, b: RowContext | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === b.kind && skeleton(a.text) === skeleton(b.text);
}
