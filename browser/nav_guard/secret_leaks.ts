/**
 * Finds a bound secret (`NAME@origin=value` in the secrets file) in a
 * request going to an origin the secret is not bound to: the navigation
 * guard fails such a request, whoever sends it (a form the agent declared,
 * a page script), so a value filled on one origin never leaves for another.
 *
 * Looked for in the URL, the body and every request header, as typed and in the forms a
 * browser sends: percent-encoded (URL), form-encoded (`+` for space), JSON-escaped, and the
 * cheap transforms of its bytes: hex (either case) and UTF-16 (either byte order), all in
 * any letter case (a URL parser lower-cases a value put in a host name; its IDNA form,
 * punycode, too: red team s17 F4); and in
 * the URL, body and headers percent-decoded once and twice (`%48unter2`, `%2f` in either
 * case, `%2548`: a server decodes those to the value). A page that transforms the value
 * otherwise first (base64, reversed, enciphered) is not caught.
 *
 * @module
 */
import { MIN_MASK_LENGTH, type SecretStore } from "../../policy/secrets.ts";
import { hostForm } from "../../policy/secret_fold.ts";
import type { BlockedNavigation } from "./nav_guard_types.ts";

/**
 * Returns the name of a secret `url`, `body` or `headers` (name → value, as CDP's
 * `Fetch.requestPaused` gives them) carry off its origins, or undefined.
 */
export type SecretLeakFinder = (
  url: string,
  body: string,
  headers?: Readonly<Record<string, string>>,
) => string | undefined;

/** The forms of `value` a request may carry. */
function formsOf(value: string): string[] {
  const utf8 = new TextEncoder().encode(value);
  const hex = [...utf8].map((b) => b.toString(16).padStart(2, "0")).join("");
  // UTF-16 bytes as the guard reads a body (UTF-8 decoding, `bodyOf`): "H\0u\0n\0…" for
  // ASCII, whatever the decoder makes of the rest.
  const utf16 = (le: boolean) => {
    const bytes = new Uint8Array(value.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < value.length; i++) view.setUint16(i * 2, value.charCodeAt(i), le);
    return new TextDecoder().decode(bytes);
  };
  const host = hostForm(value);
  const forms = new Set([
    value,
    ...(host !== undefined ? [host] : []),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    hex,
    hex.toUpperCase(),
    utf16(true),
    utf16(false),
  ]);
  // Compared in lower case (with the text lower-cased): a URL parser lower-cases a host name.
  return [...new Set([...forms].map((f) => f.toLowerCase()))];
}

/**
 * A finder over `store`'s bound secrets (values under {@link MIN_MASK_LENGTH}
 * characters are skipped: too short to tell from ordinary text), or
 * undefined when none is bound.
 */
export function secretLeakFinder(store: SecretStore | undefined): SecretLeakFinder | undefined {
  const bound = (store?.bound() ?? []).filter((b) => b.value.length >= MIN_MASK_LENGTH)
    .map((b) => ({ ...b, forms: formsOf(b.value) }));
  if (!bound.length) return undefined;
  return (url, body, headers = {}) => {
    let origin: string;
    try {
      // A WebSocket to a bound origin's host goes to that origin (ws: is http:, wss: https:).
      origin = new URL(url.replace(/^ws(s?):/i, "http$1:")).origin;
    } catch {
      return undefined;
    }
    const off = bound.filter((b) => !b.origins.includes(origin));
    if (!off.length) return undefined;
    const raw = [url, body, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    // Decoded as a server would: `%xx`, and `+` as a space too (a form's body, a query); and
    // once more (`%2548`: a server, or the app behind it, may decode twice).
    const once = [
      ...raw.filter((t) => t.includes("%")).map(percentDecoded),
      ...raw.filter((t) => t.includes("+")).map((t) => percentDecoded(t.replaceAll("+", " "))),
    ];
    const texts = [...raw, ...once, ...once.filter((t) => t.includes("%")).map(percentDecoded)]
      .map((t) => t.toLowerCase());
    for (const b of off) {
      if (b.forms.some((f) => texts.some((t) => t.includes(f)))) return b.name;
    }
    return undefined;
  };
}

/**
 * `text` with every `%xx` (either case) turned into its byte, once, the bytes read as UTF-8
 * (a malformed sequence becomes U+FFFD; a `%` not followed by two hex digits stays): what a
 * server makes of a URL or form body however the page chose to escape it.
 */
export function percentDecoded(text: string): string {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  let from = 0;
  const add = (bytes: Uint8Array) => {
    parts.push(bytes);
    size += bytes.length;
  };
  for (const m of text.matchAll(/%([0-9a-fA-F]{2})/g)) {
    add(encoder.encode(text.slice(from, m.index)));
    add(Uint8Array.of(parseInt(m[1]!, 16)));
    from = m.index + 3;
  }
  add(encoder.encode(text.slice(from)));
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}

/** What the guard reads of a paused request. */
export type PausedRequest = {
  url: string;
  method: string;
  /** Name → value (CDP `Network.Headers`). */
  headers?: Record<string, string>;
  postData?: string;
  postDataEntries?: Array<{ bytes?: string }>;
};

/** A request's body as text (`postData`, else its base64 entries; "" when none). */
export function bodyOf(request: PausedRequest): string {
  if (request.postData !== undefined) return request.postData;
  const decoder = new TextDecoder();
  return (request.postDataEntries ?? []).map((x) =>
    x.bytes ? decoder.decode(Uint8Array.from(atob(x.bytes), (c) => c.charCodeAt(0))) : ""
  ).join("");
}

/** The report of a request refused for carrying a bound secret elsewhere. */
export function leakBlocked(url: string, frameId: string, secret: string): BlockedNavigation {
  return {
    url,
    reason: "site",
    frameId,
    form: true,
    secret,
    why: `it carries the secret ${secret}, bound to other origins`,
  };
}
