/**
 * `findElements` as a session's tools call it: the session's ref registry and feedback, the
 * navigation policy's hidden frames left out.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { type FindAnswer, type FindArgs, findElements } from "./find_elements.ts";
import { findMemoryOf } from "./memory.ts";
import { frameNoteOf } from "../frame_note.ts";

/**
 * Ranks `page`'s elements for `args` in `session` (see {@link findElements}: its CDP methods
 * and errors).
 */
export function findInSession(
  session: BrowserSession,
  page: Page,
  args: FindArgs,
  signal?: AbortSignal,
): Promise<FindAnswer> {
  return findElements(page, args, {
    refs: session.refs,
    memory: findMemoryOf(session.slots),
    signal,
    skipFrame: (url, id) => frameNoteOf(session, page)(url, id) !== undefined,
  });
}
