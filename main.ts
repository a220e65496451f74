/**
 * browxai: an MCP server that drives Chromium over the Chrome DevTools
 * Protocol. This is the command line: flags and `BROWX_*` environment to a
 * configuration, then the stdio or Streamable HTTP transport.
 *
 * @module
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseCapabilities } from "./policy/capabilities.ts";
import { decideHumanGate } from "./policy/human_gate.ts";
import { TokenFileError } from "./mcp/transports/http_token.ts";
import { parseConfirmHooks } from "./policy/hooks.ts";
import { parseSecretsFile, SecretsFileError, SecretStore } from "./policy/secrets.ts";
import { parseAllowedOrigins } from "./policy/sites.ts";
import type { ServerConfig } from "./policy/server_config.ts";
import { registrableDomain } from "./policy/hosts.ts";
import { DEFAULT_TOOLSETS, isToolset, type Toolset, TOOLSETS } from "./policy/toolsets.ts";
import { BrowserHost } from "./browser/sessions/browser_host.ts";
import { type HttpServer, serveHttp } from "./mcp/transports/http.ts";
import { SessionPool } from "./browser/sessions/session_pool.ts";
import { serveStdio } from "./mcp/transports/stdio.ts";
import { ConsoleHub } from "./mcp/console/hub.ts";
import { runSubcommand, SUBCOMMANDS } from "./cdp/subcommands.ts";
import { installControl } from "./mcp/console/control.ts";
import { WebConsole } from "./mcp/console/web_console.ts";

/** browxai's version. */
export const VERSION = "0.1.0";

const USAGE = `Usage: browxai [--http] [--host 127.0.0.1] [--port N] [--console [PORT]] [--headful]
               [--browser PATH] [--cdp-endpoint URL] [--workspace DIR] [--help] [--version]
       browxai doctor            what browxai would run here, and what to fix
       browxai install-browser   install Chrome for Testing into the browser cache

  (default)            MCP over stdio
  --console [PORT]     stdio mode: also serve the web console on 127.0.0.1 (default: a free port);
                       its URL (with a token) is printed to stderr
  --http               MCP Streamable HTTP on http://HOST:PORT/mcp, the web console on /console
  --host HOST          HTTP bind address (default 127.0.0.1; others need BROWX_HTTP_TOKEN or get a generated token)
  --port N             HTTP port (default: a free port, printed to stderr)
  --headful            show browser windows; confirm hooks can then be answered in their DevTools console
  --browser PATH       Chromium/Chrome executable (else BROWX_BROWSER, CHROME_PATH, standard locations)
  --cdp-endpoint URL   use a running browser (ws://… or http://host:port) instead of launching one
  --workspace DIR      where browxai keeps profiles and files (default BROWX_WORKSPACE or ~/.browxai)

Environment (README "Command line" has the details):
  BROWX_WORKSPACE            where profiles and files live (default ~/.browxai)
  BROWX_BROWSER, CHROME_PATH the Chromium/Chrome to run (else browxai's cache, then system locations)
  BROWX_BROWSER_CACHE        where browsers are installed (default ~/.cache/browxai/browsers; BROWX_CACHE_DIR)
  BROWX_BROWSER_MIRROR       base URL to download Chrome for Testing from (its layout)
  BROWX_BROWSER_SHA256       the SHA-256 the downloaded archive must have
  BROWX_NO_DOWNLOAD=1        never install a browser on first need
  BROWX_BROWSER_SEARCH       cache-only: look only at the named paths and the cache
  BROWX_CAPABILITIES         read,navigation,action,human,byob-attach,self-approval,secrets,network-body,
                             eval,file-io,human-gate-override or all (default read,navigation,action)
  BROWX_TOOLSETS             toolsets tools/list shows, or all (default ${
  DEFAULT_TOOLSETS.join(",")
})
  BROWX_CONFIRM_REQUIRED     hooks that need a human's yes: navigate_off_allowlist,byob_action,
                             file_download,file_upload,submit,publish (default none)
  BROWX_CONFIRM_TIMEOUT_MS   how long a human has to answer (default 60000); no answer is a no
  BROWX_ALLOWED_ORIGINS      navigation allowlist: example.com, *.example.com, https://host:8443, *
  BROWX_DEVTOOLS_CONFIRM=1   answer confirm hooks in the DevTools console of a headless browser someone
                             inspects (chrome://inspect): __browx.confirm("CODE") in the "browxai" context
  BROWX_CONFIG_READONLY=1    hide and refuse tools that change policy (approve_actions)
  BROWX_SECRETS              a NAME=value file the agent fills as {{secret:NAME}} (secrets capability)
  BROWX_SHARED_AUTH_STATES=1 HTTP clients share one set of auth states
  BROWX_HTTP_TOKEN           bearer token(s) for --http, comma-separated (one per principal)
  BROWX_CONSOLE=PORT         as --console PORT (0: a free port)
  BROWX_HTTP_IDLE_MS, BROWX_HTTP_MAX_CLIENTS, BROWX_HTTP_INIT_TTL_MS, BROWX_HTTP_BODY_TIMEOUT_MS,
  BROWX_HTTP_HEAD_TIMEOUT_MS HTTP limits: idle client, clients at once, silent client after initialize,
                             request body time, request head time
  BROWX_MAX_SESSIONS         browser sessions open at once, all clients (--http; default no limit)
  BROWX_SESSION_QUEUE, BROWX_SESSION_WAIT_MS  opens that may wait for a free session (default 16),
                             and how long (default 30000; never past the call's budget); then "busy"
  BROWX_SESSION_IDLE_MS      close a session with no call for this long (--http; default never)
  BROWX_DRAIN_MS             on SIGTERM, time calls in flight get to finish (--http; default 10000)`;

