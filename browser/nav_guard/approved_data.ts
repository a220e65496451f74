/**
 * What a human approved a form to send, held to at the request (red team s14 #2): the page
 * may change the data after the facts were read again (a `submit`, `formdata` or
 * `pointerdown` listener added while the person read rewrites it as it is sent), so the
 * navigation guard compares the paused submission's method, URL and entries with the ways of
 * sending the approved state allowed (`formSendData`, browser/injected/form_submit_lib.ts).
 * Pure functions.
 *
 * @module
 */
import type { SendCandidate } from "../injected/form_types.ts";
import { withoutFragment } from "./blocked_page.ts";

/** Line breaks as one (the browser sends a textarea's `\n` as `\r\n`). */
const lines = (s: string) => s.replace(/\r\n?/g, "\n");

/**
 * The entries a submission carries: a GET's query; a POST body as its `content-type` says
 * (`application/x-www-form-urlencoded`, `multipart/form-data` — a file part as
 * `"\u0000file:NAME"` —, `text/plain`). Undefined for another type (a script's JSON).
 */
export function sentEntries(
  method: string,
  url: string,
  body: string,
  contentType: string | undefined,
): Array<[string, string]> | undefined {
  if (method.toUpperCase() === "GET") return [...new URL(url).searchParams];
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return [...new URLSearchParams(body)];
  }
  if (type.startsWith("text/plain")) {
    return body.split("\r\n").slice(0, -1).map((l) => {
      const at = l.indexOf("=");
      return at < 0 ? [l, ""] : [l.slice(0, at), l.slice(at + 1)];
    });
  }
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!type.startsWith("multipart/form-data") || !boundary) return undefined;
  return multipartEntries(body, boundary[1] ?? boundary[2]!);
}

/** A `multipart/form-data` body's entries (names unescaped as the HTML standard escapes them). */
function multipartEntries(body: string, boundary: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const unescape = (s: string) =>
    s.replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith("--")) break;
    const end = part.indexOf("\r\n\r\n");
    if (end < 0) continue;
    const head = part.slice(0, end);
    const name = /\bname="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const file = /\bfilename="([^"]*)"/i.exec(head)?.[1];
    out.push([
      unescape(name),
      file !== undefined ? `\u0000file:${unescape(file)}` : part.slice(end + 4, -2),
    ]);
  }
  return out;
}

/** An entry list. */
export type Entries = ReadonlyArray<readonly [name: string, value: string]>;

/** `entries` to compare: line breaks as one, an image button's coordinates left out. */
function comparable(entries: Entries, image?: string): Entries {
  const coords = image === undefined ? undefined : new Set([`${image}.x`, `${image}.y`]);
  return entries.filter(([n]) => !coords?.has(n)).map(([n, v]) => [n, lines(v)] as const);
}

/**
 * Why a submission (`method` to `url`, with `entries`) is none of the `approved` ways of
 * sending: undefined when one of them has its destination (as `approvedSend` judges it) and
 * exactly its entries, in order; else the changes from the closest (same destination first):
 * field names only, never values (a value may be a secret).
 */
export function dataChanges(
  approved: readonly SendCandidate[],
  request: { method: string; url: string; entries: Entries | undefined },
): string[] | undefined {
  const { method, url, entries } = request;
  const there = approved.filter((c) => approvedSend([c.to], method, url));
  if (entries === undefined) {
    return there.length ? ["its data could not be read to compare"] : undefined;
  }
  let closest: string[] | undefined;
  for (const c of there) {
    const changes = entryChanges(comparable(c.entries, c.image), comparable(entries, c.image));
    if (!changes.length) return undefined;
    if (!closest || changes.length < closest.length) closest = changes;
  }
  return closest ?? ["it went where none of the approved forms sends"];
}

/**
 * The names of entries added, gone or with another value between two entry lists, or "the
 * fields are in another order" when only the order differs; empty when equal. Values are
 * never quoted.
 */
export function entryChanges(was: Entries, now: Entries): string[] {
  const byName = (list: Entries) => {
    const m = new Map<string, string[]>();
    for (const [name, value] of list) m.set(name, [...m.get(name) ?? [], value]);
    return m;
  };
  const w = byName(was), n = byName(now);
  const out: string[] = [];
  for (const [name, values] of w) {
    const other = n.get(name);
    if (!other) out.push(`"${name}" gone`);
    else if (values.join("\u0000") !== other.join("\u0000")) {
      out.push(`"${name}" has another value`);
    }
  }
  for (const name of n.keys()) if (!w.has(name)) out.push(`"${name}" added`);
  // Same names and values in another order: the data sent is in another order.
  const flat = (list: Entries) => list.map(([n, v]) => `${n}\u0000${v}`).join("\u0001");
  if (!out.length && flat(was) !== flat(now)) out.push("the fields are in another order");
  return out;
}

/**
 * Whether a form submission (`method` to `url`) is one of the `approved` destinations
 * (`"METHOD url"`): a POST to the same URL (its query too: `/donate?amount=5`), a GET to the
 * same URL but its query (the browser writes the fields there). Fragments do not count.
 */
export function approvedSend(approved: readonly string[], method: string, url: string): boolean {
  const m = method.toUpperCase();
  const bare = (u: string) => m === "GET" ? withoutFragment(u).split("?")[0]! : withoutFragment(u);
  return approved.some((a) => {
    const at = a.indexOf(" ");
    return a.slice(0, at) === m && bare(a.slice(at + 1)) === bare(url);
  });
}
