/**
 * A scratch tab of a session's context, for browxai's own visits (storage state: the state's
 * origins visited with stub documents): opened, handed to `fn` as a {@link ScratchTab}, and
 * closed after; the active tab stays what it was, the agent's routes do not answer it, and its
 * opening and closing are not news for the next result.
 *
 * @module
 */
import { type ScratchTab, scratchTab } from "../../storage/storage_state.ts";
import type { BrowserSession } from "./browser_session.ts";

/**
 * Runs `fn` with a scratch tab of `session`'s context (not in the session's turn: a caller
 * that needs it takes it). CDP: `Target.createTarget`, `Target.closeTarget`.
 */
export async function withScratchTab<T>(
  session: BrowserSession,
  fn: (tab: ScratchTab) => Promise<T>,
): Promise<T> {
  const active = session.activePage;
  // The scratch tab is browxai's, not the page's: not news for the next result.
  const releaseBetween = session.between.hold();
  try {
    const page = await session.newTab();
    // Its stub documents are browxai's own: the agent's routes do not answer them.
    session.routes.exempt(page.target.targetId);
    try {
      const tab = await scratchTab(session.browser.connection, page.target.targetId);
      try {
        return await fn(tab);
      } finally {
        await tab.detach();
      }
    } finally {
      await session.closeTab(page);
      session.routes.unexempt(page.target.targetId);
      if (active && session.tabs.includes(active)) await session.activate(active);
    }
  } finally {
    releaseBetween();
  }
}
