/**
 * Reading a TodoMVC page out of what a server returned, the way an agent reads it: browxai's
 * snapshot outline (and its `+ `/`- `/`~ ` delta) and the peer's YAML snapshot. Pure text
 * functions, no browser.
 *
 * What is read: which todo texts are shown (a line that is not the new-todo textbox carries
 * the text), the count ("2 items left", its number may sit on its own line), whether a todo's
 * row has a checked checkbox, and the refs an agent needs (the new-todo field, a row's toggle,
 * a filter link).
 *
 * @module
 */

/** The new-todo field, by role and accessible name, in either server's snapshot. */
export const NEW_TODO_LINE = /textbox "What needs to be (?:done|completed)\??"/i;

const REF = /\[ref=([\w-]+)\]/;
const TOGGLE_ALL = /toggle all|mark all/i;

/** A delta line: its marker (`+`, `-`, `~`, or a space for context) and the line without it. */
export interface DeltaLine {
  mark: "+" | "-" | "~" | " ";
  line: string;
}

/** Splits browxai's delta text (`+ `, `- `, `~ ` or two spaces before each snapshot line). */
export function deltaLines(delta: string): DeltaLine[] {
  const out: DeltaLine[] = [];
  for (const raw of delta.split("\n")) {
    const m = /^([+\-~ ]) (.*)$/.exec(raw);
    if (m) out.push({ mark: m[1] as DeltaLine["mark"], line: m[2]! });
  }
  return out;
}

/** The ref on a snapshot line, if any. */
export function refIn(line: string): string | undefined {
  return REF.exec(line)?.[1];
}

/**
 * The words a snapshot line shows: link texts without their targets, names and texts without
 * roles, refs and state brackets. `- strong [ref=e4]: "2"` → `2`; `[Active](#/active)[ref=e9]`
 * → `Active`; `- checkbox "Done" [checked] [ref=e3]` → `Done`.
 */
export function lineWords(line: string): string {
  let s = line.trim();
  if (/^(- )?\/url:/.test(s)) return "";
  s = s.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"); // markdown links
  s = s.replace(/\s*\[[\w-]+(?:=[^\]]*)?\]/g, ""); // [ref=e1] [checked] [level=2] …
  s = s.replace(/^- [\w-]+(?: "((?:[^"\\]|\\.)*)")?:?/, "$1 "); // role "name":
  s = s.replace(/^text:/, "").replace(/\(\.[\w-]+\)/g, ""); // peer text nodes, css hints
  s = s.replace(/\*\*|__/g, "").replace(/\s+/g, " ").trim();
  return s.replace(/^"(.*)"$/, "$1").replace(/^#+ /, "");
}

/** All words of `lines`, in order, one space apart (a count split over lines reads whole). */
export function wordsOf(lines: string[]): string {
  return lines.map(lineWords).filter((w) => w !== "").join(" ");
}

/** The count text for `n` open todos, as a regex over {@link wordsOf}. */
export function countPattern(n: number): RegExp {
  return new RegExp(`(^|\\D)${n} items? left\\b`, "i");
}

/** The number in the page's "N item(s) left", or undefined when none is shown. */
export function countShown(lines: string[]): number | undefined {
  const m = /(?:^|\D)(\d+) items? left\b/i.exec(wordsOf(lines));
  return m ? Number(m[1]) : undefined;
}

/** Whether `todo` is shown: a line other than a textbox's carries it. */
export function shows(lines: string[], todo: string): boolean {
  return lines.some((l) => !/textbox/.test(l) && lineWords(l).includes(todo));
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length;
}

/** Whether a line is the "toggle all" / "Mark all as complete" control. */
export function isToggleAll(line: string): boolean {
  return TOGGLE_ALL.test(line);
}

/** Whether a checkbox line says checked (`[checked]`, `[checked=true]`). */
export function isChecked(line: string): boolean {
  return /\[checked(?:=true)?\]/.test(line);
}

/**
 * The lines of the row showing `todo`: the nearest `listitem` among the ancestors of the line
 * carrying the todo's text (the lines it is indented under), with all it holds; when no list
 * item holds it, its parent with all the parent holds.
 */
export function rowOf(lines: string[], todo: string): string[] | undefined {
  const at = lines.findIndex((l) => !/textbox/.test(l) && lineWords(l).includes(todo));
  if (at < 0) return undefined;
  const block = (j: number) => {
    const base = indentOf(lines[j]!);
    let end = j + 1;
    while (end < lines.length && indentOf(lines[end]!) > base) end++;
    return lines.slice(j, end);
  };
  let parent: number | undefined;
  let indent = indentOf(lines[at]!);
  for (let j = at - 1; j >= 0 && indent > 0; j--) {
    const l = lines[j]!;
    if (l.trim() === "" || indentOf(l) >= indent) continue;
    indent = indentOf(l);
    parent ??= j;
    if (/^\s*- listitem\b/.test(l)) return block(j);
  }
  return parent === undefined ? lines.slice(Math.max(0, at - 1), at + 1) : block(parent);
}

/** The checkbox line in `todo`'s row (not "toggle all"). */
export function toggleLine(lines: string[], todo: string): string | undefined {
  return rowOf(lines, todo)?.find((l) => /\bcheckbox\b/.test(l) && !isToggleAll(l));
}

/** The ref of the new-todo field. */
export function newTodoRef(lines: string[]): string | undefined {
  for (const l of lines) if (NEW_TODO_LINE.test(l) && refIn(l)) return refIn(l);
  return undefined;
}

/** The ref of the filter link named `name` ("All", "Active", "Completed"). */
export function filterRef(lines: string[], name: string): string | undefined {
  const peer = new RegExp(`\\blink "${name}"`);
  // browxai shows a link's URL only where it says something: `[Active](#/active)[ref=e9]`, but
  // `[Active][ref=e9]` for `href="#active"`.
  const ours = new RegExp(`\\[${name}\\](?:\\([^)]*\\))?\\[ref=`);
  for (const l of lines) if ((peer.test(l) || ours.test(l)) && refIn(l)) return refIn(l);
  return undefined;
}

/** What the page should show after a step. */
export interface TodoState {
  /** Todos that must be shown. */
  shown: string[];
  /** Todos that must not be shown. */
  hidden: string[];
  /** The open count ("N item(s) left"). */
  count: number;
  /** Todos whose toggle must be checked (the other shown ones must not be). */
  done: string[];
}

/**
 * What a whole-page snapshot (`text`) gets wrong about `want`, or undefined when it shows it
 * all.
 */
export function stateMismatch(text: string, want: TodoState): string | undefined {
  const lines = text.split("\n");
  const missing = want.shown.filter((t) => !shows(lines, t));
  if (missing.length) return `"${missing.join('", "')}" not shown`;
  const extra = want.hidden.filter((t) => shows(lines, t));
  if (extra.length) return `"${extra.join('", "')}" still shown`;
  const count = countShown(lines);
  if (count !== want.count) {
    return count === undefined
      ? `no "${want.count} item(s) left"`
      : `shows ${count} items left, not ${want.count}`;
  }
  for (const t of want.shown) {
    const line = toggleLine(lines, t);
    if (!line) return `no toggle in the row of "${t}"`;
    if (isChecked(line) !== want.done.includes(t)) {
      return `"${t}" ${isChecked(line) ? "checked" : "not checked"}: ${line.trim()}`;
    }
  }
  return undefined;
}
