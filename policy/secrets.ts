/**
 * Secrets (`BROWX_SECRETS`): values the agent may fill into pages by name
 * (`{{secret:NAME}}`) without ever seeing them. Pure functions over data:
 * parsing the dotenv-style file, substituting placeholders, and masking
 * every registered value in whatever a tool returns.
 *
 * Nothing here ever puts a value into an error message or a warning: they
 * name lines and names only. The file's parsing is in `secrets_file.ts`.
 *
 * @module
 */
import { escapeRegExp, valuePattern } from "./secret_forms.ts";
import { cookieReachesOrigin, fillOriginAllowed } from "./secret_origins.ts";
import { fold, foldedSpanBack, foldWithMap, hostForm } from "./secret_fold.ts";
import {
  hasFormatChars,
  type MaskSpan,
  mergeSpans,
  replaceSpans,
  spansBack,
  withoutFormatChars,
} from "./secret_format_chars.ts";

/** A secret's name: letters, digits and `_`, not starting with a digit. */
export const SECRET_NAME: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Values shorter than this are substituted but never masked: masking "ab"
 * or "1" would shred every result (and tell the agent the value by where
 * the masks fall).
 */
export const MIN_MASK_LENGTH = 4;

/**
 * A placeholder: `{{secret:NAME}}`. Anything between `{{secret:` and `}}`
 * counts, so a mistyped name is reported instead of filled as literal text.
 */
const PLACEHOLDER = /\{\{secret:([^{}]*)\}\}/g;

/** A mask as {@link SecretStore} writes it. */
const MASK = /\[secret:[A-Za-z_][A-Za-z0-9_]*\]/;

export class UnknownSecretError extends Error {
  /** The name as written in the placeholder. */
  readonly secretName: string;
  /** The registered names, sorted. */
  readonly known: readonly string[];
  constructor(secretName: string, known: readonly string[]) {
    super(
      `Unknown secret "${secretName}": ${
        known.length ? `known names are ${known.join(", ")}` : "no secrets are registered"
      }`,
    );
    this.name = "UnknownSecretError";
    this.secretName = secretName;
    this.known = known;
  }
}

/** True when `text` holds at least one `{{secret:…}}` placeholder. */
export function hasPlaceholder(text: string): boolean {
  return text.includes("{{secret:") && new RegExp(PLACEHOLDER.source).test(text);
}

/** The placeholders in `text`, in order, e.g. `["{{secret:PW}}"]`. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[0]);
}

/**
 * Replaces every `{{secret:NAME}}` in `text` with its value.
 *
 * @throws UnknownSecretError for a name not in `secrets` (the error lists
 *   the registered names, never values).
 */
export function substituteSecrets(
  text: string,
  secrets: ReadonlyMap<string, string>,
  escape: (value: string) => string = (v) => v,
): string {
  if (!text.includes("{{secret:")) return text;
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = secrets.get(name);
    if (value === undefined) throw new UnknownSecretError(name, [...secrets.keys()].sort());
    return escape(value);
  });
}

/**
 * The registered secrets of a server: substitutes placeholders and masks
 * values. Masking replaces each value with `[secret:NAME]` — as is, and in
 * the forms honest pages and browsers produce (see {@link valuePattern}):
 * JSON-escaped up to three times (a page's JSON string inside a JSON string,
 * in a result's JSON text), percent-encoded (hex in either case; by
 * `encodeURIComponent`, `encodeURI`, or the form encoding of
 * `application/x-www-form-urlencoded` and `URLSearchParams`, which also
 * encodes `! ' ( ) ~` and writes a space as `+`), HTML-escaped (named or
 * numeric references, `&#33;` / `&#x21;`, for any character) — in one
 * pass, longest value first, so a value inside another value, or inside a
 * mask, is never half-replaced. Values shorter than {@link MIN_MASK_LENGTH}
 * are not masked.
 *
 * Values split by invisible characters (zero-width spaces, U+034F, U+3164: see
 * secret_format_chars.ts) are masked too, and so are values whose case or
 * width was changed (CSS `text-transform`, a URL parser lower-casing or
 * punycoding a host name): they are looked for in folded text too
 * (secret_fold.ts; the original characters are replaced). Otherwise masking
 * matches the value's characters: a page or a script that transforms a value (reverses
 * it, spaces it out, base64s it), or shows only part of it
 * (a prefix cut by `maxlength`), defeats it (browxai's own caps mask first, or cut before a value: see
 * `capText` in browser/sessions/page_logs.ts); so does a legacy charset (a
 * windows-1252 page form-encodes "ä" as `%E4`, not UTF-8's `%C3%A4`). It
 * keeps values out of what an agent reads by accident; it is not a sandbox.
 */
export class SecretStore {
  #secrets: ReadonlyMap<string, string>;
  #origins: ReadonlyMap<string, readonly string[]>;
  /** The values as written, and their folded forms (secret_fold.ts). */
  #exact: Matcher | undefined;
  #folded: Matcher | undefined;

