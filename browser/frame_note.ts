/**
 * Which frames a page read leaves unread, and the line it shows instead: a frame a dialog
 * blocks that Chromium cannot answer (its script is stopped: reading it would wait for the
 * call's whole budget), and a child frame the navigation policy refuses.
 *
 * @module
 */
import type { Page } from "../cdp/page.ts";
import type { BrowserSession } from "./sessions/browser_session.ts";

/** A frame's note: the line shown in its place, or undefined to read it. */
export type FrameNote = (url: string, frameId: string) => string | undefined;

/**
 * The frame notes of `page` in `session`. The main frame gets a note only when a dialog blocks
 * it (a read then fails with that note at once); a child frame also when the navigation
 * policy refuses its URL.
 */
export function frameNoteOf(session: BrowserSession, page: Page): FrameNote {
  return (url, frameId) =>
    session.dialogs.blockedNote(frameId) ??
      (frameId === page.mainFrameId ? undefined : session.navGuard?.frameNote(url, page.url));
}