/** A command-line or environment value browxai cannot use. */
export class UsageError extends Error {}

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
  /** Session limits and drain (see {@link SCALE_INTS}). */
  scale: {
    maxSessions?: number;
    queueMax?: number;
    queueWaitMs?: number;
    idleMs?: number;
    drainMs?: number;
  };
}

/** Scale-out settings, as {@link ENV_INTS}. */
const SCALE_INTS = {
  maxSessions: ["BROWX_MAX_SESSIONS", 1, 10_000, "sessions"],
  queueMax: ["BROWX_SESSION_QUEUE", 0, 10_000, "waiting opens"],
  queueWaitMs: ["BROWX_SESSION_WAIT_MS", 0, 86_400_000, "milliseconds"],
  idleMs: ["BROWX_SESSION_IDLE_MS", 100, 86_400_000, "milliseconds"],
  drainMs: ["BROWX_DRAIN_MS", 0, 86_400_000, "milliseconds"],
} as const;

/** Numeric environment variables: [name, least, most, unit]. Timeouts 100 ms..24 h; counts 1..10000. */
const ENV_INTS = {
  idleMs: ["BROWX_HTTP_IDLE_MS", 100, 86_400_000, "milliseconds"],
  maxClients: ["BROWX_HTTP_MAX_CLIENTS", 1, 10_000, "clients"],
  initTtlMs: ["BROWX_HTTP_INIT_TTL_MS", 100, 86_400_000, "milliseconds"],
  bodyTimeoutMs: ["BROWX_HTTP_BODY_TIMEOUT_MS", 100, 86_400_000, "milliseconds"],
  headTimeoutMs: ["BROWX_HTTP_HEAD_TIMEOUT_MS", 100, 86_400_000, "milliseconds"],
} as const;

/**
 * An integer environment variable in [min, max], or undefined when unset.
 *
 * @throws UsageError naming the variable and the allowed range (an empty value too).
 */
function envInt(
  env: (name: string) => string | undefined,
  [name, min, max, unit]: readonly [string, number, number, string],
): number | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const n = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `Invalid ${name} "${raw}": expected an integer number of ${unit}, ${min}-${max} (or unset it)`,
    );
  }
  return n;
}

/**
 * Loads `BROWX_SECRETS` (a dotenv-style file, see `policy/secrets.ts`).
 *
 * @returns The store (undefined without a file) and warnings: values too
 *   short to mask, a file others can read, the `secrets` capability off.
 * @throws UsageError naming the file and the bad line, never a value.
 */
function loadSecrets(
  path: string | undefined,
  capabilities: ReadonlySet<string>,
): { secrets: SecretStore | undefined; warnings: string[] } {
  const warnings: string[] = [];
  if (!path) {
    if (capabilities.has("secrets")) {
      warnings.push(
        "the secrets capability is on but BROWX_SECRETS is not set: no secrets to fill",
      );
    }
    return { secrets: undefined, warnings };
  }
  let text: string;
  let mode: number | null;
  try {
    text = Deno.readTextFileSync(path);
    mode = Deno.statSync(path).mode;
  } catch (e) {
    throw new UsageError(`Cannot read BROWX_SECRETS "${path}": ${(e as Error).message}`);
  }
  let parsed;
  try {
    parsed = parseSecretsFile(text);
  } catch (e) {
    if (!(e instanceof SecretsFileError)) throw e;
    throw new UsageError(`Invalid BROWX_SECRETS "${path}": ${e.message}`);
  }
  warnings.push(...parsed.warnings.map((w) => `BROWX_SECRETS: ${w}`));
  if (mode !== null && (mode & 0o077) !== 0) {
    warnings.push(`BROWX_SECRETS "${path}" is readable by other users: chmod 600 it`);
  }
  if (!capabilities.has("secrets")) {
    warnings.push(
      'BROWX_SECRETS is set but the "secrets" capability is off: {{secret:NAME}} is refused ' +
        "and results are not masked",
    );
  }
  return { secrets: new SecretStore(parsed.secrets, { origins: parsed.origins }), warnings };
}

