/**
 * The server's effective configuration, as `main.ts` builds it from flags, the config file
 * and `BROWX_*` variables. Data only: every layer below the MCP face reads it.
 *
 * @module
 */
import type { Capability } from "./capabilities.ts";
import type { ConfirmHook } from "./hooks.ts";
import type { OriginPattern } from "./sites.ts";
import type { SecretStore } from "./secrets.ts";
import type { Toolset } from "./toolsets.ts";
import type { ConsoleListenerAddress } from "./own_console.ts";
import type { HumanGateState } from "./human_gate.ts";

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
  /**
   * `BROWX_CONFIRM_ELICITATION=0`: confirm hooks, site approvals and `release` are never asked
   * through MCP elicitation, only the web console and the DevTools console. Elicitation is
   * answered by the agent's own client: one a hostile agent controls approves itself.
   */
  noElicitation?: boolean | undefined;
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
  /**
   * Navigation blocklist (`--blocked-origins` host patterns): never reached, even when the
   * allowlist covers them. Absent: none.
   */
  blockedOrigins?: readonly OriginPattern[] | undefined;
  /** Hide tools that change policy (`BROWX_CONFIG_READONLY=1`). */
  configReadonly?: boolean | undefined;
  /**
   * Registered secrets (`BROWX_SECRETS`): filled as `{{secret:NAME}}` and
   * masked in results with the `secrets` capability; absent: none.
   */
  secrets?: SecretStore | undefined;
  /** The secrets file's absolute path (`BROWX_SECRETS`): never a file the agent may name. */
  secretsFile?: string | undefined;
  /** The `--config` file's absolute path: never a file the agent may name (write or read). */
  configFile?: string | undefined;
  /**
   * The browser's files, absolute: `--user-data-dir` (a live profile: cookies, saved
   * passwords), `--storage-state` and each `--init-script`. Never paths the agent may name.
   */
  browserFiles?: readonly string[] | undefined;
  /**
   * HTTP clients share the auth states of `.auth-states/` (`BROWX_SHARED_AUTH_STATES=1`)
   * instead of each keeping its own.
   */
  sharedAuthStates?: boolean | undefined;
  /** Toolsets listed in tools/list (`BROWX_TOOLSETS`); `"all"` lists everything. */
  toolsets: ReadonlySet<Toolset> | "all";
  /** browxai version. */
  version: string;
  /**
   * The listeners serving browxai's web console (filled once they listen): a tab showing it
   * is neither read nor acted in by the agent (`own_console.ts`).
   */
  consoleListeners?: ConsoleListenerAddress[] | undefined;
  /**
   * The human gate as decided at start (`human_gate.ts`: `all` leaves `human` out when no
   * channel could answer); absent: read from `capabilities` alone.
   */
  humanGate?: HumanGateState | undefined;
}

/**
 * The files of the server's own configuration (the secrets file, the `--config` file, the
 * browser's profile folder, storage state and init scripts), as absolute paths: reserved for
 * every path an agent names, to read or to write.
 */
export function ownConfigFiles(
  config: Pick<ServerConfig, "secretsFile" | "configFile" | "browserFiles">,
): string[] {
  return [config.secretsFile, config.configFile, ...(config.browserFiles ?? [])]
    .filter((f): f is string => !!f);
}
