/**
 * The per-call context the browser model works in (the MCP face builds one per call; tool
 * handlers get it as part of their `ToolContext`).
 *
 * @module
 */
import type { ApprovalStore } from "../policy/approvals.ts";
import type { Confirm, ConfirmOutcome, ConfirmRequest, Consent } from "../policy/confirm.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import type { SessionManager } from "./sessions/session_manager.ts";

/**
 * Reports a call's progress (MCP `notifications/progress`): `progress` in the reporter's own
 * scale (steps, ms, phases), increasing; `total` when known; `message` says what is under way.
 * A no-op when the client sent no `progressToken`; throttled and kept increasing by the MCP
 * face (`mcp/progress.ts`), so a handler reports freely.
 */
export type Progress = (progress: number, total?: number, message?: string) => void;

/**
 * What the browser model gets from the call it serves: the configuration, the calling
 * client's sessions, its confirm gate and pre-approvals, and the call's cancel signal.
 */
export interface CallContext {
  config: ServerConfig;
  /** The calling client's sessions. */
  sessions: SessionManager;
  /**
   * Asks for a confirm hook's permission. Resolves when the action may go
   * ahead; @throws ToolError `blocked-by-policy` when refused, unanswered in
   * time, or when no human channel can be asked (it never hangs).
   */
  confirm: Confirm;
  /**
   * The same gate for questions a page raises later, outside this call (a page using a
   * granted permission): it holds no session, where `confirm` holds the asking session until
   * the call ends.
   */
  confirmOutsideCalls?: ((request: ConfirmRequest) => Promise<ConfirmOutcome>) | undefined;
  /**
   * Asks a person's consent through the consent channel (`release`, seed 004); absent when
   * the server has no human channel at all (then the agent's own word: `legacy`).
   */
  consent?: Consent | undefined;
  /** The client's pre-approvals (`approve_actions`). */
  approvals: ApprovalStore;
  /** Who is calling, for the audit log: the MCP session id over HTTP, `stdio` over stdio. */
  client: string;
  /** The client's own name (MCP `clientInfo.name`), when it sent one. */
  clientName?: string | undefined;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal | undefined;
  /**
   * The call's time so far, ms, less what a human took to answer: what a tool's `timeoutMs`
   * has left is `timeoutMs - elapsedMs()` (a browser start, a wait for the session's turn
   * count). Omitted: 0.
   */
  elapsedMs?: (() => number) | undefined;
  /**
   * The human channels that could answer a question about the default session now
   * (`elicitation`, `devtools`, `console`); absent: not known.
   */
  humanChannels?: (() => string[]) | undefined;
  /** Reports the call's progress to a client that asked for it (see {@link Progress}). */
  progress?: Progress | undefined;
}
