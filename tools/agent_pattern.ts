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
 * @module
 */
import { RE2JS } from "re2js";
import { ToolError } from "./errors.ts";

/** A compiled agent pattern: `test(text)` is true when the pattern matches somewhere in `text`. */
export interface AgentMatcher {
  /** The pattern as the agent wrote it (or the glob). */
  readonly source: string;
  /** True when the pattern matches somewhere in `text` (RE2 semantics, linear time). */
  test(text: string): boolean;
}

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
  return compile(pattern, pattern, flags, field);
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

function compile(shown: string, re2: string, flags: number, field: string): AgentMatcher {
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
  return { source: shown, test: (text) => re.matcher(text).find() };
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
