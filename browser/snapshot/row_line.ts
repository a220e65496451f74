/**
 * A table row's line in a snapshot outline: one line per row, its cells between pipes, the
 * controls in them inline (`| Alice | 34 | button "Edit" [ref=e12]`); a row that is a target
 * itself, or has states, leads with its node (`- row [ref=e5] [selected]: | …`). See
 * `browser/injected/outline_lib.ts` (foldRow). Pure text functions for the readers of a
 * snapshot (the delta, the focus line, `read_page`'s tree).
 *
 * @module
 */

/** A control inline in a row line: `button "Edit" [ref=e12] [disabled]`. */
export interface RowControl {
  role: string;
  /** Its quoted name as shown (quotes and escapes included), or `""`. */
  quotedName: string;
  /** The name unquoted. */
  name: string;
  ref: string;
  /** ` [checked] [disabled]`…, as shown, or `""`. */
  states: string;
  /** An unnamed control's hint, ` (.toggle)` or ` (#id)`, or `""`. */
  hint: string;
  /** Where it starts in the line. */
  index: number;
  /** Its length in the line, its value (`: 3`) not included. */
  length: number;
}

/** A row line's start: `| ` (or `|` for an empty first cell), or `- row [..]: | `. */
const ROW_START = /^(?:\||- row(?: \[[^\]]*\])*: \|)/;
const CONTROL =
  /(?<![\w\]\\-])([a-z][\w-]*)((?: "(?:[^"\\]|\\.)*")?) \[ref=(e\d+)\]((?: \[[a-z]+(?:=[\w-]+)?\](?![([]))*)((?: \([#.][\w-]+\))?)/g;

/** True for a table row's line (indent removed). */
export function isRowLine(body: string): boolean {
  return ROW_START.test(body);
}

/**
 * The controls inline in a row line (indent removed), in order; links inline as text
 * (`[text](url)[ref=e3]`) are not among them, nor the row's own `- row [ref=eN]`. Empty for a
 * line that is not a row's.
 */
export function rowControls(body: string): RowControl[] {
  if (!isRowLine(body)) return [];
  const cells = body.startsWith("- row") ? body.indexOf(": |") + 2 : 0;
  const out: RowControl[] = [];
  for (const m of body.slice(cells).matchAll(CONTROL)) {
    const quoted = m[2]!.trimStart();
    out.push({
      role: m[1]!,
      quotedName: quoted,
      name: quoted ? quoted.slice(1, -1).replace(/\\(.)/g, "$1") : "",
      ref: m[3]!,
      states: m[4]!,
      hint: m[5]!,
      index: cells + m.index!,
      length: m[0].length,
    });
  }
  return out;
}

/** The first ref a row line (indent removed) shows, the row's own first; undefined for none. */
export function firstRowRef(body: string): string | undefined {
  return isRowLine(body) ? /\[ref=(e\d+)\]/.exec(body)?.[1] : undefined;
}

/**
 * A row control's text as a node line would show it (`textbox "Qty" [ref=e4]: 3`): the control,
 * and its value up to the end of its cell (an unescaped ` | `) or the next control in it.
 */
export function controlText(body: string, control: RowControl): string {
  const own = body.slice(control.index, control.index + control.length);
  const rest = body.slice(control.index + control.length);
  if (!rest.startsWith(": ")) return own;
  let end = /(?<!\\) \|(?: |$)/.exec(rest)?.index ?? rest.length;
  const next = rowControls(body).find((c) => c.index > control.index);
  if (next) end = Math.min(end, next.index - control.index - control.length);
  return own + rest.slice(0, end).trimEnd();
}
