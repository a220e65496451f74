/**
 * Closing a tab the browser opened itself before it became one of a session's tabs.
 *
 * @module
 */
import type { BrowserSession } from "./browser_session.ts";

/**
 * Closes tab `targetId` of `session`'s browser context that is not one of its tabs yet (a tab
 * the browser opened itself whose first document the guard refused, and which had not attached
 * when the acting call's window ended) while it is still blank. True when it was closed; false
 * for one of the session's tabs, another context's target, a frame, a tab that shows a document,
 * or one gone already.
 *
 * CDP: `Target.getTargetInfo`, `Target.closeTarget`.
 */
export async function closeUnlistedBlank(
  session: BrowserSession,
  targetId: string,
): Promise<boolean> {
  if (session.tabs.some((t) => t.target.targetId === targetId)) return false;
  const connection = session.browser.connection;
  const info = await connection.send("Target.getTargetInfo", { targetId })
    .then((r) => r.targetInfo, () => undefined);
  if (!info || info.type !== "page" || (info.url !== "" && info.url !== "about:blank")) {
    return false;
  }
  const context = session.browserContextId;
  if (context !== undefined && info.browserContextId !== context) return false;
  return await connection.send("Target.closeTarget", { targetId }).then(() => true, () => false);
}
