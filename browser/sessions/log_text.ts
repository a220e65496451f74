/**
 * The texts of log entries: a cut to a length that never keeps a prefix of a secret's value
 * ({@link capText}), and a console call's arguments as one text ({@link argsText}).
 *
 * @module
 */
import type { Protocol } from "../../cdp/types.ts";

/**
 * Longest console text kept per entry, characters: a page chooses what it
 * logs, and the server holds 1000 entries per session.
 */
export const MAX_ENTRY_CHARS = 16 * 1024;

/**
 * Where secrets' values occur in a text: `[start, end)` UTF-16 offsets (the
 * secret store's `spans`, passed down so this layer needs no policy).
 */
export type SecretSpans = (text: string) => Array<[number, number]>;

/**
 * `text` cut to `max` characters with a `[… N more chars]` marker, copied so
 * the kept part does not pin the whole string (V8 slices share their parent).
 * A cut that would fall inside a secret's value (`spans`) is moved to before
 * it: a kept prefix of a value is not masked later, and would confirm a
 * guess. Only whole values move the cut, so what is kept never depends on
 * whether a partial guess is right.
 */
export function capText(text: string, max = MAX_ENTRY_CHARS, spans?: SecretSpans): string {
  if (text.length <= max) return text;
  let end = max;
  // Never end on half a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  for (const [start, stop] of spans?.(text) ?? []) {
    if (start < end && stop > end) end = start;
  }
  const kept = JSON.parse(JSON.stringify(text.slice(0, end))) as string;
  return `${kept}[… ${text.length - end} more chars]`;
}

/** The console args as one text, built no longer than {@link MAX_ENTRY_CHARS} (plus marker). */
export function argsText(args: Protocol.Runtime.RemoteObject[], spans?: SecretSpans): string {
  const parts: string[] = [];
  let length = 0;
  let more = 0;
  for (const arg of args) {
    const t = capText(remoteText(arg), MAX_ENTRY_CHARS, spans);
    const piece = parts.length ? ` ${t}` : t;
    if (length >= MAX_ENTRY_CHARS) {
      more += piece.length;
      continue;
    }
    parts.push(piece);
    length += piece.length;
  }
  const text = capText(parts.join(""), MAX_ENTRY_CHARS, spans);
  if (!more) return text;
  // capText already marked a cut: add the args left out to its count.
  const m = /\[… (\d+) more chars\]$/.exec(text);
  return m
    ? `${text.slice(0, m.index)}[… ${Number(m[1]) + more} more chars]`
    : `${text}[… ${more} more chars]`;
}

function remoteText(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === "string") return String(arg.value);
  if (arg.unserializableValue) return arg.unserializableValue;
  if (arg.value !== undefined) {
    return typeof arg.value === "object" ? JSON.stringify(arg.value) : String(arg.value);
  }
  if (arg.preview?.properties && arg.type === "object" && arg.subtype !== "error") {
    const props = arg.preview.properties.map((p) => `${p.name}: ${p.value ?? p.type}`).join(", ");
    return arg.subtype === "array" ? `[${props}]` : `{${props}}`;
  }
  return arg.description ?? arg.type;
}
