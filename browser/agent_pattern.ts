/**
 * Agent-supplied patterns (`console_read`/`network_read` `pattern`,
 * `wait_for` `url` globs) compiled for a linear-time engine.
 *
 * V8's RegExp backtracks: `(a+)+$` over 33 characters ran for 81 s and held
 * the event loop, so every session (and the watchdog) stalled. Every string an
 * agent sends that becomes a pattern goes through {@link compileAgentPattern}
 * or {@link compileUrlGlob}, which run on RE2 (npm `re2js`): matching time is
 * linear in the text, whatever the pattern.
 *
 * Linear is not small: RE2's time is program size × characters (~20 ns each),
 * and counted repetitions expand the program (`x{0,1000}` is 2,000
 * instructions). So patterns whose program exceeds {@link MAX_PROGRAM_SIZE}
 * are refused before compiling, and {@link filterWithinBudget} stops a scan
 * once program size × characters reaches {@link WORK_BUDGET}.
 *
 * @module
 */
import { RE2JS } from "re2js";
import { ToolError } from "./tool_error.ts";
import { estimateProgramSize } from "./pattern_size.ts";

/** A compiled agent pattern: `test(text)` is true when the pattern matches somewhere in `text`. */
export interface AgentMatcher {
  /** The pattern as the agent wrote it (or the glob). */
  readonly source: string;
  /** RE2's program size (instructions): the cost of one character scanned. */
  readonly programSize: number;
  /**
   * True when the pattern matches somewhere in `text` (RE2 semantics, linear
   * time). Only the first {@link WORK_BUDGET} / programSize characters are
   * read, so one call stays within the budget.
   */
  test(text: string): boolean;
}

/**
 * Largest RE2 program accepted, instructions. A counted repetition copies its
 * operand: `.{1000}` is 1,000 instructions, `(?:x{0,1000}|…×180)` 360,000
 * (1.4 s to compile, 11 s to scan 2,000 characters).
 */
export const MAX_PROGRAM_SIZE = 5000;

/**
 * Work one call may spend matching, in instructions × characters scanned
 * (at ~20 ns each, worst case, about 40 ms of event loop).
 */
export const WORK_BUDGET = 2_000_000;

/** Longest pattern accepted, characters: RE2 compiles in time linear in the pattern too. */
export const MAX_PATTERN_LENGTH = 2000;

