/**
 * Secrets (`BROWX_SECRETS`): values the agent may fill into pages by name
 * (`{{secret:NAME}}`) without ever seeing them. Pure functions over data:
 * parsing the dotenv-style file, substituting placeholders, and masking
 * every registered value in whatever a tool returns.
 *
 * Nothing here ever puts a value into an error message or a warning: they
 * name lines and names only.
 *
 * @module
 */
import { parseBoundOrigins } from "./secret_origins.ts";
import { escapeRegExp, valuePattern } from "./secret_forms.ts";

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

/** A secrets file line browxai cannot read. The message names the line, never its content. */
export class SecretsFileError extends Error {
  /** 1-based line number. */
  readonly line: number;
  constructor(line: number, problem: string) {
    super(`line ${line}: ${problem}`);
    this.name = "SecretsFileError";
    this.line = line;
  }
}

/** A `{{secret:NAME}}` whose NAME is not registered (or not a valid name). */
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

/** A parsed secrets file. */
export interface ParsedSecrets {
  /** Name → value, in file order. */
  secrets: Map<string, string>;
  /** One line each, naming the secret and its line (never the value): values too short to mask. */
  warnings: string[];
  /** Name → the origins it may be filled into (`NAME@origin,…=value`); unbound names are absent. */
  origins: Map<string, string[]>;
}

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  '"': '"',
  "\\": "\\",
  $: "$",
};

/** Reads a quoted value starting at `rest[0]`; returns it and what follows the closing quote. */
function readQuoted(rest: string, line: number): { value: string; after: string } {
  const quote = rest[0]!;
  let value = "";
  for (let i = 1; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === quote) return { value, after: rest.slice(i + 1) };
    if (quote === '"' && c === "\\") {
      const next = rest[i + 1];
      if (next === undefined || !(next in DOUBLE_QUOTE_ESCAPES)) {
        throw new SecretsFileError(
          line,
          'unknown escape in a double-quoted value (use \\n, \\r, \\t, \\", \\\\ or \\$; ' +
            "single quotes take the text as is)",
        );
      }
      value += DOUBLE_QUOTE_ESCAPES[next];
      i++;
      continue;
    }
    value += c;
  }
  throw new SecretsFileError(
    line,
    `the ${quote === '"' ? "double" : "single"} quote is never closed ` +
      "(values are one line; write a newline as \\n inside double quotes)",
  );
}

/**
 * Parses a dotenv-style secrets file.
 *
 * Lines: `NAME=value`, optionally prefixed with `export `; blank lines and
 * lines starting with `#` are skipped; spaces around `=` are ignored. A
 * value is either unquoted (trimmed; ` #` — a `#` after whitespace — starts
 * a comment), single-quoted (taken as is) or double-quoted (escapes `\n`,
 * `\r`, `\t`, `\"`, `\\`, `\$`); a quoted value may be followed by
 * whitespace and a `# comment` only. CRLF line ends are accepted.
 * `NAME@https://a.example,https://b.example=value` binds the secret to those
 * origins: it may be filled only into frames of one of them.
 *
 * @returns The secrets, and a warning for each value shorter than
 *   {@link MIN_MASK_LENGTH} (such values are substituted but not masked).
 * @throws SecretsFileError naming the line (never its content) for a line
 *   without `=`, a bad name, an unclosed quote, text after a closing quote,
 *   a bad escape, or a name defined twice.
 */
