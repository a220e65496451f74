/**
 * What the human asked to approve a form's send reads of its data (red team s15 #6): the
 * names and values are the page's, so each is quoted JSON-style with invisible and control
 * characters written out (`"\u200bamount"`), never text that reads as the question's own; and
 * no field that matters can hide behind "and 29 more": the whole list is shown within a bound a
 * person can read, else the fields a person does not see and the values that occur once come
 * first, and what is left out is counted (how many, how many hidden, their commonest values).
 * Pure functions.
 *
 * @module
 */
import type { SendCandidate } from "../injected/form_types.ts";

/** Most fields the question lists. */
const MAX_FIELDS = 24;
/** Most characters of fields the question lists. */
const MAX_CHARS = 1_200;
/** Longest value (or name) shown, code points; a longer one is cut, marked `…`. */
const VALUE_CUT = 60;

/** Characters a person cannot see, or that move the text: written out as `\uXXXX`. */
const INVISIBLE =
  /(?! )[\p{Cc}\p{Cf}\p{DI}\p{Zl}\p{Zp}\p{Zs}\p{Co}\u2800\u115f\u1160\u3164\uffa0]/gu;

/**
 * `text` quoted as JSON quotes it, and every invisible, space-like (but the plain space) or
 * control character written as its escape, so none reads as another or as nothing. Pure.
 */
export function quoted(text: string): string {
  return visible(JSON.stringify(text));
}

/** `text` with every invisible, space-like or control character written as its escape. Pure. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, "0")}`;
  });
}

/** `text` quoted ({@link quoted}), cut at `max` code points (a `…` after the quote says so). */
function shownText(text: string, max = VALUE_CUT): string {
  const cps = [...text];
  return cps.length > max ? `${quoted(cps.slice(0, max).join(""))}…` : quoted(text);
}

/**
 * The data the control acted on sends (its first way, `SendFacts.data`), for the question:
 * `form 1 by button#go "Donate $5": POST https://host/donate (2 fields: "note": "hi",
 * "amount": "5" (hidden))`. Password fields show `••••`, a file its name; each name and value
 * is masked by `mask` (the secrets) first, then quoted and cut. At most {@link MAX_FIELDS}
 * fields, {@link MAX_CHARS} characters: past that, hidden fields and values that occur once
 * first (in form order), and the rest counted.
 */
export function dataShown(
  data: readonly SendCandidate[] | undefined,
  mask: (s: string) => string,
): string | undefined {
  const c = data?.[0];
  if (!c) return undefined;
  const secret = new Set(c.secret ?? []);
  const hidden = new Set(c.hidden ?? []);
  const fields = c.entries.map(([n, v], i) => {
    const value = secret.has(n)
      ? "••••"
      : v.startsWith("\u0000file:")
      ? `file ${shownText(mask(v.slice(6)))}`
      : shownText(mask(v));
    const text = `${shownText(mask(n))}: ${value}${hidden.has(n) ? " (hidden)" : ""}`;
    return { i, text, value, hidden: hidden.has(n) };
  });
  // The button's description is the page's too (its id, its label, already quoted).
  const head = `form ${c.form + 1}${c.by ? ` by ${visible(c.by)}` : ""}: ${visible(c.to)}`;
  const count = `${fields.length} field${fields.length === 1 ? "" : "s"}`;
  if (!fields.length) return `${head} (no fields)`;
  const chars = (list: typeof fields) => list.reduce((n, f) => n + f.text.length + 2, 0);
  if (fields.length <= MAX_FIELDS && chars(fields) <= MAX_CHARS) {
    return `${head} (${count}: ${fields.map((f) => f.text).join(", ")})`;
  }
  // Too many to read: what a page would hide among padding goes first.
  const times = new Map<string, number>();
  for (const f of fields) times.set(f.value, (times.get(f.value) ?? 0) + 1);
  const order = [...fields].sort((a, b) =>
    (times.get(a.value)! > 1 ? 1 : 0) - (times.get(b.value)! > 1 ? 1 : 0) ||
    Number(b.hidden) - Number(a.hidden) || a.i - b.i
  );
  const shown: typeof fields = [];
  let used = 0;
  for (const f of order) {
    if (shown.length >= MAX_FIELDS || used + f.text.length + 2 > MAX_CHARS) break;
    shown.push(f);
    used += f.text.length + 2;
  }
  const left = fields.filter((f) => !shown.includes(f));
  const leftHidden = left.filter((f) => f.hidden).length;
  const common = [...new Set(left.map((f) => f.value))]
    .map((v) => [v, left.filter((f) => f.value === v).length] as const)
    .sort((a, b) => b[1] - a[1]).slice(0, 3)
    .map(([v, n]) => `${v.length > 24 ? `${v.slice(0, 24)}…` : v} ×${n}`);
  return `${head} (${count}; ${shown.length} shown, hidden fields and values that occur once ` +
    `first: ${shown.sort((a, b) => a.i - b.i).map((f) => f.text).join(", ")}; ` +
    `${left.length} NOT SHOWN (${leftHidden} of them hidden; values ${common.join(", ")}))`;
}
