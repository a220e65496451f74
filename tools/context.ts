/**
 * What every tool handler gets: the server configuration and the calling
 * client's sessions.
 *
 * @module
 */
import type { Capability } from "../policy/capabilities.ts";
import type { CallToolResult } from "../mcp/call_tool.ts";
import type { ApprovalStore } from "../policy/approvals.ts";
import type { ConfirmHook } from "../policy/hooks.ts";
import type { OriginPattern } from "../policy/sites.ts";
import type { SecretStore } from "../policy/secrets.ts";
import type { Toolset } from "./define_tool.ts";
import type { SessionManager } from "../browser/sessions/session_manager.ts";

/** The server's effective configuration. */
export interface ServerConfig {
  /** Enabled capabilities (`BROWX_CAPABILITIES`). */
  capabilities: ReadonlySet<Capability>;
  /** Root of every file browxai writes (`BROWX_WORKSPACE`, default `~/.browxai`). */
  workspace: string;
  /** Show browser windows (also makes the DevTools-console human channel available). */
  headful: boolean;
  /**
   * Ask confirm hooks in the DevTools console of a headless browser that a
   * person inspects remotely (`BROWX_DEVTOOLS_CONFIRM=1`); `headful` implies it.
   */
  devtoolsConfirm?: boolean | undefined;
  /** `--browser` / `BROWX_BROWSER`. */
  browserPath?: string | undefined;
  /** `--cdp-endpoint`: shared browser to attach to instead of launching. */
  cdpEndpoint?: string | undefined;
  /** Confirm hooks that need a human's yes (`BROWX_CONFIRM_REQUIRED`). */
  confirmRequired: ReadonlySet<ConfirmHook>;
  /** How long a human has to answer a confirm hook (`BROWX_CONFIRM_TIMEOUT_MS`), ms. */
  confirmTimeoutMs?: number | undefined;
  /** Navigation allowlist (`BROWX_ALLOWED_ORIGINS` host patterns); empty or absent: no list. */
  allowedOrigins?: readonly OriginPattern[] | undefined;
  /** Hide tools that change policy (`BROWX_CONFIG_READONLY=1`). */
  configReadonly?: boolean | undefined;
  /**
   * Registered secrets (`BROWX_SECRETS`): filled as `{{secret:NAME}}` and
   * masked in results with the `secrets` capability; absent: none.
   */
  secrets?: SecretStore | undefined;
  /** The secrets file's absolute path (`BROWX_SECRETS`): never a file the agent may name. */
  secretsFile?: string | undefined;
  /**
   * HTTP clients share the auth states of `.auth-states/` (`BROWX_SHARED_AUTH_STATES=1`)
   * instead of each keeping its own.
   */
  sharedAuthStates?: boolean | undefined;
  /** Toolsets listed in tools/list (`BROWX_TOOLSETS`); `"all"` lists everything. */
  toolsets: ReadonlySet<Toolset> | "all";
  /** browxai version. */
  version: string;
}

/** A request for a human's yes, guarded by a confirm hook. */
export interface ConfirmRequest {
  /**
   * The hook guarding the action; `site_visit` is the per-site approval
   * (asked whenever the `human` capability is on, never pre-approved);
   * `page_permission` is a page using a permission an agent granted
   * (geolocation, camera, microphone, clipboard: always asked, never pre-approved).
   */
  hook: ConfirmHook | "site_visit" | "page_permission";
  /** The tool asking. */
  tool: string;
  /** The session acted on. */
  session?: string | undefined;
  /** One line a human reads: what is about to happen, where. */
  summary: string;
  /** The origin acted on, when there is one. */
  origin?: string | undefined;
}

/** How a confirm request was decided (refusals throw). */
export interface ConfirmOutcome {
  /** `not-required`: the hook is not configured; `approved`: a human said yes; `pre-approved`: a live grant covered it. */
  decision: "not-required" | "approved" | "pre-approved";
  /** Who answered (`elicitation`, `devtools`, `console`, `grant`), when someone did. */
  by?: string;
}

/** The per-call context of a tool handler. */
export interface ToolContext {
  config: ServerConfig;
  /** The calling client's sessions. */
  sessions: SessionManager;
  /**
   * Asks for a confirm hook's permission. Resolves when the action may go
   * ahead; @throws ToolError `blocked-by-policy` when refused, unanswered in
   * time, or when no human channel can be asked (it never hangs).
   */
  confirm(request: ConfirmRequest): Promise<ConfirmOutcome>;
  /**
   * The same gate for questions a page raises later, outside this call (a page using a
   * granted permission): it holds no session, where `confirm` holds the asking session until
   * the call ends.
   */
  confirmOutsideCalls?: ((request: ConfirmRequest) => Promise<ConfirmOutcome>) | undefined;
  /**
   * Calls another tool through the same wrapper as a top-level call (every
   * gate applies); for `batch`. Never throws: failures are `isError` results.
   */
  dispatch(tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The client's pre-approvals (`approve_actions`). */
  approvals: ApprovalStore;
  /** Who is calling, for the audit log: the MCP session id over HTTP, `stdio` over stdio. */
  client: string;
  /** The client's own name (MCP `clientInfo.name`), when it sent one. */
  clientName?: string | undefined;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal | undefined;
}