/** What to use instead of syntax RE2 does not have. */
function unsupportedHint(message: string): string {
  if (/\\[1-9]|\\k</.test(message)) {
    return "backreferences (\\1, \\k<name>) are not supported: match the text itself, or filter twice";
  }
  if (/\(\?[=!<]/.test(message)) {
    return "lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: " +
      "match the text itself (e.g. a plain word or foo.*bar)";
  }
  if (/repeat count/.test(message)) {
    return "repeat counts go up to {1000} and nested counts may not multiply past that";
  }
  return "use RE2 syntax (no backreferences, no lookaround), or a plain word";
}

/**
 * Compiles an agent's regular expression for RE2 (linear time).
 *
 * @param pattern RE2 syntax (a near subset of JavaScript's: classes, groups,
 *   alternation, anchors, `{n,m}`; no backreferences, no lookaround).
 * @param options.caseInsensitive match any case (default true, as the read
 *   tools describe).
 * @param options.field the argument's name, for the error message.
 * @throws ToolError `invalid-argument` naming the field and what RE2 rejected,
 *   with what to use instead.
 */
export function compileAgentPattern(
  pattern: string,
  options: { caseInsensitive?: boolean; field?: string } = {},
): AgentMatcher {
  const field = options.field ?? "pattern";
  checkLength(pattern, field);
  const flags = options.caseInsensitive === false ? 0 : RE2JS.CASE_INSENSITIVE;
  const estimate = estimateProgramSize(pattern);
  if (estimate > MAX_PROGRAM_SIZE) tooBig(pattern, estimate, field);
  return compile(pattern, pattern, flags, field);
}

/**
 * Compiles an agent's regular expression for RE2 like {@link compileAgentPattern}, returning
 * the RE2 object itself (for match positions: `re.matcher(text)`, `find()`, `start()`,
 * `end()`). The caller bounds the text it scans (program size × characters).
 *
 * @throws ToolError `invalid-argument` as {@link compileAgentPattern} does.
 */
export function compileAgentRegex(
  pattern: string,
  options: { caseInsensitive?: boolean; field?: string } = {},
): { re: RE2JS; programSize: number } {
  const field = options.field ?? "pattern";
  checkLength(pattern, field);
  const flags = options.caseInsensitive === false ? 0 : RE2JS.CASE_INSENSITIVE;
  const estimate = estimateProgramSize(pattern);
  if (estimate > MAX_PROGRAM_SIZE) tooBig(pattern, estimate, field);
  const re = compileRe2(pattern, pattern, flags, field);
  return { re, programSize: re.programSize() };
}

function tooBig(shown: string, size: number, field: string): never {
  throw new ToolError(
    "invalid-argument",
    `Invalid ${field} "${shown.length > 80 ? shown.slice(0, 80) + "…" : shown}": it expands to ` +
      `about ${size} RE2 instructions; at most ${MAX_PROGRAM_SIZE} are accepted ` +
      "(a counted repetition such as x{0,1000} copies x a thousand times)",
    "repeat counts copy what they repeat: use * or + instead of large counts " +
      "(x+ rather than x{1,1000}), or smaller counts and fewer alternatives",
  );
}

/**
 * Filters `items` with `matcher` over `textOf(item)`, newest (last) first,
 * keeping at most `limit` matches, until the work spent (program size ×
 * characters read) reaches {@link WORK_BUDGET}. An item whose text is longer
 * than the budget left is matched on its start only.
 *
 * @returns the matches in their original order, and `truncatedScan: true`
 *   when the budget ran out before every item was read in full (older items,
 *   or the tail of long ones, went unread: narrow with since_seq or a
 *   simpler pattern).
 */
export function filterWithinBudget<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  matcher: AgentMatcher,
  limit: number,
): { matched: T[]; truncatedScan: boolean } {
  const matched: T[] = [];
  let remaining = WORK_BUDGET;
  let truncatedScan = false;
  for (let k = items.length - 1; k >= 0 && matched.length < limit; k--) {
    const text = textOf(items[k]!);
    const chars = Math.min(text.length, Math.floor(remaining / matcher.programSize));
    if (chars < text.length) truncatedScan = true;
    if (chars === 0 && text.length > 0) break;
    if (matcher.test(chars < text.length ? text.slice(0, chars) : text)) matched.push(items[k]!);
    remaining -= Math.max(chars, 1) * matcher.programSize;
  }
  return { matched: matched.reverse(), truncatedScan };
}

function checkLength(source: string, field: string): void {
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new ToolError(
      "invalid-argument",
      `"${field}" is ${source.length} characters; at most ${MAX_PATTERN_LENGTH} are accepted`,
      "pass a shorter pattern",
    );
  }
}

function compileRe2(shown: string, re2: string, flags: number, field: string): RE2JS {
  let re: RE2JS;
  try {
    re = RE2JS.compile(re2, flags);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new ToolError(
      "invalid-argument",
      `Invalid ${field} "${shown}": ${message} (patterns run on RE2, a linear-time engine)`,
      unsupportedHint(message),
    );
  }
  if (re.programSize() > MAX_PROGRAM_SIZE) tooBig(shown, re.programSize(), field);
  return re;
}

function compile(shown: string, re2: string, flags: number, field: string): AgentMatcher {
  const re = compileRe2(shown, re2, flags, field);
  const programSize = re.programSize();
  const maxChars = Math.floor(WORK_BUDGET / programSize);
  return {
    source: shown,
    programSize,
    test: (text) => re.matcher(text.length > maxChars ? text.slice(0, maxChars) : text).find(),
  };
}

/**
 * Compiles a URL glob that must match the whole URL: `**` any characters,
 * `*` any characters but `/`, `?` one character; everything else literal.
 * Runs on RE2, so a glob such as `*a*a*a*a*b` stays linear.
 *
 * @throws ToolError `invalid-argument` for a glob longer than {@link MAX_PATTERN_LENGTH}.
 */
export function compileUrlGlob(glob: string, field = "url"): AgentMatcher {
  checkLength(glob, field);
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += "(?s:.*)";
        i++;
      } else re += "[^/]*";
    } else if (c === "?") re += "(?s:.)";
    else re += RE2JS.quote(c);
  }
  return compile(glob, `^${re}$`, 0, field);
}