  /**
   * @param secrets name → value (see {@link parseSecretsFile}).
   * @param options.origins name → the origins the secret may be filled into
   *   (absent names: anywhere).
   */
  constructor(
    secrets: ReadonlyMap<string, string> = new Map(),
    options: { origins?: ReadonlyMap<string, readonly string[]> } = {},
  ) {
    this.#secrets = new Map(secrets);
    this.#origins = new Map(options.origins ?? []);
    const long = [...this.#secrets].filter(([, value]) => value.length >= MIN_MASK_LENGTH);
    this.#exact = matcherOf(long.map(([name, value]) => [value, name]));
    // Folded (text-transform, full-width), and the IDNA form a URL parser makes of a value
    // put in a host name (lower case, punycode).
    const folded: Array<[string, string]> = [];
    for (const [name, value] of long) {
      folded.push([fold(value), name]);
      const host = hostForm(value);
      if (host !== undefined && host.length >= MIN_MASK_LENGTH) folded.push([host, name]);
    }
    this.#folded = matcherOf(folded);
  }

  /** The registered names, sorted. */
  get names(): string[] {
    return [...this.#secrets.keys()].sort();
  }

  /** Number of registered secrets. */
  get size(): number {
    return this.#secrets.size;
  }

  /** True when at least one value is long enough to be masked. */
  get masks(): boolean {
    return this.#exact !== undefined;
  }

  /**
   * The names of the bound secrets a frame of `origin` may receive, sorted: where a page may
   * hold a filled value that must not leave it. (An unbound secret may be filled anywhere: no
   * origin keeps it.)
   */
  boundAt(origin: string): string[] {
    return this.#boundNames((origins) => fillOriginAllowed(origins, origin));
  }

  /**
   * The names of the bound secrets a page reached by a cookie of `domain` may hold, sorted. See
   * {@link cookieReachesOrigin}.
   */
  boundUnderCookie(domain: string): string[] {
    return this.#boundNames((origins) => origins.some((o) => cookieReachesOrigin(domain, o)));
  }

  #boundNames(test: (origins: readonly string[]) => boolean): string[] {
    return [...this.#origins].filter(([n, o]) => this.#secrets.has(n) && test(o)).map(([n]) => n)
      .sort();
  }

  /** The origins `name` may be filled into, or undefined when it is not bound. */
  originsOf(name: string): readonly string[] | undefined {
    return this.#origins.get(name);
  }

  /**
   * Every bound secret: its name, value and the origins it may be filled
   * into (the navigation guard refuses requests carrying it elsewhere).
   */
  bound(): Array<{ name: string; value: string; origins: readonly string[] }> {
    return [...this.#origins].map(([name, origins]) => ({
      name,
      value: this.#secrets.get(name) ?? "",
      origins,
    })).filter((b) => b.value !== "");
  }

  /** The bound secrets (name → origins) whose placeholders `text` holds. */
  boundIn(text: string): Map<string, readonly string[]> {
    const out = new Map<string, readonly string[]>();
    if (!text.includes("{{secret:")) return out;
    for (const m of text.matchAll(PLACEHOLDER)) {
      const origins = this.#origins.get(m[1]!);
      if (origins) out.set(m[1]!, origins);
    }
    return out;
  }

