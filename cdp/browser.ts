/**
 * A Chromium browser reached over CDP: either launched and owned by browxai,
 * or someone else's, attached by endpoint (never closed by us).
 *
 * @module
 */
import { Connection } from "./connection.ts";
import { CdpError } from "./errors.ts";
import { launchChromium, type LaunchedBrowser, type LaunchOptions } from "./launcher.ts";
import { type AttachedTarget, TargetManager, type TargetManagerOptions } from "./target_manager.ts";
import { connectWebSocket } from "./transport.ts";

/**
 * Turns an endpoint into a browser WebSocket URL. `ws://…` and `wss://…` are
 * used as given; `http://host:port` is asked for `/json/version`.
 *
 * @throws TypeError on a malformed endpoint; CdpError when the HTTP endpoint
 *   does not answer like a DevTools server.
 */
export async function resolveEndpoint(endpoint: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError(
      `Invalid CDP endpoint "${endpoint}": expected ws://host:port/devtools/browser/ID or http://host:port`,
    );
  }
  if (url.protocol === "ws:" || url.protocol === "wss:") return endpoint;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(
      `Invalid CDP endpoint "${endpoint}": scheme must be ws, wss, http or https`,
    );
  }
  const versionUrl = new URL("/json/version", url);
  let res: Response;
  try {
    res = await fetch(versionUrl, { signal: AbortSignal.timeout(5000) });
  } catch (e) {
    throw new CdpError(`Cannot reach CDP endpoint "${endpoint}": ${(e as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new CdpError(
      `Cannot reach CDP endpoint "${endpoint}": HTTP ${res.status} from /json/version`,
    );
  }
  const body = await res.json() as { webSocketDebuggerUrl?: string };
  if (!body.webSocketDebuggerUrl) {
    throw new CdpError(
      `Cannot use CDP endpoint "${endpoint}": /json/version has no webSocketDebuggerUrl`,
    );
  }
  return body.webSocketDebuggerUrl;
}

/** A browser and its target manager. */
export class Browser {
  /** The browser-level connection. */
  readonly connection: Connection;
  /** The one owner of targets. */
  readonly targets: TargetManager;
  /** True when browxai launched this browser (and so may close it). */
  readonly owned: boolean;
  /**
   * The browser's WebSocket endpoint; undefined for a browser launched on its
   * pipe (the default: it opens no port).
   */
  readonly wsEndpoint: string | undefined;
  #process: LaunchedBrowser | undefined;
  #closing: Promise<void> | undefined;

  private constructor(
    connection: Connection,
    targets: TargetManager,
    process: LaunchedBrowser | undefined,
    wsEndpoint: string | undefined,
  ) {
    this.wsEndpoint = wsEndpoint;
    this.connection = connection;
    this.targets = targets;
    this.owned = process !== undefined;
    this.#process = process;
  }

  /**
   * Launches Chromium and connects: over its pipe, or with `debugPort` over
   * the WebSocket of its loopback port. See {@link launchChromium}.
   */
  static async launch(
    options: LaunchOptions,
    manager: TargetManagerOptions = {},
  ): Promise<Browser> {
    const proc = await launchChromium(options);
    try {
      const connection = new Connection(proc.transport ?? await connectWebSocket(proc.wsEndpoint!));
      // A dead browser process means a dead connection, even before the wire notices; and a
      // connection gone (a message past the size cap, a wire error) leaves no browser behind.
      proc.exited.then((code) =>
        connection.close(
          code > 128
            ? `the browser process was killed (signal ${code - 128})`
            : `the browser process exited (code ${code})`,
        )
      ).catch(() => {});
      connection.closed.then(() => proc.close()).catch(() => {});
      const targets = await TargetManager.start(connection, manager);
      return new Browser(connection, targets, proc, proc.wsEndpoint);
    } catch (e) {
      await proc.close();
      throw e;
    }
  }

  /** Attaches to a browser someone else runs (`ws://…` or `http://host:port`). */
  static async connect(endpoint: string, manager: TargetManagerOptions = {}): Promise<Browser> {
    const ws = await resolveEndpoint(endpoint);
    let transport;
    try {
      transport = await connectWebSocket(ws);
    } catch (e) {
      throw new CdpError(`Cannot connect to CDP endpoint "${endpoint}": ${(e as Error).message}`);
    }
    const connection = new Connection(transport);
    const targets = await TargetManager.start(connection, manager);
    return new Browser(connection, targets, undefined, ws);
  }

  /** SIGKILLs an owned browser's processes now (exit paths); nothing for an attached one. */
  kill(): void {
    this.#process?.kill();
  }

  /** OS pid of an owned browser. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** True once the connection is gone (crash, exit, close). */
  get isClosed(): boolean {
    return this.connection.isClosed;
  }

  /** True once {@link close} was called (a connection that ends otherwise is a crash). */
  get closing(): boolean {
    return this.#closing !== undefined;
  }

  /** Resolves when the connection closes. */
  get closed(): Promise<string> {
    return this.connection.closed;
  }

  /** Creates an isolated browser context (incognito-like). CDP: `Target.createBrowserContext`. */
  async createContext(): Promise<string> {
    const { browserContextId } = await this.connection.send("Target.createBrowserContext", {
      disposeOnDetach: true,
    });
    return browserContextId;
  }

  /** Disposes a context and its pages. CDP: `Target.disposeBrowserContext`. */
  async disposeContext(browserContextId: string): Promise<void> {
    await this.connection.send("Target.disposeBrowserContext", { browserContextId });
  }

  /**
   * Opens a tab and waits until it is attached and set up; with a `url`, then
   * starts loading it (resolves once Chromium answered `Page.navigate`).
   *
   * The tab is created blank and navigated only after the attach hooks ran:
   * a tab created directly on a URL sometimes commits its first document
   * before the hooks' init scripts take effect (a few percent of the time).
   * CDP: `Target.createTarget`, `Page.navigate`.
   */
  async newPage(
    browserContextId: string | undefined,
    url = "about:blank",
  ): Promise<AttachedTarget> {
    const { targetId } = await this.connection.send("Target.createTarget", {
      url: "about:blank",
      ...(browserContextId ? { browserContextId } : {}),
    });
    const target = await this.targets.waitForTarget(targetId);
    if (url !== "about:blank") await target.session.send("Page.navigate", { url });
    return target;
  }

  /**
   * Closes an owned browser (CDP `Browser.close`, then the process is ended)
   * or disconnects from an attached one without closing it. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.targets[Symbol.asyncDispose]();
      if (this.#process) {
        const closed = await this.connection.send("Browser.close", undefined, { timeoutMs: 2000 })
          .then(() => true, () => false);
        // Browser.close answers before the browser has written its profile (the cookie store
        // is flushed on the way out): give it time to exit by itself before it is killed.
        if (closed) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            this.#process.exited,
            new Promise((r) => timer = setTimeout(r, 3000)),
          ]);
          clearTimeout(timer);
        }
        await this.connection.close().catch(() => {});
        await this.#process.close();
      } else {
        await this.connection.close().catch(() => {});
      }
    })();
    return this.#closing;
  }
}
