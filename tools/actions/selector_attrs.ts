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

/**
 * The attribute names (lower-cased, escapes undone, namespace prefix
 * dropped) that `selector` compares with a value, each once. Presence tests
 * (`[a]`) are not listed. Quoted values and escapes are skipped, so `]` or
 * `=` inside a value does not confuse it.
 */
export function valueTestedAttributes(selector: string): string[] {
  const names = new Set<string>();
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c !== "[") continue;
    // The name runs to the first operator or `]`; escapes belong to it.
    let j = i + 1;
    let name = "";
    while (j < selector.length && !"=]~|^$*".includes(selector[j]!)) {
      if (selector[j] === "\\") {
        name += selector.slice(j, j + 2);
        j += 2;
      } else name += selector[j++];
    }
    // A namespace prefix: `ns|name`, `*|name`, `|name` (but `|=` is an operator).
    if (
      (selector[j] === "|" && selector[j + 1] !== "=") ||
      selector[j] === "*" && selector[j + 1] === "|"
    ) {
      if (selector[j] === "*") j++;
      j++;
      name = "";
      while (j < selector.length && !"=]~|^$*".includes(selector[j]!)) {
        if (selector[j] === "\\") {
          name += selector.slice(j, j + 2);
          j += 2;
        } else name += selector[j++];
      }
    }
    const op = /^[~|^$*]?=/.exec(selector.slice(j, j + 2));
    if (op) names.add(unescapeCss(name.trim()).toLowerCase());
    // Skip to the closing bracket, past quoted values.
    let quote = "";
    for (; j < selector.length; j++) {
      const d = selector[j]!;
      if (d === "\\") j++;
      else if (quote) {
        if (d === quote) quote = "";
      } else if (d === '"' || d === "'") quote = d;
      else if (d === "]") break;
    }
    i = j;
  }
  return [...names].filter((n) => n !== "");
}
