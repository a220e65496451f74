/**
 * The secrets file (`BROWX_SECRETS`): parsing its dotenv-style lines into
 * names, values and the origins a secret is bound to, and the error that
 * names a line it cannot read (never the line's content). The store that
 * substitutes and masks the values is in `secrets.ts`.
 *
 * @module
 */
import { parseBoundOrigins } from "./secret_origins.ts";
import { MIN_MASK_LENGTH, SECRET_NAME } from "./secrets.ts";

/** Values shorter than this are warned about at start: guessable (see README, Secrets). */
export const WEAK_LENGTH = 8;

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
    } else if (value.length < WEAK_LENGTH) {
      // Masking confirms a whole guess: a PIN is guessed in a few thousand tries (README).
      warnings.push(
        `secret "${name}" (line ${line}) is shorter than ${WEAK_LENGTH} characters: an agent ` +
          "can confirm guesses of a short value (masking shows a right one), so it is weak, and " +
          "a call whose arguments happen to hold it (a URL's number) is refused as a guess",
      );
    }
  });
  return { secrets, warnings, origins };
}
