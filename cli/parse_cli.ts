/**
 * The command line's parsing: flags and `BROWX_*` environment to a {@link Cli} (the server's
 * configuration and the transport's settings). `main.ts` runs it. What it reads from the
 * environment alone (ranges, the secrets file, the toolsets) is in `env_settings.ts`.
 *
 * @module
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseCapabilities } from "../policy/capabilities.ts";
import { decideHumanGate } from "../policy/human_gate.ts";
import { parseConfirmHooks } from "../policy/hooks.ts";
import { parseAllowedOrigins } from "../policy/sites.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import { registrableDomain } from "../policy/hosts.ts";
import { type BrowserSettings, browserSettings, withPolicyArgs } from "./browser_flags.ts";
import {
  type ConfigFile,
  FLAG_OPTIONS,
  type FlagValues,
  POLICY_SETTINGS,
  readConfigFile,
} from "./flag_table.ts";
import { UsageError } from "./usage_error.ts";
import { ENV_INTS, envInt, loadSecrets, parseToolsets, SCALE_INTS } from "./env_settings.ts";

export { USAGE } from "./usage.ts";

export { UsageError } from "./usage_error.ts";

/** browxai's version. */
export const VERSION = "0.1.0";

/** The parsed command line. */
export interface Cli {
  config: ServerConfig;
  http: boolean;
  host: string;
  port: number;
  help: boolean;
  version: boolean;
  /** Stdio mode: the web console's port (0: a free one), when `--console` or `BROWX_CONSOLE`. */
  consolePort: number | undefined;
  /** Things the operator should know that do not stop the server (printed to stderr). */
  warnings: string[];
  /** The `BROWX_HTTP_*` limits that were set (validated: see {@link ENV_INTS}). */
  httpLimits: {
    idleMs?: number;
    maxClients?: number;
    initTtlMs?: number;
    bodyTimeoutMs?: number;
    headTimeoutMs?: number;
  };
  /**
   * `BROWX_HTTP_BROWSERS`: `per-client` (default) gives each HTTP client a Chromium of its
   * own, `shared` puts every client's sessions in one Chromium (a context each).
   */
  httpBrowsers: "per-client" | "shared";
  /** The browser flags: launch switches, what sessions start with, automation tells. */
  browser: BrowserSettings;
  /**
   * The config file's `BROWX_*` settings: they win over the environment, so main.ts sets them
   * in it before anything reads it (discovery reads `BROWX_BROWSER` itself).
   */
  fileEnv: Record<string, string>;
  /** Session limits and drain (see {@link SCALE_INTS}). */
  scale: {
    maxSessions?: number;
    queueMax?: number;
    queueWaitMs?: number;
    idleMs?: number;
    drainMs?: number;
  };
}

/**
 * Decides between two flags that contradict each other (`--headed` / `--headless`): the
 * command line's choice, else the config file's; undefined when neither says.
 *
 * @returns true for `yes`, false for `no`.
 * @throws UsageError when one layer holds both.
 */
function pick(
  cli: FlagValues,
  file: FlagValues,
  what: string,
  yes: (v: FlagValues) => boolean | undefined,
  no: (v: FlagValues) => boolean | undefined,
): boolean | undefined {
  for (const [layer, v] of [["the command line", cli], ["--config", file]] as const) {
    if (yes(v) && no(v)) {
      throw new UsageError(
        `${what} contradicts ${
          what === "--headed" ? "--headless" : "--isolated"
        } (both in ${layer}): pick one`,
      );
    }
    if (yes(v)) return true;
    if (no(v)) return false;
  }
  return undefined;
}

const short = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);

/**
 * One warning per policy setting ({@link POLICY_SETTINGS}) that the config file changes from
 * what the environment says (the file wins, so a stricter environment would be replaced
 * silently); a flag on the command line, which wins over both, silences it. The token's
 * values are never shown.
 */
