/**
 * The web console (issue 15): its routes, on the `--http` listener or on a console-only
 * loopback listener (`--console` in stdio mode).
 *
 * Routes (every one needs the console cookie, see `access.ts`; the page also takes `?token=`):
 * - `GET /`, `GET /console`: the page (`ui/index.html`).
 * - `GET /console/console.css`, `GET /console/console.js`: its style and script.
 * - `GET /console/api/state`: the hub's state as JSON.
 * - `POST /console/api/message`: one viewer message (`{ type, … }`, JSON, at most 64 KiB, Origin
 *   checked) dispatched like a live-socket message; answers its reply (or `{ ok: true }`).
 * - `GET /console/live`: the live socket (WebSocket upgrade, Origin checked; `live_socket.ts`).
 *
 * Errors are JSON `{ error }`: 400 bad input, 401 no or wrong token/cookie, 403 a bad Host or
 * Origin, 404 no such route, 405 wrong method, 413 a body too large.
 *
 * @module
 */
import type { ConsoleHub } from "./hub.ts";
import { ConsoleAccess, jsonResponse, securityHeaders } from "./access.ts";
import { ASSETS, INDEX, readAsset } from "./assets.ts";
import { LiveSockets, MAX_MESSAGE_CHARS } from "./live_socket.ts";
import { activitySlice, sessionsSlice, Titles } from "./console_state.ts";

/** Options of {@link WebConsole}. */
export interface WebConsoleOptions {
  /** browxai's version (the `server` slice). */
  version: string;
  /** Whether browsers show windows (sessions count as attended). */
  headful: boolean;
  /** Masks secrets' values in texts shown (tails). */
  mask?: ((text: string) => string) | undefined;
}

/** A console-only listener. */
export interface ConsoleListener {
  /** The URL to open, with its token: `http://127.0.0.1:PORT/console?token=…`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Viewer id of messages that arrive by POST (they have no socket to answer on). */
const POST_VIEWER = 0;

/** The web console of one server process; see the module doc. */
export class WebConsole {
  readonly hub: ConsoleHub;
  readonly live: LiveSockets;
  readonly #options: WebConsoleOptions;

  constructor(hub: ConsoleHub, options: WebConsoleOptions) {
    this.hub = hub;
    this.#options = options;
    const titles = new Titles();
    // Masked here too: the live socket compares this slice with the last state's (masked).
    const sessions = () => hub.mask(sessionsSlice(hub, { headful: options.headful, titles }));
    hub.addStateProvider("server", () => ({
      version: options.version,
      headful: options.headful,
      viewers: hub.viewerCount,
    }));
    hub.addStateProvider("sessions", sessions);
    hub.addStateProvider("activity", () => activitySlice(hub));
    // A no-op round trip: lets a viewer (and the tests) check the socket answers.
    hub.onMessage(
      "ping",
      (m) => ({ type: "pong", ...(m.data !== undefined ? { data: m.data } : {}) }),
    );
    this.live = new LiveSockets(hub, {
      mask: options.mask ?? ((t) => t),
      sessions,
      tick: () => titles.refresh(hub, () => hub.changed("sessions")),
    });
  }

  /**
   * The console's request handler under `access`.
   *
   * @returns A handler answering console paths (`/`, `/console`, `/console/…`) and undefined
   *   for any other path (the caller's own routes, `/mcp`).
   */
  handler(access: ConsoleAccess): (req: Request) => Promise<Response | undefined> {
    return async (req) => {
      const url = new URL(req.url);
      const path = url.pathname;
      if (path !== "/" && path !== "/console" && !path.startsWith("/console/")) return undefined;
      const bad = access.hostProblem(req);
      if (bad) return jsonResponse(req, 403, { error: `Forbidden: ${bad}` });
      const page = path === "/" || path === "/console";
      if (
        page && url.searchParams.has("token") && (req.method === "GET" || req.method === "HEAD")
      ) {
        return await access.login(req, url);
      }
      if (!(await access.authenticated(req))) return access.unauthorized(req, "no console cookie");
      return await this.#route(req, url, access);
    };
  }

