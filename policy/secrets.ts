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
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    let rest = raw.trim();
    if (rest === "" || rest.startsWith("#")) return;
    if (/^export\s/.test(rest)) rest = rest.slice("export".length).trimStart();
    const eq = rest.indexOf("=");
    if (eq < 0) throw new SecretsFileError(line, "expected NAME=value");
    const name = rest.slice(0, eq).trim();
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
    if (value.length < MIN_MASK_LENGTH) {
      warnings.push(
        `secret "${name}" (line ${line}) is shorter than ${MIN_MASK_LENGTH} characters: ` +
          "it can be filled but is never masked in results",
      );
    }
  });
  return { secrets, warnings };
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

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Regex source matching the hex digits of `hex` in either case. */
function anyCase(hex: string): string {
  return hex.replace(/[a-f]/gi, (h) => `[${h.toLowerCase()}${h.toUpperCase()}]`);
}

/**
 * HTML named character references (the numeric ones cover every
 * character): entries apart by two spaces, each the character, a space,
 * then its names.
 */
const HTML_NAMED: Record<string, string[]> = Object.fromEntries(
  ("\t Tab  \n NewLine  ! excl  \" quot QUOT  # num  $ dollar  % percnt  & amp AMP  ' apos  " +
    "( lpar  ) rpar  * ast midast  + plus  , comma  . period  / sol  : colon  ; semi  " +
    "< lt LT  = equals  > gt GT  ? quest  @ commat  [ lsqb lbrack  \\ bsol  ] rsqb rbrack  " +
    "^ Hat  _ lowbar UnderBar  ` grave DiacriticalGrave  { lcub lbrace  " +
    "| verbar vert VerticalLine  } rcub rbrace  \u00a0 nbsp NonBreakingSpace")
    .split("  ").map((entry) => [entry[0]!, entry.slice(2).split(" ")]),
);

/**
 * How many JSON escapings over a value is still masked: a page's JSON
 * string inside a JSON string (2), shown inside a result's JSON text (3).
 */
const JSON_DEPTH = 3;

/** `s` escaped as the inside of a JSON string. */
function jsonEscape(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * `first` (once-escaped forms), then each JSON-escaped again, up to
 * {@link JSON_DEPTH} escapings in all; deepest first.
 */
function jsonLevels(first: string[]): string[] {
  const levels = [first];
  while (levels.length < JSON_DEPTH) levels.unshift(levels[0]!.map(jsonEscape));
  return levels.flat();
}

/**
 * Regex sources, one each, for the ways one character `c` (a code point)
 * turns up in honest output: JSON-escaped up to {@link JSON_DEPTH} times
 * (`\"`, `\u0021`; twice `\\\"`, `\\u0021`: a JSON string inside a
 * JSON string), an HTML character reference (`&#33;`, `&#x21;`, `&excl;`),
 * percent-encoded (its UTF-8 bytes, hex in either case, as any URL or form
 * encoder writes them; `+` for a space, as forms do), and as is — in that
 * order, so that the longest reading of an escape is taken.
 */
function charForms(c: string): string[] {
  const units = [...Array(c.length).keys()].map((i) => c.charCodeAt(i));
  const once = [units.map((n) => "\\u" + n.toString(16).padStart(4, "0")).join("")];
  // JSON's own short escapes (\" \\ \n …), and "\/" that some serializers write.
  if (jsonEscape(c) !== c) once.unshift(jsonEscape(c));
  if (c === "/") once.unshift("\\/");
  const json = jsonLevels(once).map((e) =>
    escapeRegExp(e).replace(/u([0-9a-f]{4})/g, (_, h: string) => "u" + anyCase(h))
  );
  const cp = c.codePointAt(0)!;
  const html = [
    `&#0*${cp};`,
    `&#[xX]0*${anyCase(cp.toString(16))};`,
    ...(HTML_NAMED[c] ?? []).map((name) => `&${name};`),
  ];
  const url = c.isWellFormed()
    ? [
      [...new TextEncoder().encode(c)]
        .map((b) => "%" + anyCase(b.toString(16).padStart(2, "0")))
        .join(""),
    ]
    : [];
  if (c === " ") url.push("\\+");
  return [...json, ...html, ...url, escapeRegExp(c)];
}

/**
 * Regex source matching `value` in the forms results carry it in: as is,
 * JSON-escaped (up to {@link JSON_DEPTH} times) as a whole, or spelled
 * character by character in any mix of {@link charForms} (what URL and
 * form encoders, HTML escapers and JSON serializers produce). Each
 * character takes the first of its forms that matches (an atomic group,
 * `(?=(…))\N`), so matching stays linear whatever the text; `nextGroup`
 * numbers those groups.
 */
function valuePattern(value: string, nextGroup: () => number): string {
  const whole = [...new Set([value, ...jsonLevels([jsonEscape(value)]).reverse()])]
    .map(escapeRegExp);
  const spelled = [...value].map((c) => `(?=(${charForms(c).join("|")}))\\${nextGroup()}`);
  return [...whole, spelled.join("")].join("|");
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
 * base64s it), or shows only part of it (a prefix cut by `maxlength` or by
 * a length cap on a result field), defeats it; so does a legacy charset (a
 * windows-1252 page form-encodes "ä" as `%E4`, not UTF-8's `%C3%A4`). It
 * keeps values out of what an agent reads by accident; it is not a sandbox.
 */
export class SecretStore {
  #secrets: ReadonlyMap<string, string>;
  #pattern: RegExp | undefined;
  /** For each masked value, longest first: its capture group in `#pattern`, and its mask. */
  #masks: Array<{ group: number; mask: string }> = [];

  /** @param secrets name → value (see {@link parseSecretsFile}). */
  constructor(secrets: ReadonlyMap<string, string> = new Map()) {
    this.#secrets = new Map(secrets);
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
   * masked; other values are kept. Returns `value` itself when nothing is
   * registered.
   */
  mask<T>(value: T): T {
    if (!this.#pattern) return value;
    return this.#maskDeep(value) as T;
  }

  #maskDeep(value: unknown): unknown {
    if (typeof value === "string") return this.maskText(value);
    if (Array.isArray(value)) return value.map((v) => this.#maskDeep(v));
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[this.maskText(k)] = this.#maskDeep(v);
    return out;
  }
}
