/**
 * Which refs a tool result carried to the agent: the pipeline marks them shown
 * (`RefRegistry.markShown`) after rendering each result, and an action on a ref no result ever
 * carried is refused (`resolve.ts`, reason `unshown`). Pure.
 *
 * @module
 */

/**
 * In one pass over a text: a ref as a snapshot, delta or focus line writes it (`[ref=e12]`);
 * a line of read_page's tree mode (`e12 button "Go"`, `e3 link "Docs" -> /docs`); a delta's
 * closing note on stranded, held or re-created refs (`~ e3, e4 … did not move …`).
 */
const SHOWN =
  /\[ref=([ep]\d+)\]|^([ep]\d+) [a-z]+(?= "| \[| \(| ->|$)|^~ ([ep]\d+(?:, [ep]\d+)*)(?: and \d+ more)? (?:did not|now sits?|is gone|are gone)[^\n]*/gm;
/** The renewed-refs note's new refs: `… re-created them as e9, e10 (same content)`. */
const RENEWED = / re-created (?:it|them) as ([ep]\d+(?:, [ep]\d+)*)/;
/** A field that holds refs as bare strings (`ref`, `refs`, `strandedRefs`, `focusRef`, …). */
const REF_KEY = /^refs?$|Refs?$/;
const BARE = /^[ep]\d+$/;

/**
 * The refs `value` (a result's structuredContent or text; objects and arrays walked) carries to
 * the agent: `[ref=eN]` in any string, a line of read_page's tree (`e12 button "Go"`), the
 * refs a delta's `~` notes name, and bare refs in
 * fields named for refs (`ref`, `refs`, `…Ref`, `…Refs`, whole values only). Refs in page text
 * outside those forms ("Plain para e3") are not counted. Refs in `exclude` are left out: the
 * refs the call itself was given, which its error may echo back (a guessed ref must not become
 * shown by the refusal that names it). A long string (200+ characters) that `options.scanned`
 * holds whole is skipped: the result's text was scanned already, and a snapshot stands in both.
 */
export function refsShownIn(
  value: unknown,
  exclude: ReadonlySet<string> = new Set(),
  options: { scanned?: string } = {},
): Set<string> {
  const scanned = options.scanned;
  const out = new Set<string>();
  const add = (ref: string) => {
    if (!exclude.has(ref)) out.add(ref);
  };
  const scanText = (text: string) => {
    for (const m of text.matchAll(SHOWN)) {
      if (m[1] ?? m[2]) add((m[1] ?? m[2])!);
      else {
        for (const ref of m[3]!.split(", ")) add(ref);
        const renewed = RENEWED.exec(m[0]);
        for (const ref of renewed ? renewed[1]!.split(", ") : []) add(ref);
      }
    }
  };
  const walk = (v: unknown, refKey: boolean, depth: number) => {
    if (typeof v === "string") {
      if (refKey && BARE.test(v)) add(v);
      else if (!(scanned && v.length >= 200 && scanned.includes(v))) scanText(v);
    } else if (Array.isArray(v)) {
      for (const item of v) walk(item, refKey, depth + 1);
    } else if (v && typeof v === "object" && depth < 64) {
      for (const [k, item] of Object.entries(v)) walk(item, REF_KEY.test(k), depth + 1);
    }
  };
  walk(value, false, 0);
  return out;
}

/** The renewed-refs note whole: old refs, then new (`delta_render.ts` renewedNote). */
const RENEWED_NOTE =
  /^~ ([ep]\d+(?:, [ep]\d+)*)(?: and \d+ more)? (?:is|are) gone: the page re-created (?:it|them) as ([ep]\d+(?:, [ep]\d+)*)/gm;

/**
 * The refs a text's renewed-refs notes announced as re-created (`~ e6, e7 are gone: the page
 * re-created them as e10, e11 (same content)`): [old, new] pairs, in order. Pure.
 */
export function renewalsIn(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of text.matchAll(RENEWED_NOTE)) {
    const from = m[1]!.split(", "), to = m[2]!.split(", ");
    if (from.length !== to.length) continue;
    from.forEach((ref, i) => out.push([ref, to[i]!]));
  }
  return out;
}

/** Every ref-shaped token (`e12`, `p3`) in a call's arguments: what {@link refsShownIn} excludes. */
export function refsGivenIn(args: unknown): Set<string> {
  let json: string;
  try {
    json = JSON.stringify(args) ?? "";
  } catch {
    return new Set();
  }
  return new Set([...json.matchAll(/\b[ep]\d+\b/g)].map((m) => m[0]));
}