export function parseSecretsFile(text: string): ParsedSecrets {
  const secrets = new Map<string, string>();
  const lineOf = new Map<string, number>();
  const warnings: string[] = [];
  const origins = new Map<string, string[]>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    let rest = raw.trim();
    if (rest === "" || rest.startsWith("#")) return;
    if (/^export\s/.test(rest)) rest = rest.slice("export".length).trimStart();
    const eq = rest.indexOf("=");
    if (eq < 0) throw new SecretsFileError(line, "expected NAME=value");
    let name = rest.slice(0, eq).trim();
    let bound: string[] | undefined;
    const at = name.indexOf("@");
    if (at >= 0 && SECRET_NAME.test(name.slice(0, at).trim())) {
      try {
        bound = parseBoundOrigins(name.slice(at + 1));
      } catch (e) {
        throw new SecretsFileError(line, (e as Error).message);
      }
      name = name.slice(0, at).trim();
    }
    if (!SECRET_NAME.test(name)) {
      // The text before "=" is not shown: a line such as "abc==" is all value.
      throw new SecretsFileError(
        line,
        "a name is letters, digits and underscores, not starting with a digit",
      );
    }
    rest = rest.slice(eq + 1).trim();
    let value: string;
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const q = readQuoted(rest, line);
      if (!/^\s*(#.*)?$/.test(q.after)) {
        throw new SecretsFileError(line, "unexpected text after the closing quote");
      }
      value = q.value;
    } else {
      value = rest.replace(/\s+#.*$/, "").trim();
    }
    const earlier = lineOf.get(name);
    if (earlier !== undefined) {
      throw new SecretsFileError(line, `"${name}" is already defined on line ${earlier}`);
    }
    lineOf.set(name, line);
    secrets.set(name, value);
    if (bound) origins.set(name, bound);
    if (value.length < MIN_MASK_LENGTH) {
      warnings.push(
        `secret "${name}" (line ${line}) is shorter than ${MIN_MASK_LENGTH} characters: ` +
          "it can be filled but is never masked in results",
      );
    }
  });
  return { secrets, warnings, origins };
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
export function substituteSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  if (!text.includes("{{secret:")) return text;
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = secrets.get(name);
    if (value === undefined) throw new UnknownSecretError(name, [...secrets.keys()].sort());
    return value;
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
 * Masking is exact-match on the value's characters: a page or a script
 * that transforms a value (reverses it, changes its case, spaces it out,
 * base64s it), or shows only part of it (a prefix cut by `maxlength`),
 * defeats it (browxai's own caps mask first, or cut before a value: see
 * `capText` in browser/sessions/page_logs.ts); so does a legacy charset (a
 * windows-1252 page form-encodes "ä" as `%E4`, not UTF-8's `%C3%A4`). It
 * keeps values out of what an agent reads by accident; it is not a sandbox.
 */
export class SecretStore {
  #secrets: ReadonlyMap<string, string>;
  #origins: ReadonlyMap<string, readonly string[]>;
  #pattern: RegExp | undefined;
  /** For each masked value, longest first: its capture group in `#pattern`, and its mask. */
  #masks: Array<{ group: number; mask: string }> = [];

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
    // On a clash (two secrets with one value) the first name wins; either mask hides it.
    const byValue = new Map<string, string>();
    for (const [name, value] of this.#secrets) {
      if (value.length >= MIN_MASK_LENGTH && !byValue.has(value)) byValue.set(value, name);
    }
    // Longest first (the sort is stable: file order among equals), so a
    // value inside a longer one is tried after it.
    const values = [...byValue].sort(([a], [b]) => b.length - a.length);
    let groups = 0;
    const alternatives = values.map(([value, name]) => {
      const group = ++groups;
      this.#masks.push({ group, mask: `[secret:${name}]` });
      return `(${valuePattern(value, () => ++groups)})`;
    });
    // A mask already in the text is consumed whole and kept (the last
    // alternative, so a value that starts like a mask still wins): masking
    // twice (a result built from masked results) changes nothing.
    if (alternatives.length) {
      // Where no form of any value (nor a mask) can start, fail at once.
      const starts = new Set(["\\", "&", "%", "+", "["]);
      for (const [value] of values) starts.add(String.fromCodePoint(value.codePointAt(0)!));
      const first = [...starts].map((c) => escapeRegExp(c)).join("");
      const any = [...alternatives, MASK.source].join("|");
      this.#pattern = new RegExp(`(?=[${first.replaceAll("-", "\\-")}])(?:${any})`, "g");
    }
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
    return this.#pattern !== undefined;
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
    if (!this.#pattern) return [];
    const out: Array<[number, number]> = [];
    for (const m of text.matchAll(this.#pattern)) {
      if (this.#masks.some(({ group }) => m[group] !== undefined)) {
        out.push([m.index, m.index + m[0].length]);
      }
    }
    return out;
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

  /** See {@link substituteSecrets}. @throws UnknownSecretError */
  substitute(text: string): string {
    return substituteSecrets(text, this.#secrets);
  }

  /** `text` with every maskable value replaced by `[secret:NAME]`. */
  maskText(text: string): string {
    if (!this.#pattern) return text;
    return text.replace(this.#pattern, (found: string, ...groups: unknown[]) => {
      for (const { group, mask } of this.#masks) {
        if (groups[group - 1] !== undefined) return mask;
      }
      return found; // a mask already in the text
    });
  }

  /**
   * A copy of a JSON-like value with every string (object keys included)
   * masked, and every number whose decimal text is a (maskable) secret's value (a PIN
   * sent as `98765432`) replaced by its mask; other values are kept. Returns `value` itself when nothing is
   * registered.
   */
  mask<T>(value: T): T {
    if (!this.#pattern) return value;
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
