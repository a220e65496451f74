/**
 * What every tool handler gets: the server configuration and the calling
 * client's sessions.
 *
 * @module
 */
import type { Capability } from "../policy/capabilities.ts";
import type { Toolset } from "./define_tool.ts";
import type { SessionManager } from "./sessions/session_manager.ts";

/** The server's effective configuration. */
export interface ServerConfig {
  /** Enabled capabilities (`BROWX_CAPABILITIES`). */
  capabilities: ReadonlySet<Capability>;
  /** Root of every file browxai writes (`BROWX_WORKSPACE`, default `~/.browxai`). */
  workspace: string;
  /** Show browser windows. */
  headful: boolean;
  /** `--browser` / `BROWX_BROWSER`. */
  browserPath?: string | undefined;
  /** `--cdp-endpoint`: shared browser to attach to instead of launching. */
  cdpEndpoint?: string | undefined;
  /** Toolsets listed in tools/list (`BROWX_TOOLSETS`); `"all"` lists everything. */
  toolsets: ReadonlySet<Toolset> | "all";
  /** browxai version. */
  version: string;
}

/** The per-call context of a tool handler. */
export interface ToolContext {
  config: ServerConfig;
  /** The calling client's sessions. */
  sessions: SessionManager;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal | undefined;
}
