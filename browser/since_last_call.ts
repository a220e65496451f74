/**
 * `sinceLastCall`: what happened in a session outside its action windows since its previous
 * result (see `sessions/between_calls.ts`), taken once for the result being made.
 *
 * @module
 */
import type { BrowserSession } from "./sessions/browser_session.ts";
import type { SinceLastCall } from "./sessions/between_calls.ts";
import { scratchTab } from "./visibility.ts";

export type { SinceLastCall };

/**
 * Takes (and clears) the session's news between calls, with tab indexes as `tabs` lists them
 * (tab_visibility's blank tab left out); `undefined` when nothing happened.
 */
export function takeSinceLastCall(session: BrowserSession): SinceLastCall | undefined {
  const scratch = scratchTab(session);
  const shown = session.tabs.filter((p) => p !== scratch);
  return session.between.take({
    indexOf: (tab) => shown.indexOf(tab),
    active: session.activePage,
  });
}
