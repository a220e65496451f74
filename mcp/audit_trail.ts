/**
 * The audit trail's MCP side: one audit log per workspace, the origin a call acts on, and the
 * audit lines of questions a page raises outside any call.
 *
 * @module
 */
import { originOf } from "../policy/hosts.ts";
import { join } from "node:path";
import { type AuditConfirm, AuditLog, decideAudit } from "../policy/audit.ts";
import type { ToolContext } from "../tools/context.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import type { ConsoleAuditEvent } from "./console/hub.ts";

const auditLogs = new Map<string, AuditLog>();

/** The audit log of a workspace (one per folder, so its lines stay in call order). */
export function auditLogFor(workspace: string): AuditLog {
  const dir = join(workspace, "audit");
  let log = auditLogs.get(dir);
  if (!log) auditLogs.set(dir, log = new AuditLog(dir));
  return log;
}

/**
 * The origin a call acts on, for the audit line: the URL's origin, or the scheme of a hostless
 * URL (data:, file:: the scheme is what was acted on); undefined for a missing, blank or
 * malformed URL.
 */
export function actedOrigin(url: unknown): string | undefined {
  if (typeof url !== "string" || url === "" || url === "about:blank") return undefined;
  return originOf(url, { opaque: "scheme" });
}

/** The origin of the session's active tab, for the audit line (never opens a session). */
export function activeOrigin(ctx: ToolContext, session: string | undefined): string | undefined {
  if (session === undefined) return undefined;
  // list() never opens a session: auditing must not start a browser.
  const s = ctx.sessions.list().find((x) => x.id === session);
  return actedOrigin(s?.activePage?.url);
}

/**
 * Wraps the confirm gate for questions a page raises outside any call (a page using a
 * granted permission: hook `page_permission`) so that each answer gets its own audit line:
 * `tool` is `page:<api>` (e.g. `page:getCurrentPosition`), `args` `{ summary }`, the hook's
 * outcome in `confirms`, `decision` `asked` or `refused`.
 */
export function auditedOutsideCalls(
  confirm: ToolContext["confirm"],
  who: Pick<ToolContext, "client" | "clientName" | "config">,
): ToolContext["confirm"] {
  return async (request) => {
    const time = new Date().toISOString();
    const started = performance.now();
    const write = (c: AuditConfirm) =>
      auditLogFor(who.config.workspace).append({
        time,
        client: who.client,
        ...(who.clientName ? { clientName: who.clientName } : {}),
        ...(request.session !== undefined ? { session: request.session } : {}),
        tool: `page:${request.tool}`,
        args: { summary: request.summary },
        ...decideAudit({ ran: true, confirms: [c] }),
        confirms: [c],
        ...(request.origin ? { origin: request.origin } : {}),
        durationMs: Math.round(performance.now() - started),
        ok: c.answer !== "refused",
      }).catch(() => {});
    try {
      const outcome = await confirm(request);
      await write({
        hook: request.hook,
        answer: outcome.decision,
        ...(outcome.by ? { by: outcome.by } : {}),
      });
      return outcome;
    } catch (e) {
      await write({
        hook: request.hook,
        answer: "refused",
        reason: e instanceof Error ? e.message : String(e),
      });
      throw e;
    }
  };
}

/**
 * Writes the audit line of a person's act in the web console on a client's session: `tool`
 * `console:takeover` or `console:handback`, `args` `{ reason?, automatic? }` (automatic: control
 * came back because nobody watched), decision `allowed`. Never throws.
 */
export function auditConsoleAct(
  config: Pick<ServerConfig, "workspace" | "secrets">,
  event: ConsoleAuditEvent,
  who: { client: string; clientName?: string | undefined },
): void {
  const args = {
    ...(event.reason ? { reason: event.reason } : {}),
    ...(event.automatic ? { automatic: true } : {}),
  };
  const line = {
    time: new Date().toISOString(),
    client: who.client,
    ...(who.clientName ? { clientName: who.clientName } : {}),
    session: event.session,
    tool: `console:${event.action}`,
    args,
    ...decideAudit({ ran: true, confirms: [] }),
    durationMs: 0,
    ok: true,
  };
  const store = config.secrets;
  auditLogFor(config.workspace).append(store ? store.mask(line) : line).catch(() => {});
}
