/**
 * What a call's session tells the pipeline: the session a call names, its news since the
 * previous result, and what really happened when a call failed at the tab level (the session
 * closed, its browser or tab crashed, its turn never came); a stuck tab's script stopped
 * after a spent budget.
 *
 * @module
 */
import { ToolError } from "../browser/tool_error.ts";
import { stopBusyScript } from "../browser/stuck_script.ts";
import { MAX_TABS } from "../browser/sessions/tab_cap.ts";
import { type SinceLastCall, takeSinceLastCall } from "../browser/since_last_call.ts";
import { refsGivenIn, refsShownIn, renewalsIn } from "../browser/snapshot/shown_refs.ts";
import type { CallToolResult } from "../tools/context.ts";
import type { ToolCall } from "./call_types.ts";

/**
 * After a call's budget was spent: when the session's tab does not answer (a page script stuck
 * in a loop holds its main thread), terminate that script, so the timeout's way out — navigate
 * elsewhere or reload — works at once instead of waiting behind the loop. Best effort, about
 * a second at most (browser/stuck_script.ts).
 */
export async function stopStuckTab(call: ToolCall): Promise<void> {
  const id = sessionOf(call);
  if (id === undefined) return;
  const page = call.ctx.sessions.list().find((s) => s.id === id)?.activePage;
  if (page && !page.isClosed && !page.crashed) await stopBusyScript(page.session);
}

/** The session a call names (`session`, else `default`), when its tool takes one. */
export function sessionOf(call: ToolCall): string | undefined {
  if (!("session" in call.tool.inputSchema.shape)) return undefined;
  const name = (call.args as { session?: unknown } | undefined)?.session;
  return typeof name === "string" ? name : "default";
}

/**
 * What happened in the call's session outside its action windows since its previous result
 * (taken once: the next result starts afresh); `undefined` when nothing did, or the call
 * names no open session.
 */
export function sinceLastCall(call: ToolCall): SinceLastCall | undefined {
  const id = sessionOf(call);
  if (id === undefined) return undefined;
  const session = call.ctx.sessions.list().find((s) => s.id === id);
  return session && !session.closed ? takeSinceLastCall(session) : undefined;
}

/**
 * Marks the refs `result` carries to the agent as shown in the call's session (see
 * `browser/snapshot/shown_refs.ts`): from now on an action may use them. Refs the call was
 * given are not marked by its own result (an error echoing a guessed ref does not show it).
 */
export function markRefsShown(call: ToolCall, result: CallToolResult): void {
  const id = sessionOf(call);
  if (id === undefined) return;
  const session = call.ctx.sessions.list().find((s) => s.id === id);
  if (!session || session.closed) return;
  const exclude = refsGivenIn(call.args);
  const text = result.content.map((c) => c.type === "text" ? c.text : "").join("\n");
  session.refs.markShown(refsShownIn(text, exclude));
  // A ref the agent was told the page re-created: its ref-gone names the new one.
  session.refs.noteRenewed(renewalsIn(text));
  // The structured content again, but the long strings the text holds whole (a snapshot).
  session.refs.markShown(refsShownIn(result.structuredContent, exclude, { scanned: text }));
}

/**
 * The timeout of a call whose budget ran out while it waited for a session's turn: another
 * call held the session the whole time, the page itself may be fine.
 */
export function keptWaiting(tool: string, session: string, spent: ToolError): ToolError {
  return new ToolError(
    "timeout",
    `"${tool}" did not start in time: session "${session}" was busy with another call ` +
      "until its budget ran out waiting for the session's turn; nothing was done",
    "call again once the other call has answered, or use another session (open_session)",
    { ...spent.details, waitedForSession: session },
  );
}

/** Tabs the call's session's pages opened during a call (`refused`: closed at once by the cap). */
export interface TabBurst {
  opened: number;
  refused: number;
}

/**
 * Marks where the call's session's tab counts stand as the call starts; the function returned
 * gives the tabs its pages opened since, or undefined when none did (or the call names no
 * open session).
 */
export function markTabBurst(call: ToolCall): () => TabBurst | undefined {
  const id = sessionOf(call);
  const session = id === undefined ? undefined : call.ctx.sessions.list().find((s) => s.id === id);
  if (!session) return () => undefined;
  const at = { ...session.pageTabs };
  return () => {
    const opened = session.pageTabs.opened - at.opened;
    return opened > 0 ? { opened, refused: session.pageTabs.refused - at.refused } : undefined;
  };
}

/**
 * The timeout of a call during which the page kept opening tabs (red team s17 F6: a click on
 * a 300-popup loop): Chromium opens each in turn while the page's script waits on it, so the
 * action was done and the time went to the burst, not to a script stuck in a loop.
 */
export function tabBurstTimeout(tool: string, burst: TabBurst, spent: ToolError): ToolError {
  const capped = burst.refused
    ? `, ${burst.refused} of them closed at once by the ${MAX_TABS}-tab cap`
    : "";
  return new ToolError(
    "timeout",
    `"${tool}" was done, but the page was still opening tabs when the call's time ran out ` +
      `(${burst.opened} opened during the call${capped}): its script waits while Chromium ` +
      "opens each, so the tab answers nothing until the burst ends",
    'tabs({ action: "list" }) shows the tabs kept; snapshot again once the page is done, or ' +
      "close_session to end it",
    { ...spent.details, tabsOpened: burst.opened, tabsClosedByCap: burst.refused },
  );
}

/** The error of a call whose session `id` was closed (close_session) while it ran. */
export function closedWhileRunning(tool: string, id: string): ToolError {
  return new ToolError(
    "unknown-session",
    `Session "${id}" was closed (close_session) while "${tool}" ran`,
    id === "default"
      ? "call again: a fresh default session starts"
      : `open_session({ session: "${id}" }) to start it again, or use another session`,
  );
}

/** Codes a dying browser or renderer shows up as at the tab level. */
const TAB_LEVEL = new Set(["page-closed", "page-changed", "page-crashed", "timeout", "internal"]);

/**
 * `error`, or what really happened: `unknown-session` when the call's session was closed while
 * it ran, `browser-crashed` when the call's session lost its browser (its tabs close first,
 * then the socket: a tab that "closed" that way needs a fresh session, not a tab switch), or
 * `page-crashed` when its tab's renderer died (a call waiting on a dead renderer times out
 * instead of failing).
 */
export function refineBySession(error: ToolError, call: ToolCall): ToolError {
  const { tool, args, ctx } = call;
  if (!TAB_LEVEL.has(error.code) || !("session" in tool.inputSchema.shape)) return error;
  const name = (args as { session?: unknown } | undefined)?.session;
  const id = typeof name === "string" ? name : "default";
  const session = ctx.sessions.list().find((s) => s.id === id);
  if (!session) {
    // The call got a session (its tab failed under it), and now there is none: closed meanwhile.
    return error.code === "page-closed" || error.code === "page-changed"
      ? closedWhileRunning(tool.name, id)
      : error;
  }
  try {
    session.ensureAlive();
  } catch (e) {
    if (e instanceof ToolError) return e;
  }
  const page = session.activePage;
  if (error.code !== "page-crashed" && page?.crashed) {
    return new ToolError(
      "page-crashed",
      `The tab crashed (its renderer process died) during "${tool.name}": ${page.url}`,
      "reload or navigate to recover it, or switch to another tab",
    );
  }
  return error;
}
