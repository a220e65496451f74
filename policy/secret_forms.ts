/**
 * The forms a secret's value takes in honest output (JSON-escaped, HTML
 * character references, percent-encoded), as regex sources for
 * `SecretStore`'s masking pattern.
 *
 * @module
 */

/** `s` with regex syntax characters escaped. */
export function escapeRegExp(s: string): string {
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
export function valuePattern(value: string, nextGroup: () => number): string {
  const whole = [...new Set([value, ...jsonLevels([jsonEscape(value)]).reverse()])]
    .map(escapeRegExp);
  const spelled = [...value].map((c) => `(?=(${charForms(c).join("|")}))\\${nextGroup()}`);
  return [...whole, spelled.join("")].join("|");
}
