/**
 * Fitting an audit line under its size cap. A call's arguments are the
 * client's to choose: a 9 MB argument must not become a 9 MB audit line. The
 * entry handed in is already redacted and masked, so cutting it can never
 * leave half a secret behind.
 *
 * @module
 */

/** Longest audit line, UTF-8 bytes, its `"\n"` included. */
export const MAX_AUDIT_LINE_BYTES = 16 * 1024;

/** Deepest nesting an audit line keeps; deeper values become a marker. */
const MAX_DEPTH = 12;

const encoder = new TextEncoder();

/** UTF-8 length of `text`, bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** Fields cut last, in this order: what the call asked for is the bulky part. */
const BULKY = ["reason", "confirms", "args"];

/** `s` cut to `n` chars (never between the halves of a surrogate pair), saying how much went. */
function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  let keep = Math.max(0, n);
  const last = s.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep--;
  return `${s.slice(0, keep)}…[${s.length - keep} more chars]`;
}

/**
 * A copy of `value` spending at most about `budget.left` chars: each string
 * cut to `perString` chars, arrays and objects cut once the budget is spent
 * (a last item or key says how many more there were), nesting cut at
 * {@link MAX_DEPTH}.
 */
function shrink(
  value: unknown,
  budget: { left: number },
  perString: number,
  depth = 0,
): unknown {
  if (typeof value === "string") {
    const s = cut(value, Math.min(perString, Math.max(16, budget.left)));
    budget.left -= s.length + 2;
    return s;
  }
  if (!value || typeof value !== "object") {
    budget.left -= 8;
    return value;
  }
  if (depth >= MAX_DEPTH) {
    budget.left -= 24;
    return `[nested deeper than ${MAX_DEPTH} levels]`;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, v] of value.entries()) {
      if (budget.left <= 0) {
        out.push(`…[${value.length - i} more items]`);
        break;
      }
      out.push(shrink(v, budget, perString, depth + 1));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value);
  for (const [i, [k, v]] of entries.entries()) {
    if (budget.left <= 0) {
      out["…"] = `[${entries.length - i} more keys]`;
      break;
    }
    const key = cut(k, 64);
    budget.left -= key.length + 3;
    out[key] = shrink(v, budget, perString, depth + 1);
  }
  return out;
}

/**
 * `entry` as one line of at most `maxBytes` UTF-8 bytes: unchanged when it
 * fits; otherwise with strings, arrays and objects cut (small fields first,
 * then `reason`, `confirms`, `args`), `truncated: true` and `originalBytes`
 * (the uncut line's size) added. Always valid JSON ending in `"\n"`.
 */
export function fitAuditLine(entry: Record<string, unknown>, maxBytes: number): string {
  const line = JSON.stringify(entry) + "\n";
  const originalBytes = utf8Length(line);
  if (originalBytes <= maxBytes) return line;
  // Budgets in chars: a char may take up to 6 bytes (a JSON-escaped control
  // char), so each round halves until the line fits.
  for (let budget = Math.floor(maxBytes * 0.8); budget >= 256; budget = Math.floor(budget / 2)) {
    const left = { left: budget };
    const perString = Math.max(32, Math.min(1000, Math.floor(budget / 8)));
    const keys = Object.keys(entry);
    const order = [...keys.filter((k) => !BULKY.includes(k)), ...BULKY.filter((k) => k in entry)];
    const shrunk: Record<string, unknown> = {};
    for (const k of order) shrunk[k] = shrink(entry[k], left, perString);
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = shrunk[k];
    const fitted = JSON.stringify({ ...out, truncated: true, originalBytes }) + "\n";
    if (utf8Length(fitted) <= maxBytes) return fitted;
  }
  // Unreachable for sane caps; still a line that parses, whatever the entry held.
  const keep: Record<string, unknown> = {};
  for (const k of ["time", "callId", "phase", "tool", "decision", "ok", "error", "durationMs"]) {
    if (k in entry) keep[k] = shrink(entry[k], { left: 64 }, 64);
  }
  return JSON.stringify({ ...keep, args: "[omitted]", truncated: true, originalBytes }) + "\n";
}
