/**
 * MCP Streamable HTTP: one MCP session per client (`Mcp-Session-Id`),
 * Host and Origin checked against DNS rebinding, a bearer token required
 * when bound to a non-loopback address. Browser sessions of one client are
 * invisible to another.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { navGuardFor } from "../policy/navigation_gate.ts";
import type { ServerConfig } from "../context.ts";
import { createMcpServer } from "../server.ts";
import type { BrowserHost } from "../sessions/browser_host.ts";
import { SessionManager } from "../sessions/session_manager.ts";

/** Options of {@link serveHttp}. */
export interface HttpOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Bearer token; required (and generated when absent) on non-loopback hosts. */
  token?: string | undefined;
  /**
   * A client that sends nothing for this long is closed with its browser
   * sessions (clients that vanish without DELETE would leak them), ms.
   * @default 1800000 (30 min)
   */
  idleMs?: number | undefined;
}

/** A running HTTP server. */
export interface HttpServer {
  /** `http://host:port/mcp`. */
  url: string;
  port: number;
  /** The bearer token clients must send, when one is required. */
  token: string | undefined;
  /** Stops accepting, closes every client's sessions. */
  close(): Promise<void>;
  /** Resolves when the server stopped. */
  finished: Promise<void>;
}

/** True for loopback host names and addresses. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  // Numeric only: "127.attacker.example" is a name anyone can point anywhere.
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function hostOf(headerValue: string): string {
  // "host:port" or "[v6]:port"
  if (headerValue.startsWith("[")) return headerValue.slice(0, headerValue.indexOf("]") + 1);
  return headerValue.split(":")[0]!;
}

/**
 * Decides whether a request's Host and Origin are acceptable (DNS rebinding
 * protection): on a loopback bind both must name a loopback host; on another
 * bind the Host must be the bound host (or loopback) and a browser Origin
 * must match the Host.
 */
export function checkHostAndOrigin(
  bindHost: string,
  hostHeader: string | null,
  originHeader: string | null,
): string | undefined {
  if (!hostHeader) return "missing Host header";
  const host = hostOf(hostHeader).replace(/^\[|\]$/g, "");
  const allowed = isLoopback(bindHost)
    ? isLoopback(host)
    : (isLoopback(host) || host === bindHost || bindHost === "0.0.0.0" || bindHost === "::");
  if (!allowed) return `Host "${hostHeader}" is not allowed`;
  if (originHeader && originHeader !== "null") {
    let origin: URL;
    try {
      origin = new URL(originHeader);
    } catch {
      return `Origin "${originHeader}" is malformed`;
    }
    if (isLoopback(bindHost) ? !isLoopback(origin.hostname) : origin.host !== hostHeader) {
      return `Origin "${originHeader}" is not allowed`;
    }
  } else if (originHeader === "null") return 'Origin "null" is not allowed';
  return undefined;
}

function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

interface Client {
  transport: WebStandardStreamableHTTPServerTransport;
  sessions: SessionManager;
  lastSeen: number;
}

/** Starts the Streamable HTTP server on `/mcp`. */
export function serveHttp(
  config: ServerConfig,
  host: BrowserHost,
  options: HttpOptions,
): Promise<HttpServer> {
  const needsToken = !isLoopback(options.host);
  const token = options.token || (needsToken ? crypto.randomUUID().replaceAll("-", "") : undefined);
  const clients = new Map<string, Client>();

  const closeClient = async (id: string) => {
    const c = clients.get(id);
    if (!c) return;
    clients.delete(id);
    await c.transport.close().catch(() => {});
    await c.sessions.closeAll();
  };
  const idleMs = options.idleMs ?? 30 * 60_000;
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, c] of clients) if (now - c.lastSeen > idleMs) closeClient(id).catch(() => {});
  }, Math.max(100, Math.min(60_000, idleMs / 2)));

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname !== "/mcp") return jsonError(404, `Not found: the MCP endpoint is /mcp`);
    const bad = checkHostAndOrigin(
      options.host,
      req.headers.get("host"),
      req.headers.get("origin"),
    );
    if (bad) return jsonError(403, `Forbidden: ${bad}`);
    if (token && req.headers.get("authorization") !== `Bearer ${token}`) {
      return jsonError(401, "Unauthorized: send Authorization: Bearer <token>", {
        "www-authenticate": 'Bearer realm="browxai"',
      });
    }
    const sessionId = req.headers.get("mcp-session-id");
    if (sessionId) {
      const client = clients.get(sessionId);
      if (!client) return jsonError(404, `Unknown MCP session "${sessionId}": initialize again`);
      client.lastSeen = Date.now();
      return await client.transport.handleRequest(req);
    }
    if (req.method !== "POST") {
      return jsonError(400, "Bad request: no Mcp-Session-Id; initialize first");
    }
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return jsonError(400, "Bad request: body is not JSON");
    }
    if (!isInitializeRequest(body)) {
      return jsonError(400, "Bad request: the first request of a client must be initialize");
    }
    const sessions = new SessionManager(host, config.workspace, {
      guard: navGuardFor(config),
      namespace: crypto.randomUUID(), // its own files (tools/sessions/areas.ts)
    });
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id: string) => {
          clients.set(id, { transport, sessions, lastSeen: Date.now() });
        },
        onsessionclosed: (id: string) => closeClient(id),
      });
    const server = createMcpServer(config, sessions);
    await server.connect(transport);
    return await transport.handleRequest(req, { parsedBody: body });
  };

  let listening!: (addr: Deno.NetAddr) => void;
  const listened = new Promise<Deno.NetAddr>((r) => listening = r);
  const httpServer = Deno.serve({
    hostname: options.host,
    port: options.port,
    onListen: (addr) => listening(addr as Deno.NetAddr),
  }, handler);
  return listened.then((a) => {
    const shownHost = a.hostname.includes(":") ? `[${a.hostname}]` : a.hostname;
    return {
      url: `http://${shownHost}:${a.port}/mcp`,
      port: a.port,
      token,
      finished: httpServer.finished,
      async close() {
        clearInterval(sweeper);
        await Promise.all([...clients.keys()].map(closeClient));
        await httpServer.shutdown();
      },
    };
  });
}
