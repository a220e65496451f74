/**
 * browxai: an MCP server that drives Chromium over the Chrome DevTools
 * Protocol. This is the command line: flags and `BROWX_*` environment to a
 * configuration, then the stdio or Streamable HTTP transport.
 *
 * @module
 */
import type { ServerConfig } from "./policy/server_config.ts";
import type { HttpServer } from "./mcp/transports/http_options.ts";
import { type Cli, parseCli, USAGE, UsageError, VERSION } from "./cli/parse_cli.ts";

export { type Cli, parseCli, UsageError, VERSION } from "./cli/parse_cli.ts";

/** `browxai <name>` runs a subcommand (`cdp/subcommands.ts`, loaded only then). */
const SUBCOMMAND_NAMES: readonly string[] = ["doctor", "install-browser"];

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
  if (sub !== undefined && SUBCOMMAND_NAMES.includes(sub)) {
    const { runSubcommand } = await import("./cdp/subcommands.ts");
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
  // The config file's BROWX_* settings win over the environment, for readers below main too.
  for (const [name, value] of Object.entries(cli.fileEnv)) Deno.env.set(name, value);
  for (const w of cli.warnings) console.error(`browxai: ${w}`);
  const unusable = await checkWorkspace(cli.config.workspace);
  if (unusable) {
    console.error(
      `browxai: Invalid workspace (--workspace or BROWX_WORKSPACE) "${cli.config.workspace}": ${unusable}; ` +
        "give a directory browxai may create and write",
    );
    return 2;
  }
  // The server's modules load only now: --help, --version and a refused start stay cheap
  // (~0.1 CPU-s instead of ~0.45: 550 modules).
  const [{ BrowserHost }, { serveStdio }, { ConsoleHub }, { installControl }] = await Promise.all([
    import("./browser/sessions/browser_host.ts"),
    import("./mcp/transports/stdio.ts"),
    import("./mcp/console/hub.ts"),
    import("./mcp/console/control.ts"),
  ]);
  const host = new BrowserHost({
    browserPath: cli.config.browserPath,
    headful: cli.config.headful,
    cdpEndpoint: cli.config.cdpEndpoint,
    ...cli.browser,
    // One client's page that crashes Chromium takes down only that client's sessions.
    browserPerClient: cli.http && cli.httpBrowsers === "per-client",
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
  const secretStore = cli.config.secrets;
  const hub = new ConsoleHub({
    mask: secretStore?.masks ? (value) => secretStore.mask(value) : undefined,
  });
  // A takeover nobody watches any more (the person closed the console) ends by itself.
  installControl(hub, { lapse: { headful: cli.config.headful } });
  // Loaded only when served (--http, --console): a plain stdio start does not pay for them.
  const { WebConsole } = cli.http || cli.consolePort !== undefined
    ? await import("./mcp/console/web_console.ts")
    : { WebConsole: undefined };
  const webConsole = () =>
    new WebConsole!(hub, {
      version: VERSION,
      headful: cli.config.headful,
      mask: secretStore ? (text) => secretStore.maskText(text) : undefined,
    });
  // Filled as the console's listeners start: the agent never reads or acts in a tab of it.
  const consoleListeners: NonNullable<ServerConfig["consoleListeners"]> = [];
  cli.config.consoleListeners = consoleListeners;
  if (cli.http) {
    const { serveHttp } = await import("./mcp/transports/http.ts");
    const { SessionPool } = await import("./browser/sessions/session_pool.ts");
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
    // One write: whoever reads the address (a supervisor, a test) has the token line with it.
    const banner = [`browxai ${VERSION}: MCP Streamable HTTP on ${server.url}`];
    if (server.consoleUrl) banner.push(`browxai: web console: ${server.consoleUrl}`);
    if (server.token && !Deno.env.get("BROWX_HTTP_TOKEN")) {
      banner.push(`browxai: bearer token (send Authorization: Bearer <token>): ${server.token}`);
    }
    if (server.tokenFile) {
      banner.push(`browxai: the token is kept in ${server.tokenFile}; delete it for a new one`);
    }
    if (!server.token) {
      // Loopback without BROWX_HTTP_TOKEN: the default, so say once what it lets in.
      banner.push(
        "browxai: warning: no token: any local process (any user of this machine) can connect " +
          "and drive the sessions; set BROWX_HTTP_TOKEN to require one",
      );
    }
    console.error(banner.join("\n"));
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
    console.error(
      "browxai: exiting:",
      e instanceof Error && e.name === "TokenFileError" ? e.message : e,
    );
    code = 1;
  }
  Deno.exit(code);
}
