/**
 * Which frame the form tools work in. Forms live in iframes too (a login or
 * payment form embedded from another site): like action selectors
 * (`actions/frame_query.ts`), the form tools look in the main frame first,
 * then in child frames in snapshot order, and say which frame they used.
 *
 * @module
 */
import type { Page } from "../../cdp/page.ts";
import { type MatchFrame, searchFrames } from "../actions/frame_query.ts";
import { queryElementCount } from "../actions/secret_query.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import { frameNoteOf } from "../frame_note.ts";

/** What a form lives in when there is no `root`: any control a form tool reads or sets. */
const CONTROLS = "form, input, select, textarea, [contenteditable]";

/** The frame a form tool works in. */
export interface FormFrame {
  /** The frame's id (the main frame's by default). */
  frameId: string;
  /** Set when it is a child frame: its URL and the ref of its iframe element, if issued. */
  frame?: MatchFrame;
}

/**
 * The frame holding the form a tool means: the first frame (main frame
 * first, then child frames in snapshot order; frames the navigation policy
 * refused are skipped) where `root` (a CSS selector of the form or an
 * element in it) matches, or, with no `root`, the first with any form
 * control. The main frame when none has one (the tool then reports its own
 * not-found). CDP: `Runtime.evaluate` per frame (see `searchFrames`).
 *
 * @throws ToolError `refused` (a selector testing a secret's attribute while masking);
 *   what the main frame's query throws (an invalid selector); the signal's abort.
 */
export async function formFrame(
  session: BrowserSession,
  page: Page,
  options: { root?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<FormFrame> {
  const selector = options.root ?? CONTROLS;
  const found = await searchFrames(
    page,
    session.refs,
    async (frameId) => (await queryElementCount(page, frameId, selector)) > 0 ? true : undefined,
    {
      signal: options.signal,
      skip: (url, id) => frameNoteOf(session, page)(url, id) !== undefined,
    },
  );
  if (!found) return { frameId: page.mainFrameId };
  return { frameId: found.frameId, ...(found.frame ? { frame: found.frame } : {}) };
}
