/**
 * What a session does with each CDP event of its tabs (`BrowserSession`): the event is logged
 * (`page_logs.ts`); a dialog is answered by the session's policy (`dialogs.ts`) and kept for
 * the next result; any other event is kept for the next result too (`between_calls.ts`); then
 * the session's listeners hear it.
 *
 * @module
 */
import type { Page, PageEventArgs } from "../../cdp/page.ts";
import type { BetweenCalls } from "./between_calls.ts";
import type { SessionDialogs } from "./dialogs.ts";
import type { PageLogs } from "./page_logs.ts";
import type { SessionListener } from "./browser_session_types.ts";

/** What routing its tabs' events needs of a session. */
export interface EventSession {
  readonly logs: PageLogs;
  readonly dialogs: SessionDialogs;
  readonly between: BetweenCalls<Page>;
}

/**
 * The handler of a session's tab events (see the module doc). `s`'s parts and `listeners` are
 * read at each event, so the router can be made before the session's constructor sets them.
 */
export function pageEventRouter(
  s: EventSession,
  listeners: ReadonlySet<SessionListener>,
): (page: Page, ...args: PageEventArgs) => void {
  return (page, ...args) => {
    const logged = s.logs.onEvent(page.target.targetId, ...args);
    const [method, params, session] = args;
    if (method === "Page.javascriptDialogOpening") {
      const record = s.dialogs.answer(page.target.targetId, params, session);
      s.between.dialog(record);
      for (const l of [...listeners]) l.dialog?.(record);
    } else if (method === "Page.javascriptDialogClosed") s.dialogs.closed(params);
    else {
      // A new document: no dialog of the frame's old one can still be open.
      if (method === "Page.frameNavigated") s.dialogs.frameNavigated(params.frame.id);
      s.between.pageEvent(page, logged, ...args);
    }
    for (const l of [...listeners]) l.event?.(page, ...args);
  };
}
