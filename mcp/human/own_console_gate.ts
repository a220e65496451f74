/**
 * The agent never reads or acts in browxai's own web console (issue 15): a person who opened
 * it in the browser the agent drives (their own, attached; a headful one) has its cookie
 * there, and its buttons answer the agent's confirm questions, take over and hand back. A
 * call whose session's active tab shows the console is refused before it runs, except what
 * lets the agent leave it (`tabs` list, switch, new; `close_session`). Navigating there is
 * refused by the navigation gate (`browser/nav_guard/navigation_gate.ts`).
 *
 * @module
 */
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import { ToolError } from "../../browser/tool_error.ts";
import { isOwnConsoleUrl } from "../../policy/own_console.ts";
import type { ServerConfig } from "../../policy/server_config.ts";

/**
 * The refusal of a call of `tool` (with `args`) on session `id` whose active tab shows
 * browxai's own console, or undefined when it may go on.
 */
export function ownConsoleRefusal(
  tool: string,
  args: unknown,
  id: string | undefined,
  sessions: Pick<SessionManager, "list">,
  config: Pick<ServerConfig, "consoleListeners">,
): ToolError | undefined {
  if (id === undefined || !config.consoleListeners?.length) return undefined;
  if (tool === "close_session") return undefined;
  const action = (args as { action?: unknown } | undefined)?.action;
  if (tool === "tabs" && (action === "list" || action === "switch" || action === "new")) {
    return undefined;
  }
  const page = sessions.list().find((s) => s.id === id)?.activePage;
  if (!page || page.isClosed || !isOwnConsoleUrl(page.url, config.consoleListeners)) {
    return undefined;
  }
  return new ToolError(
    "blocked-by-policy",
    `Refused "${tool}": the active tab of session "${id}" shows browxai's own web console, ` +
      "which the agent may neither read nor act in; nothing was done",
    'switch to another tab (tabs({ action: "list" }), then "switch") or open one ' +
      '(tabs({ action: "new" }))',
    { session: id, policy: { rule: "own-console", decision: "refused" } },
  );
}
