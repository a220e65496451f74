/**
 * Texts the page cut, cut again on the server where secrets are known.
 *
 * A page script cannot tell a secret's value from the text around it, so a
 * cut it makes may keep a value's prefix, which the mask later does not
 * recognize (`read_form` showed `…tttZq7-h…` of a field holding padding and
 * then the value). Injected code that cuts a text instead sends
 * {@link PAGE_CUT} + the length + {@link PAGE_CUT} + the text with some
 * slack past the cut (`formKit.cut`); {@link resolvePageCuts} makes the cut
 * here, before any secret's value that spans it, and adds the `…`.
 *
 * @module
 */

/** Marks a string the page wants cut: `\0<length>\0<text>`. */
export const PAGE_CUT = "\u0000";

/**
 * A copy of a JSON-like value in which every page-cut string is cut to its
 * length (moved to before a secret's value that spans it, per `spans`) and
 * ends in `…`. Other values are kept as they are (the same objects when
 * nothing was marked is not promised).
 *
 * @param spans Where secrets' values occur in a text (`SecretStore.spans`);
 *   absent: cut where the page asked.
 */
export function resolvePageCuts(
  value: unknown,
  spans?: (text: string) => Array<[number, number]>,
): unknown {
  if (typeof value === "string") {
    if (value.charCodeAt(0) !== 0) return value;
    const close = value.indexOf(PAGE_CUT, 1);
    const length = value.slice(1, close);
    if (close < 2 || close > 10 || !/^\d+$/.test(length)) return value;
    const text = value.slice(close + 1);
    let end = Number(length);
    if (text.length <= end) return text;
    for (const [start, stop] of spans?.(text) ?? []) {
      if (start < end && stop > end) end = start;
    }
    return text.slice(0, end) + "…";
  }
  if (Array.isArray(value)) return value.map((v) => resolvePageCuts(v, spans));
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = resolvePageCuts(v, spans);
  return out;
}