  async #route(req: Request, url: URL, access: ConsoleAccess): Promise<Response> {
    const path = url.pathname;
    const get = req.method === "GET" || req.method === "HEAD";
    const notAllowed = (allow: string) =>
      jsonResponse(req, 405, { error: `Method ${req.method} not allowed: use ${allow}` }, {
        allow,
      });
    if (path === "/" || path === "/console") {
      return get ? await this.#asset(req, INDEX.file, INDEX.contentType) : notAllowed("GET");
    }
    const name = path.slice("/console/".length);
    const asset = ASSETS[name];
    if (asset) {
      return get ? await this.#asset(req, asset.file, asset.contentType) : notAllowed("GET");
    }
    if (name === "api/state") {
      if (!get) return notAllowed("GET");
      try {
        return jsonResponse(req, 200, this.hub.state());
      } catch (e) {
        return jsonResponse(req, 500, { error: `Console state failed: ${(e as Error).message}` });
      }
    }
    if (name === "api/message") {
      if (req.method !== "POST") return notAllowed("POST");
      const origin = access.originProblem(req);
      if (origin) return jsonResponse(req, 403, { error: `Forbidden: ${origin}` });
      return await this.#post(req);
    }
    if (name === "live") {
      if (req.method !== "GET") return notAllowed("GET");
      const origin = access.originProblem(req);
      if (origin) return jsonResponse(req, 403, { error: `Forbidden: ${origin}` });
      if ((req.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
        return jsonResponse(req, 400, { error: "Bad request: /console/live is a WebSocket" });
      }
      let upgraded;
      try {
        upgraded = Deno.upgradeWebSocket(req, { idleTimeout: 60 });
      } catch (e) {
        return jsonResponse(req, 400, { error: `Bad request: ${(e as Error).message}` });
      }
      this.live.accept(upgraded.socket);
      return upgraded.response;
    }
    return jsonResponse(req, 404, { error: `Not found: ${path.slice(0, 200)}` });
  }

  async #asset(req: Request, file: string, contentType: string): Promise<Response> {
    const a = await readAsset(file, contentType);
    if (!a) {
      return jsonResponse(req, 500, {
        error: `The console's file ui/${file} is missing from this build: run \`deno task ui\``,
      });
    }
    return new Response(req.method === "HEAD" ? null : a.body as Uint8Array<ArrayBuffer>, {
      headers: {
        ...securityHeaders(req.headers.get("host")),
        "content-type": a.contentType,
        "cache-control": "no-cache",
      },
    });
  }

  async #post(req: Request): Promise<Response> {
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > MAX_MESSAGE_CHARS) {
      await req.body?.cancel().catch(() => {});
      return jsonResponse(req, 413, { error: `Body over ${MAX_MESSAGE_CHARS} bytes` });
    }
    let text: string;
    try {
      text = await readCapped(req, MAX_MESSAGE_CHARS);
    } catch (e) {
      return jsonResponse(req, 413, { error: (e as Error).message });
    }
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      return jsonResponse(req, 400, { error: "Bad request: the body is not JSON" });
    }
    if (
      !m || typeof m !== "object" || Array.isArray(m) ||
      typeof (m as { type?: unknown }).type !== "string"
    ) {
      return jsonResponse(req, 400, {
        error: 'Bad request: expected a JSON object with a string "type"',
      });
    }
    if ((m as { type: string }).type === "watch") {
      return jsonResponse(req, 400, { error: 'Bad request: "watch" is a live-socket message' });
    }
    const reply = await this.hub.handle(
      m as { type: string },
      { id: POST_VIEWER, send: () => {} },
    );
    if (reply?.type === "error") return jsonResponse(req, 400, reply);
    return jsonResponse(req, 200, reply ?? { ok: true });
  }

  /**
   * Starts a console-only listener on `hostname` (loopback) and `port` (0: a free one).
   *
   * @throws Deno.errors.AddrInUse when the port is taken.
   */
  async listen(options: { port: number; hostname?: string }): Promise<ConsoleListener> {
    const hostname = options.hostname ?? "127.0.0.1";
    const access = new ConsoleAccess({ bindHost: hostname });
    const handle = this.handler(access);
    let listening!: () => void;
    const listened = new Promise<void>((r) => listening = r);
    const server = Deno.serve({
      hostname,
      port: options.port,
      onListen: () => listening(),
    }, async (req) =>
      await handle(req) ??
        jsonResponse(req, 404, { error: "Not found: the console is at /console" }));
    await listened;
    const port = (server.addr as Deno.NetAddr).port;
    access.setPort(port);
    return {
      url: access.url(`http://${hostname}:${port}`),
      port,
      close: async () => {
        this.live.close();
        await server.shutdown();
      },
    };
  }

  /** Closes every live socket. */
  close(): void {
    this.live.close();
  }
}

/** Reads a request body as text, refusing more than `max` bytes. */
async function readCapped(req: Request, max: number): Promise<string> {
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += chunk.length;
    if (size > max) throw new Error(`Body over ${max} bytes`);
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}
