/**
 * The attribute names a CSS selector tests by value (`[a=v]`, `^=`, `$=`,
 * `*=`, `~=`, `|=`), read on the server.
 *
 * Under masking such a condition is an oracle when the attribute holds a
 * secret: a page that copies a filled value into an attribute (React's
 * controlled inputs set `value`) answers `#k[value^="Zq7"]` with a match
 * for a right guess and none for a wrong one. `secret_query.ts` refuses
 * these selectors when a named attribute holds a secret anywhere in the
 * frame, so right and wrong guesses answer alike (whatever combinator or
 * `:not()`/`:has()` wraps the condition).
 *
 * @module
 */

/** Undoes CSS escapes: `\` + 1-6 hex digits (+ one space), or `\` + any character. */
function unescapeCss(s: string): string {
  return s.replace(/\\([0-9a-fA-F]{1,6})[ \t\n\f]?|\\(.)/gs, (_m, hex?: string, ch?: string) => {
    if (hex === undefined) return ch ?? "";
    const cp = parseInt(hex, 16);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
  });
}

/** ASCII lower case (what HTML does to attribute names; other letters stay). */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

/**
 * `selector` with its CSS comments (outside strings, not escaped) replaced
 * by a space, as the CSS tokenizer does; undefined when a comment or a
 * string is not closed, or a string runs over a line (not read with
 * confidence).
 */
export function stripCssComments(selector: string): string | undefined {
  let out = "";
  let quote = "";
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === "\\") {
      out += selector.slice(i, i + 2);
      i++;
    } else if (quote) {
      if (c === "\n" || c === "\r" || c === "\f") return undefined;
      if (c === quote) quote = "";
      out += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      out += c;
    } else if (c === "/" && selector[i + 1] === "*") {
      const end = selector.indexOf("*/", i + 2);
      if (end < 0) return undefined;
      out += " ";
      i = end + 1;
    } else out += c;
  }
  return quote ? undefined : out;
}

const ESC = String.raw`\\(?:[0-9a-fA-F]{1,6}[ \t\n\f]?|[^\n\r\f0-9a-fA-F])`;
const IDENT = String.raw`(?:[^\s"'\\\[\]()=~|^$*,>+]|${ESC})+`;
const STRING = String.raw`"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'`;
/** The inside of `[...]`: optional namespace prefix, name, optional operator, value and flag. */
const ATTR_BODY = new RegExp(
  String.raw`^\s*(?:(?:${IDENT}|\*)?\|(?!=))?(${IDENT})\s*` +
    String.raw`(?:([~|^$*]?=)\s*(?:${IDENT}|${STRING})\s*(?:[iIsS]\s*)?)?$`,
);
/** `:lang(...)` compares the `lang` attribute (inherited) with a prefix. */
const LANG = new RegExp(String.raw`:(?:${IDENT})`, "g");

/**
 * The attribute names (ASCII-lower-cased, escapes undone, namespace prefix
 * dropped) that `selector` compares with a value, each once; `lang` when it
 * uses `:lang()`. Presence tests (`[a]`) are not listed. Comments are
 * seen through; strings and escapes are skipped, so `]` or `=` inside a
 * value does not confuse it.
 *
 * Returns undefined when the selector cannot be read with confidence: a
 * comment or string not closed, brackets that do not pair, or anything
 * inside `[...]` that is not `ns|name op value flag` (the caller refuses
 * such a selector under masking rather than guess).
 */
export function valueTestedAttributes(selector: string): string[] | undefined {
  const text = stripCssComments(selector);
  if (text === undefined) return undefined;
  const names = new Set<string>();
  for (const m of text.matchAll(LANG)) {
    if (asciiLower(unescapeCss(m[0].slice(1))) === "lang") names.add("lang");
  }
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    if (c === "]") return undefined;
    if (c !== "[") continue;
    // Find the closing bracket, past quoted values and escapes; a second `[` is odd.
    let j = i + 1;
    let q = "";
    for (; j < text.length; j++) {
      const d = text[j]!;
      if (d === "\\") j++;
      else if (q) {
        if (d === q) q = "";
      } else if (d === '"' || d === "'") q = d;
      else if (d === "[") return undefined;
      else if (d === "]") break;
    }
    if (j >= text.length) return undefined;
    const m = ATTR_BODY.exec(text.slice(i + 1, j));
    if (!m) return undefined;
    if (m[2] !== undefined) names.add(asciiLower(unescapeCss(m[1]!)));
    i = j;
  }
  return [...names].filter((n) => n !== "");
}
