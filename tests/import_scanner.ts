/**
 * Finds the import specifiers of a JavaScript/TypeScript source without a parser: a heuristic
 * lexer blanks comments and the insides of string, template and regular-expression literals,
 * then regular expressions find `import … from "x"`, `import type … from "x"`, `import "x"`,
 * `export … from "x"` (each starting a line or following a `;`) and `import("x")` with a string
 * literal. Computed dynamic imports are not seen. Used by the layering check.
 *
 * @module
 */

/** One import statement found in a source text. */
export interface ImportRef {
  /** Specifier as written between the quotes. */
  specifier: string;
  /** 1-based line number of the statement's start. */
  line: number;
}

/**
 * Replaces the comments of a JavaScript/TypeScript source with spaces (newlines kept, so
 * offsets and line numbers are unchanged). String, template and regular-expression literals
 * are kept as they are. A heuristic lexer, not a parser: good enough for import scanning.
 *
 * @param source Source text.
 * @returns The same text, same length, comments blanked.
 */
export function stripComments(source: string): string {
  return lex(source).code;
}

/**
 * Lexes `source` into two texts of the same length: `code` (comments blanked) and `skeleton`
 * (comments blanked and the insides of string, template and regex literals replaced by `_`),
 * so that patterns matched on the skeleton are never inside a literal or a comment.
 */
function lex(source: string): { code: string; skeleton: string } {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  const literals: Array<[number, number]> = [];
  let i = 0;
  // Last significant (non-space, non-comment) character, to tell a regex from a division.
  let prev = "";
  let prevWord = "";
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const d = source[i + 1];
    if (c === "/" && d === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? n : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === "/" && d === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = skipQuoted(source, i, c);
      literals.push([i + 1, end - 1]);
      i = end;
      prev = c;
      prevWord = "";
      continue;
    }
    if (c === "`") {
      const end = skipTemplate(source, i);
      literals.push([i + 1, end - 1]);
      i = end;
      prev = c;
      prevWord = "";
      continue;
    }
    if (c === "/" && startsRegex(prev, prevWord)) {
      const end = skipRegex(source, i);
      literals.push([i + 1, end - 1]);
      i = end;
      prev = "/";
      prevWord = "";
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[\w$]/.test(c)) {
      let j = i;
      while (j < n && /[\w$]/.test(source[j]!)) j++;
      prevWord = source.slice(i, j);
      prev = source[j - 1]!;
      i = j;
      continue;
    }
    prev = c;
    prevWord = "";
    i++;
  }
  const code = out.join("");
  for (const [from, to] of literals) {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = "_";
  }
  return { code, skeleton: out.join("") };
}

function skipQuoted(s: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\") i += 2;
    else if (c === quote || c === "\n") return i + 1;
    else i++;
  }
  return i;
}

/** Skips a template literal, including `${ … }` substitutions with nested literals. */
function skipTemplate(s: string, start: number): number {
  let i = start + 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\") i += 2;
    else if (c === "`") return i + 1;
    else if (c === "$" && s[i + 1] === "{") {
      i += 2;
      let depth = 1;
      while (i < s.length && depth > 0) {
        const e = s[i]!;
        if (e === "{") depth++;
        else if (e === "}") depth--;
        else if (e === '"' || e === "'") {
          i = skipQuoted(s, i, e);
          continue;
        } else if (e === "`") {
          i = skipTemplate(s, i);
          continue;
        }
        i++;
      }
    } else i++;
  }
  return i;
}

const REGEX_KEYWORDS = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

function startsRegex(prev: string, prevWord: string): boolean {
  if (prevWord) return REGEX_KEYWORDS.has(prevWord);
  return prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev);
}

function skipRegex(s: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\") i += 2;
    else if (c === "\n") return i;
    else if (inClass) {
      if (c === "]") inClass = false;
      i++;
    } else if (c === "[") {
      inClass = true;
      i++;
    } else if (c === "/") {
      i++;
      while (i < s.length && /[a-z]/i.test(s[i]!)) i++;
      return i;
    } else i++;
  }
  return i;
}

const STATIC_FROM = /(?:^|;)[ \t]*(?:import|export)\b[^;'"`]*?\bfrom[ \t]*(["'])([^"'\n]+)\1/gm;
const SIDE_EFFECT = /(?:^|;)[ \t]*import[ \t]*(["'])([^"'\n]+)\1/gm;
const DYNAMIC = /\bimport[ \t\n]*\([ \t\n]*(["'`])([^"'`\n]+)\1(?=[ \t\n]*[,)])/g;

/**
 * Finds the import specifiers of one source text (see the module doc for the forms seen).
 *
 * @param source TypeScript/JavaScript source.
 * @returns Imports in order of appearance, with 1-based line numbers.
 */
export function findImports(source: string): ImportRef[] {
  const { code, skeleton: text } = lex(source);
  const found = new Map<number, ImportRef>();
  const lineStarts = [0];
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 10) lineStarts.push(k + 1);
  const lineAt = (index: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  for (const re of [STATIC_FROM, SIDE_EFFECT, DYNAMIC]) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      // The skeleton hides literal contents: read the specifier from the code at the same place.
      const at = m.index! + m[0].length - 1 - m[2]!.length;
      const specifier = code.slice(at, at + m[2]!.length);
      if (specifier.includes("${")) continue;
      const keyword = m.index! + m[0].search(/import|export/);
      if (!found.has(at)) found.set(at, { specifier, line: lineAt(keyword) });
    }
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, ref]) => ref);
}
