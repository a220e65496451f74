/**
 * What `console_read` and `network_read` share: the `since_seq` cursor and filter fields over a
 * session's ring buffer, the pattern compiler, and the note of a scan cut short.
 *
 * @module
 */
import { z } from "zod";
import { cappedString, MAX_QUERY_CHARS, sessionField } from "../fields.ts";
import { type AgentMatcher, compileAgentPattern } from "../../browser/agent_pattern.ts";

/** The agent's RE2 pattern compiled, or `undefined` for none; @throws as compileAgentPattern. */
export function compilePattern(pattern: string | undefined): AgentMatcher | undefined {
  return pattern === undefined ? undefined : compileAgentPattern(pattern);
}

/** The fields a scan cut short by the work budget adds (none otherwise). */
export function truncatedNote(truncated: boolean): Record<string, unknown> {
  return truncated
    ? {
      truncatedScan: true,
      note: "the pattern's work budget ran out: older entries (or the end of long ones) " +
        "were not searched; use a simpler pattern, since_seq, or a smaller limit",
    }
    : {};
}

/** The input fields both log readers take: pattern, limit, since_seq, session. */
export const cursorFields = {
  pattern: cappedString("a pattern", MAX_QUERY_CHARS).optional().describe(
    "RE2 regex filter over the text as shown (case-insensitive; no lookaround or backreferences)",
  ),
  limit: z.number().int().min(1).max(1000).optional().describe(
    "Max entries, newest kept (default 100)",
  ),
  since_seq: z.number().int().min(0).optional().describe("Entries after this seq (last_seq)"),
  session: sessionField,
};