function parseToolsets(value: string | undefined): ReadonlySet<Toolset> | "all" {
  if (!value?.trim()) return new Set(DEFAULT_TOOLSETS);
  if (value.trim() === "all") return "all";
  const names = value.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = names.filter((n) => !isToolset(n));
  if (bad.length) {
    throw new UsageError(
      `Unknown toolset ${bad.map((b) => `"${b}"`).join(", ")} in BROWX_TOOLSETS: valid are ${
        TOOLSETS.join(", ")
      }, all`,
    );
  }
  return new Set(names.filter(isToolset));
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
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        http: { type: "boolean" },
        console: { type: "string" },
        host: { type: "string" },
        port: { type: "string" },
        headful: { type: "boolean" },
        browser: { type: "string" },
        "cdp-endpoint": { type: "string" },
        workspace: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message.split("\n")[0]!);
  }
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
  const warnings: string[] = [];
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
  let allowedOrigins;
  try {
    allowedOrigins = parseAllowedOrigins(env("BROWX_ALLOWED_ORIGINS"), registrableDomain);
  } catch (e) {
    throw new UsageError(`Invalid BROWX_ALLOWED_ORIGINS: ${(e as Error).message}`);
  }
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
    channels: {
      console: (values.http ?? false) || consolePort !== undefined,
      devtools: (values.headful ?? false) || devtoolsConfirm === "1" || devtoolsConfirm === "true",
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
    scale,
    config: {
      capabilities: human.capabilities,
      humanGate: human.gate,
      confirmRequired,
      allowedOrigins,
      confirmTimeoutMs: confirmTimeout === undefined ? undefined : Number(confirmTimeout),
      configReadonly: readonly === "1" || readonly === "true",
      devtoolsConfirm: devtoolsConfirm === "1" || devtoolsConfirm === "true",
      sharedAuthStates: sharedAuth === "1" || sharedAuth === "true",
      workspace,
      headful: values.headful ?? false,
      // BROWX_BROWSER is read by discovery itself, so its errors name the right source.
      browserPath: values.browser,
      cdpEndpoint: endpoint,
      toolsets: parseToolsets(env("BROWX_TOOLSETS")),
      secrets,
      secretsFile: env("BROWX_SECRETS") ? resolve(env("BROWX_SECRETS")!) : undefined,
      version: VERSION,
    },
  };
}

/**
 * Creates the workspace if missing and proves it writable (a probe file made
 * and removed).
 *
 * @returns Why it cannot be used (one line), or undefined when it can.
 */
async function checkWorkspace(dir: string): Promise<string | undefined> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    if (!(await Deno.stat(dir)).isDirectory) return "not a directory";
    await Deno.remove(await Deno.makeTempFile({ dir, prefix: ".probe-" }));
    return undefined;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

