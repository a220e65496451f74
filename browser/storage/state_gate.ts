/**
 * The gates of writing a whole storage state into a session (`inject_storage_state`,
 * `auth_load`, `open_session`'s `storageState`/`authState`): the origin policy of each origin
 * and cookie it writes (storage_gate.ts), the secrets gate (stored_code_gate.ts) and, in an
 * attached browser, the owner's `byob_action`.
 *
 * @module
 */
import type { CallContext } from "../call_context.ts";
import type { BrowserSession } from "../sessions/browser_session.ts";
import type { StorageState } from "../../storage/storage_state.ts";
import { originOf } from "../../policy/hosts.ts";
import { ToolError } from "../tool_error.ts";
import {
  confirmAttachedWrite,
  cookieRefusal,
  cookieUrl,
  type PolicyOptions,
  storageRefusal,
} from "./storage_gate.ts";
import { requireEvalForStoredCode, stateTargets } from "./stored_code_gate.ts";

/**
 * Lets `tool` write `state` into `session`: refused when the policy stops any origin or cookie
 * it writes (all or nothing: a login half applied is worse than none), when it writes storage a
 * page holding a filled secret reads without `eval`; then in an attached browser `byob_action`
 * is asked (`what`: what it writes or clears, in words). Call it before the session's turn.
 * `approvals: false` for a session being opened (it has no site approvals yet).
 *
 * @throws ToolError `blocked-by-policy` (origin policy, the owner's no), `capability-required`
 *   (the secrets gate).
 */
export async function gateStateWrite(
  ctx: CallContext,
  session: BrowserSession,
  request: { tool: string; state: StorageState; what: string } & PolicyOptions,
): Promise<void> {
  const { tool, state } = request;
  const stopped = [
    ...new Set([
      ...state.cookies.filter((c) => typeof c.domain === "string" && c.domain !== "")
        .filter((c) => cookieRefusal(ctx, session, c, request) !== undefined)
        .map((c) => originOf(cookieUrl(c)) ?? c.domain),
      ...state.origins.filter((o) => storageRefusal(ctx, session, o.origin, request) !== undefined)
        .map((o) => originOf(o.origin) ?? o.origin),
    ]),
  ];
  if (stopped.length) {
    throw new ToolError(
      "blocked-by-policy",
      `Refused "${tool}": the policy stops ${stopped.slice(0, 5).join(", ")}${
        stopped.length > 5 ? ` and ${stopped.length - 5} more` : ""
      } (allowlist, blocklist or a site not approved); nothing was written`,
      "leave those origins out of the state, or navigate there first where the policy asks",
      { policy: { rule: "storage-origin", decision: "refused" } },
    );
  }
  requireEvalForStoredCode(ctx, tool, stateTargets(state));
  await confirmAttachedWrite(ctx, session, tool, request.what);
}