  /**
   * Where maskable values occur in `text`: `[start, end)` UTF-16 offsets, in
   * order, not overlapping (the spans {@link maskText} replaces).
   */
  spans(text: string): Array<[number, number]> {
    if (!this.#exact) return [];
    const found = this.#wholeSpans(text);
    if (hasFormatChars(text)) {
      const { stripped, at } = withoutFormatChars(text);
      found.push(...spansBack(this.#wholeSpans(stripped), at));
    }
    return mergeSpans(found).map(([s, e]) => [s, e]);
  }

  /** Where whole values (in any form) occur in `text`, with their masks (masks already there left out). */
  #wholeSpans(text: string): MaskSpan[] {
    return [...spansOf(this.#exact, text), ...this.#foldedSpans(text)];
  }

  /** Where folded values occur in the folded `text`, as spans of `text` (secret_fold.ts). */
  #foldedSpans(text: string): MaskSpan[] {
    if (!this.#folded) return [];
    const { folded, at } = foldWithMap(text);
    return spansOf(this.#folded, folded).map(([s, e, mask]) =>
      at ? [...foldedSpanBack(s, e, at), mask] : [s, e, mask]
    );
  }

  /**
   * The UTF-8 bytes of every maskable value with its mask (`[secret:NAME]`), longest first:
   * what a reader of raw bytes (a file paged by offset, base64) must replace before any cut.
   */
  byteMasks(): Array<{ bytes: Uint8Array; mask: string }> {
    const seen = new Set<string>();
    const out: Array<{ bytes: Uint8Array; mask: string }> = [];
    for (const [name, value] of this.#secrets) {
      if (value.length < MIN_MASK_LENGTH || seen.has(value)) continue;
      seen.add(value);
      out.push({ bytes: new TextEncoder().encode(value), mask: `[secret:${name}]` });
    }
    return out.sort((a, b) => b.bytes.length - a.bytes.length);
  }

  /** True when `text` holds a maskable value (in any form {@link maskText} masks). */
  contains(text: string): boolean {
    return this.spans(text).length > 0;
  }

  /**
   * See {@link substituteSecrets}; `escape` writes each value as the text needs it (HTML
   * text for markup). @throws UnknownSecretError
   */
  substitute(text: string, escape?: (value: string) => string): string {
    return substituteSecrets(text, this.#secrets, escape);
  }

  /**
   * `text` with every maskable value replaced by `[secret:NAME]`; when `text` holds format
   * characters (`Cf`: a value split by zero-width spaces), also the values found with those
   * left out, masked with the characters between; and values whose case or width a page
   * changed (`text-transform`, a host name), found in the folded text (secret_fold.ts).
   */
  maskText(text: string): string {
    if (!this.#exact) return text;
    const { pattern, masks } = this.#exact;
    const out = text.replace(pattern, (found: string, ...groups: unknown[]) => {
      for (const { group, mask } of masks) {
        if (groups[group - 1] !== undefined) return mask;
      }
      return found; // a mask already in the text
    });
    const found = this.#foldedSpans(out);
    if (hasFormatChars(out)) {
      const { stripped, at } = withoutFormatChars(out);
      found.push(...spansBack(this.#wholeSpans(stripped), at));
    }
    return replaceSpans(out, mergeSpans(found));
  }

  /**
   * A copy of a JSON-like value with every string (object keys included)
   * masked, and every number whose decimal text is a (maskable) secret's value (a PIN
   * sent as `98765432`) replaced by its mask; other values are kept. Returns `value` itself when nothing is
   * registered.
   */
  mask<T>(value: T): T {
    if (!this.#exact) return value;
    return this.#maskDeep(value) as T;
  }

  #maskDeep(value: unknown): unknown {
    if (typeof value === "string") return this.maskText(value);
    if (typeof value === "number") return this.#maskNumber(value);
    if (Array.isArray(value)) return value.map((v) => this.#maskDeep(v));
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[this.maskText(k)] = this.#maskDeep(v);
    return out;
  }

  /** `[secret:NAME]` for a number whose decimal text equals a secret's value; else the number. */
  #maskNumber(n: number): number | string {
    const text = String(n);
    for (const [name, value] of this.#secrets) {
      // Short values are not masked in text either (they would shred every number).
      if (value === text && value.length >= MIN_MASK_LENGTH) return `[secret:${name}]`;
    }
    return n;
  }
}

/** A masking pattern over some values, and for each value its capture group and mask. */
interface Matcher {
  pattern: RegExp;
  masks: Array<{ group: number; mask: string }>;
}

/**
 * The pattern matching `values` (value, name) in every form of `valuePattern`, longest first,
 * or a mask already in the text (consumed and kept); undefined for no values.
 */
function matcherOf(values: ReadonlyArray<readonly [string, string]>): Matcher | undefined {
  // On a clash (two secrets with one value) the first name wins; either mask hides it.
  const byValue = new Map<string, string>();
  for (const [value, name] of values) if (!byValue.has(value)) byValue.set(value, name);
  if (!byValue.size) return undefined;
  // Longest first (the sort is stable: file order among equals), so a
  // value inside a longer one is tried after it.
  const sorted = [...byValue].sort(([a], [b]) => b.length - a.length);
  let groups = 0;
  const masks: Matcher["masks"] = [];
  const alternatives = sorted.map(([value, name]) => {
    const group = ++groups;
    masks.push({ group, mask: `[secret:${name}]` });
    return `(${valuePattern(value, () => ++groups)})`;
  });
  // A mask already in the text is consumed whole and kept (the last
  // alternative, so a value that starts like a mask still wins): masking
  // twice (a result built from masked results) changes nothing.
  // Where no form of any value (nor a mask) can start, fail at once.
  const starts = new Set(["\\", "&", "%", "+", "["]);
  for (const [value] of sorted) starts.add(String.fromCodePoint(value.codePointAt(0)!));
  const first = [...starts].map((c) => escapeRegExp(c)).join("");
  const any = [...alternatives, MASK.source].join("|");
  return {
    pattern: new RegExp(`(?=[${first.replaceAll("-", "\\-")}])(?:${any})`, "g"),
    masks,
  };
}

/** The spans of `text` where `matcher` finds a value, with their masks (masks already there left out). */
function spansOf(matcher: Matcher | undefined, text: string): MaskSpan[] {
  const out: MaskSpan[] = [];
  if (!matcher) return out;
  for (const m of text.matchAll(matcher.pattern)) {
    const hit = matcher.masks.find(({ group }) => m[group] !== undefined);
    if (hit) out.push([m.index, m.index + m[0].length, hit.mask]);
  }
  return out;
}
