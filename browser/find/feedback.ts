/**
 * `find_feedback`: a verdict on a ref for a query, kept by the element's stable features.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { callOnHandle, releaseHandle } from "../injected/mod.ts";
import type { RefRegistry } from "../snapshot/refs.ts";
import { parseRef } from "../snapshot/ref_syntax.ts";
import { resolveRef } from "../snapshot/resolve.ts";
import type { SessionSlots } from "../sessions/session_slots.ts";
import { ToolError } from "../tool_error.ts";
import { findMemoryOf } from "./memory.ts";

/** What `find_feedback` answers. */
export interface FeedbackAnswer {
  remembered: { query: string; ref: string; role: string; name: string; correct: boolean };
  /** Verdicts the session keeps. */
  verdicts: number;
}

/**
 * Records that `ref` is (or is not) what `query` means, in the session's find memory.
 * CDP: `Runtime.evaluate` (the ref check) and `Runtime.callFunctionOn` (`findStable`).
 *
 * @throws ToolError `invalid-argument` for an empty query; RefGoneError when the ref does not
 *   name a live element.
 */
export async function recordFeedback(
  page: Page,
  refs: RefRegistry,
  slots: SessionSlots,
  args: { query: string; ref: string; correct: boolean },
): Promise<FeedbackAnswer> {
  const query = args.query.trim();
  if (!query) {
    throw new ToolError(
      "invalid-argument",
      "Empty query",
      "pass the query you gave find, and the ref it meant",
    );
  }
  const handle = await resolveRef(page, refs, args.ref);
  let stable: { testId: string; idAttr: string };
  try {
    stable = await callOnHandle(handle, "findStable");
  } finally {
    releaseHandle(handle);
  }
  const entry = refs.get(parseRef(args.ref)!)!;
  const memory = findMemoryOf(slots);
  const context = entry.context ? `${entry.context.kind}\u0000${entry.context.text}` : "";
  memory.record(query, { role: entry.role, name: entry.name, ...stable, context }, args.correct);
  return {
    remembered: {
      query,
      ref: entry.ref,
      role: entry.role,
      name: entry.name.slice(0, 80),
      correct: args.correct,
    },
    verdicts: memory.size,
  };
}