function policyOverrides(
  file: ConfigFile,
  cliValues: FlagValues,
  outerEnv: (name: string) => string | undefined,
): string[] {
  const out: string[] = [];
  for (const [name, flag] of Object.entries(POLICY_SETTINGS)) {
    const before = outerEnv(name);
    if (before === undefined) continue;
    const flagValue = flag ? (file.flags as Record<string, unknown>)[flag] : undefined;
    const fromFile = typeof flagValue === "string" ? flagValue : file.env[name];
    if (fromFile === undefined || fromFile === before) continue;
    if (flag && (cliValues as Record<string, unknown>)[flag] !== undefined) continue;
    const shown = name === "BROWX_HTTP_TOKEN"
      ? "(values not shown)"
      : `${short(before)} -> ${short(fromFile)}`;
    out.push(
      `--config overrides ${name} from the environment: ${shown}` +
        (typeof flagValue === "string" ? ` (key "${flag}")` : ""),
    );
  }
  return out;
}

/**
 * Parses arguments and environment into a configuration.
 *
 * @throws UsageError on unknown flags and bad values.
 */
export function parseCli(args: string[], env: (name: string) => string | undefined): Cli {
  // `--console` takes an optional port: alone (or before another flag) it means a free port.
  args = args.map((a, i) =>
    a === "--console" && !/^\d+$/.test(args[i + 1] ?? "") ? "--console=0" : a
  );
  let cliValues: FlagValues;
  try {
    cliValues = parseArgs({ args, strict: true, allowPositionals: false, options: FLAG_OPTIONS })
      .values as FlagValues;
  } catch (e) {
    throw new UsageError((e as Error).message.split("\n")[0]!);
  }
  // Flags win over the config file, the file over the environment.
  // BROWX_CONFIG for launchers that keep --config for themselves (the MCP Inspector does).
  const configPath = cliValues.config ?? env("BROWX_CONFIG");
  const file = configPath !== undefined && configPath.trim() !== ""
    ? readConfigFile(configPath)
    : { flags: {}, env: {} };
  const fileEnv = file.env;
  const outerEnv = env;
  env = (name) => fileEnv[name] ?? outerEnv(name);
  const values: FlagValues = { ...file.flags, ...cliValues };
  const warnings: string[] = policyOverrides(file, cliValues, outerEnv);
  // Pairs that contradict each other: the command line's choice replaces the file's.
  const headful =
    pick(cliValues, file.flags, "--headed", (v) => v.headed || v.headful, (v) => v.headless) ??
      false;
  const persistent = pick(
    cliValues,
    file.flags,
    "--user-data-dir",
    (v) => v["user-data-dir"] !== undefined,
    (v) => v.isolated,
  );
  if (persistent === false) delete values["user-data-dir"];
  let port = 0;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw new UsageError(`Invalid --port "${values.port}": expected an integer 0-65535`);
    }
  }
  if ((values.host !== undefined || values.port !== undefined) && !values.http) {
    throw new UsageError("--host and --port need --http");
  }
  let consolePort: number | undefined;
  const consoleSet = values.console ?? env("BROWX_CONSOLE");
  if (consoleSet !== undefined) {
    const from = values.console !== undefined ? "--console" : "BROWX_CONSOLE";
    consolePort = Number(consoleSet.trim());
    if (!/^\d{1,5}$/.test(consoleSet.trim()) || consolePort > 65535) {
      throw new UsageError(
        `Invalid ${from} "${consoleSet}": expected a port 0-65535 (0 or none: a free port)`,
      );
    }
    if (values.http && values.console !== undefined) {
      throw new UsageError(
        "--console is for stdio mode: with --http the console is served on the HTTP port " +
          "(its URL is printed); drop --console",
      );
    }
    if (values.http) {
      warnings.push(`${from} is for stdio mode: with --http the console is on the HTTP port`);
      consolePort = undefined;
    }
  }
  if (values["shared-browser-context"] && !values.http) {
    warnings.push("--shared-browser-context is for --http (a stdio server has one client)");
  }
  if (values["user-data-dir"] !== undefined && values.http && !values["shared-browser-context"]) {
    warnings.push(
      "--user-data-dir with --http: one client at a time holds the profile's default session; " +
        "add --shared-browser-context to share it",
    );
  }
  const endpoint = values["cdp-endpoint"];
  if (endpoint !== undefined && !/^(wss?|https?):\/\/[^/]+/.test(endpoint)) {
    throw new UsageError(
      `Invalid --cdp-endpoint "${endpoint}": expected ws://host:port/… or http://host:port`,
    );
  }
  const httpLimits: Cli["httpLimits"] = {};
  for (const [key, spec] of Object.entries(ENV_INTS)) {
    const n = envInt(env, spec);
    if (n !== undefined) httpLimits[key as keyof Cli["httpLimits"]] = n;
  }
  const httpBrowsers = env("BROWX_HTTP_BROWSERS")?.trim() || "per-client";
  if (httpBrowsers !== "per-client" && httpBrowsers !== "shared") {
    throw new UsageError(
      `Invalid BROWX_HTTP_BROWSERS "${httpBrowsers}": expected per-client or shared`,
    );
  }
  const scale: Cli["scale"] = {};
  for (const [key, spec] of Object.entries(SCALE_INTS)) {
    const n = envInt(env, spec);
    if (n !== undefined) scale[key as keyof Cli["scale"]] = n;
  }
  if (env("BROWX_CAPABILITIES")?.trim() === "") {
    // Empty is refused, not read as the default: an operator who cleared it meant fewer, not more.
    throw new UsageError(
      "Invalid BROWX_CAPABILITIES: empty; unset it for the default (read,navigation,action) or list capabilities",
    );
  }
  let capabilities;
  try {
    capabilities = parseCapabilities(env("BROWX_CAPABILITIES"));
  } catch (e) {
    throw new UsageError(`Invalid BROWX_CAPABILITIES: ${(e as Error).message}`);
  }
  let confirmRequired;
  try {
    confirmRequired = parseConfirmHooks(env("BROWX_CONFIRM_REQUIRED"));
  } catch (e) {
    throw new UsageError(`Invalid BROWX_CONFIRM_REQUIRED: ${(e as Error).message}`);
  }
  // The peer's lists are `;`-separated, browxai's `,`-separated: both are read.
  const originList = (flag: "allowed-origins" | "blocked-origins", name: string | undefined) => {
    const raw = values[flag] ?? (name ? env(name) : undefined);
    const from = values[flag] !== undefined ? `--${flag}` : name;
    try {
      return parseAllowedOrigins(raw?.replaceAll(";", ","), registrableDomain);
    } catch (e) {
      throw new UsageError(`Invalid ${from}: ${(e as Error).message}`);
    }
  };
  const allowedOrigins = originList("allowed-origins", "BROWX_ALLOWED_ORIGINS");
  const blockedOrigins = originList("blocked-origins", undefined);
  const confirmTimeout = env("BROWX_CONFIRM_TIMEOUT_MS");
  if (confirmTimeout !== undefined && !/^[1-9]\d{0,7}$/.test(confirmTimeout)) {
    throw new UsageError(
      `Invalid BROWX_CONFIRM_TIMEOUT_MS "${confirmTimeout}": expected milliseconds, 1-99999999`,
    );
  }
  const readonly = env("BROWX_CONFIG_READONLY");
  if (readonly !== undefined && !["", "0", "1", "true", "false"].includes(readonly)) {
    throw new UsageError(`Invalid BROWX_CONFIG_READONLY "${readonly}": expected 1 or 0`);
  }
  const sharedAuth = env("BROWX_SHARED_AUTH_STATES");
  if (sharedAuth !== undefined && !["", "0", "1", "true", "false"].includes(sharedAuth)) {
    throw new UsageError(`Invalid BROWX_SHARED_AUTH_STATES "${sharedAuth}": expected 1 or 0`);
  }
  const devtoolsConfirm = env("BROWX_DEVTOOLS_CONFIRM");
  if (devtoolsConfirm !== undefined && !["", "0", "1", "true", "false"].includes(devtoolsConfirm)) {
    throw new UsageError(`Invalid BROWX_DEVTOOLS_CONFIRM "${devtoolsConfirm}": expected 1 or 0`);
  }
  const elicitation = env("BROWX_CONFIRM_ELICITATION");
  if (elicitation !== undefined && !["", "0", "1", "true", "false"].includes(elicitation)) {
    throw new UsageError(
      `Invalid BROWX_CONFIRM_ELICITATION "${elicitation}": expected 1 (the default) or 0`,
    );
  }
  const noElicitation = elicitation === "0" || elicitation === "false";
  const loaded = loadSecrets(env("BROWX_SECRETS"), capabilities);
  const secrets = loaded.secrets;
  warnings.push(...loaded.warnings);
  const workspaceSet = values.workspace ?? env("BROWX_WORKSPACE");
  if (workspaceSet !== undefined && !workspaceSet.trim()) {
    const name = values.workspace !== undefined ? "--workspace" : "BROWX_WORKSPACE";
    throw new UsageError(
      `Invalid ${name}: empty; give a directory browxai may create and write (or unset it for ~/.browxai)`,
    );
  }
  const workspace = resolve(workspaceSet ?? join(env("HOME") ?? homedir(), ".browxai"));
  // `all` does not switch on a gate nobody can open; an explicit `human` without a channel warns.
  const human = decideHumanGate(capabilities, {
    wroteAll: env("BROWX_CAPABILITIES")?.trim() === "all",
    noElicitation,
    channels: {
      console: (values.http ?? false) || consolePort !== undefined,
      devtools: (headful ?? false) || devtoolsConfirm === "1" || devtoolsConfirm === "true",
    },
  });
  if (human.gate.warning) warnings.push(human.gate.warning);
  else if (!human.gate.on && capabilities.has("human")) warnings.push(human.gate.why);
  return {
    http: values.http ?? false,
    host: values.host ?? "127.0.0.1",
    port,
    help: values.help ?? false,
    version: values.version ?? false,
    consolePort,
    warnings,
    httpLimits,
    httpBrowsers,
    scale,
    browser: withPolicyArgs(browserSettings(values, env), { secrets, allowedOrigins }),
    fileEnv,
    config: {
      capabilities: human.capabilities,
      humanGate: human.gate,
      confirmRequired,
      allowedOrigins,
      ...(blockedOrigins.length ? { blockedOrigins } : {}),
      confirmTimeoutMs: confirmTimeout === undefined ? undefined : Number(confirmTimeout),
      configReadonly: readonly === "1" || readonly === "true",
      devtoolsConfirm: devtoolsConfirm === "1" || devtoolsConfirm === "true",
      ...(noElicitation ? { noElicitation } : {}),
      sharedAuthStates: sharedAuth === "1" || sharedAuth === "true",
      workspace,
      headful,
      // BROWX_BROWSER is read by discovery itself, so its errors name the right source.
      browserPath: values.browser,
      cdpEndpoint: endpoint,
      toolsets: parseToolsets(env("BROWX_TOOLSETS")),
      secrets,
      secretsFile: env("BROWX_SECRETS") ? resolve(env("BROWX_SECRETS")!) : undefined,
      configFile: cliValues.config !== undefined ? resolve(cliValues.config) : undefined,
      browserFiles: [
        ...(values["init-script"] ?? []),
        values["storage-state"],
        values["user-data-dir"],
      ].filter((f): f is string => !!f?.trim()).map((f) => resolve(f)),
      version: VERSION,
    },
  };
}