async function main(): Promise<number> {
  // `browxai doctor`, `browxai install-browser`: no MCP, no server.
  const sub = Deno.args[0];
  if (sub !== undefined && SUBCOMMANDS.includes(sub)) {
    return await runSubcommand(sub, Deno.args.slice(1));
  }
  let cli: Cli;
  try {
    cli = parseCli(Deno.args, (n) => Deno.env.get(n));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`browxai: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (cli.help) {
    // Asked for, like --version: on stdout (`browxai --help | less`).
    console.log(USAGE);
    return 0;
  }
  if (cli.version) {
    // The one thing browxai prints on stdout outside MCP: asked for.
    console.log(`browxai ${VERSION}`);
    return 0;
  }
  for (const w of cli.warnings) console.error(`browxai: ${w}`);
  const unusable = await checkWorkspace(cli.config.workspace);
  if (unusable) {
    console.error(
      `browxai: Invalid workspace (--workspace or BROWX_WORKSPACE) "${cli.config.workspace}": ${unusable}; ` +
        "give a directory browxai may create and write",
    );
    return 2;
  }
  const host = new BrowserHost({
    browserPath: cli.config.browserPath,
    headful: cli.config.headful,
    cdpEndpoint: cli.config.cdpEndpoint,
  });
  /** Ends what the transport holds (HTTP: every client, its sessions and its files). */
  let closeTransport: (() => Promise<void>) | undefined;
  let stopping: Promise<void> | undefined;
  // The first reason to stop wins; a later caller (the HTTP server ending because a signal
  // closed it) waits for the same exit instead of racing it with another code.
  const shutdown = (code: number): Promise<void> =>
    stopping ??= (async () => {
      // Never leave an orphan Chromium behind: a browser that does not close in time is killed.
      const timer = setTimeout(() => {
        host.killAll();
        Deno.exit(code);
      }, 4000);
      await closeTransport?.().catch(() => {});
      await host.closeAll().catch(() => {});
      clearTimeout(timer);
      Deno.exit(code);
    })();
  let httpServer: HttpServer | undefined;
  let draining = false;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    try {
      Deno.addSignalListener(sig, () => {
        // A second SIGTERM while draining stops at once (143).
        if (sig === "SIGTERM" && httpServer && !stopping && !draining) {
          // Drain (issue 16): refuse new clients and calls, let calls in flight finish, exit 0.
          draining = true;
          const drainMs = cli.scale.drainMs ?? 10_000;
          console.error(`browxai: SIGTERM: draining (calls in flight get ${drainMs} ms)`);
          httpServer.drain(drainMs).then(({ unfinished }) => {
            console.error(`browxai: drained (${unfinished} calls unfinished): exiting`);
            shutdown(0);
          });
          return;
        }
        console.error(`browxai: ${sig}: exiting`);
        shutdown(sig === "SIGINT" ? 130 : 143);
      });
    } catch { /* not on this OS */ }
  }
  // A stray rejection must never take the server (and its sessions) down.
  globalThis.addEventListener("unhandledrejection", (e) => {
    e.preventDefault();
    console.error("browxai: unhandled rejection (kept running):", e.reason);
  });
  // An uncaught exception would end the process: say why, and close the browsers first.
  globalThis.addEventListener("error", (e) => {
    e.preventDefault();
    console.error("browxai: exiting: uncaught exception:", e.error ?? e.message);
    shutdown(70);
  });
  // The web console's hub (issue 15): every client and its sessions, the activity stream.
  const hub = new ConsoleHub();
  installControl(hub);
  const secretStore = cli.config.secrets;
  const webConsole = () =>
    new WebConsole(hub, {
      version: VERSION,
      headful: cli.config.headful,
      mask: secretStore ? (text) => secretStore.maskText(text) : undefined,
    });
  // Filled as the console's listeners start: the agent never reads or acts in a tab of it.
  const consoleListeners: NonNullable<ServerConfig["consoleListeners"]> = [];
  cli.config.consoleListeners = consoleListeners;
  if (cli.http) {
    const server = httpServer = await serveHttp(cli.config, host, {
      hub,
      console: webConsole(),
      pool: new SessionPool(cli.scale),
      host: cli.host,
      port: cli.port,
      token: Deno.env.get("BROWX_HTTP_TOKEN"),
      ...cli.httpLimits,
    });
    closeTransport = () => server.close();
    consoleListeners.push({ host: cli.host, port: server.port });
    console.error(`browxai ${VERSION}: MCP Streamable HTTP on ${server.url}`);
    if (server.consoleUrl) console.error(`browxai: web console: ${server.consoleUrl}`);
    if (server.token && !Deno.env.get("BROWX_HTTP_TOKEN")) {
      console.error(`browxai: bearer token (send Authorization: Bearer <token>): ${server.token}`);
    }
    if (server.tokenFile) {
      console.error(`browxai: the token is kept in ${server.tokenFile}; delete it for a new one`);
    }
    await server.finished;
    console.error("browxai: the HTTP server stopped: exiting");
  } else {
    console.error(`browxai ${VERSION}: MCP on stdio`);
    if (cli.consolePort !== undefined) {
      let listener;
      try {
        listener = await webConsole().listen({ port: cli.consolePort });
      } catch (e) {
        console.error(
          `browxai: cannot serve the web console on port ${cli.consolePort}: ${
            (e as Error).message
          }`,
        );
        return 2;
      }
      consoleListeners.push({ host: "127.0.0.1", port: listener.port });
      const before = closeTransport;
      closeTransport = async () => {
        await before?.();
        await listener.close();
      };
      console.error(`browxai: web console: ${listener.url}`);
    }
    const reason = await serveStdio(cli.config, host, hub);
    if (reason.kind === "read-error" || reason.kind === "write-error") {
      const stream = reason.kind === "read-error" ? "stdin" : "stdout";
      console.error(`browxai: exiting: ${stream} failed: ${reason.error.message}`);
      await shutdown(1);
      return 1;
    }
    console.error("browxai: stdin closed: exiting");
  }
  await shutdown(0);
  return 0;
}

if (import.meta.main) {
  let code: number;
  try {
    code = await main();
  } catch (e) {
    // Caught here: the "unhandledrejection" listener would otherwise keep a failed start alive.
    // A refusal that says what to do (the HTTP token file) needs no stack trace.
    console.error("browxai: exiting:", e instanceof TokenFileError ? e.message : e);
    code = 1;
  }
  Deno.exit(code);
}
