/**
 * MCP Streamable HTTP: one MCP session per client (`Mcp-Session-Id`),
 * Host and Origin checked against DNS rebinding, a bearer token required
 * when bound to a non-loopback address. Browser sessions of one client are
 * invisible to another. Its options and the running server's handle are in
 * `http_options.ts`; what it keeps of each client, and when a client is gone, in
 * `http_clients.ts`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { navGuardFor } from "../../browser/nav_guard/navigation_gate.ts";
import { isLoopback } from "../../policy/hosts.ts";
import { checkHostAndOrigin, digest, parseTokens } from "./http_admission.ts";
import { ByteBudget } from "./http_body.ts";
import { errorReply, RPC } from "./jsonrpc_gate.ts";
import { jsonError, messageReader, rpcErrors } from "./http_messages.ts";
import { MAX_MESSAGE_BYTES } from "./line_transport_options.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import { createMcpServer } from "../server.ts";
import { ConsoleAccess } from "../console/access.ts";
import type { BrowserHost } from "../../browser/sessions/browser_host.ts";
import { claimInstance, sweepDeadInstances } from "../../storage/instances.ts";
import { type Front, startFront } from "./http_front.ts";
import { endCancelledStreams } from "./http_streams.ts";
import { SessionManager } from "../../browser/sessions/session_manager.ts";
import { SessionPool } from "../../browser/sessions/session_pool.ts";
import { Ops } from "./http_ops.ts";
import { workspaceToken } from "./http_token.ts";
import { type SseDeps, sseRoute, SseTransport } from "./http_sse.ts";
import type { HttpOptions, HttpServer } from "./http_options.ts";
import { type PendingCalls, trackPendingCalls } from "./pending_calls.ts";
import { type Client, sweepClients, watchStream } from "./http_clients.ts";

/** Most bytes of a body without an MCP session (an `initialize`): 1 MiB. */
export const PRE_INIT_MAX_BYTES = 1024 * 1024;
/** Body bytes read at once, server-wide: two largest messages. */
const BODY_BUDGET = 2 * MAX_MESSAGE_BYTES;

/** Starts the Streamable HTTP server on `/mcp`. */
export async function serveHttp(
  config: ServerConfig,
  host: BrowserHost,
  options: HttpOptions,
): Promise<HttpServer> {
  const needsToken = !isLoopback(options.host);
  const tokens = parseTokens(options.token);
  // A token browxai makes is kept in the workspace: client configs keep working after restarts.
  const kept = !tokens.length && needsToken ? await workspaceToken(config.workspace) : undefined;
  if (kept) tokens.push(kept.token);
  const principals = new Set(await Promise.all(tokens.map(digest)));
  await sweepDeadInstances(config.workspace);
  const instance = await claimInstance(config.workspace);
  const clients = new Map<string, Client>();
  const maxClients = options.maxClients ?? 64;
  const budget = new ByteBudget(BODY_BUDGET);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  /** `initialize`s under way: they count against maxClients too. */
  let initializing = 0;

  // Clients being closed still hold their slot until their browsers are gone: a client that
  // DELETEs during a slow open cannot make room for another browser before its own is closed.
  let closing = 0;
  /** Closes client `id`: `why` ends the sentence its running calls are answered with. */
  const closeClient = async (id: string, why: string) => {
    const c = clients.get(id);
    if (!c) return;
    clients.delete(id);
    closing++;
    try {
      await c.pending?.answerAll(
        `Session ended: ${why} while this call ran; its browser sessions are closed. ` +
          "Initialize a new MCP session to go on.",
      );
      await c.transport.close().catch(() => {});
      await c.sessions.closeAll();
      // Its own browser (a browser per client) goes with it.
      if (c.host !== host) await c.host.closeShared();
    } finally {
      closing--;
    }
  };
  const idleMs = options.idleMs ?? 30 * 60_000;
  const initTtlMs = options.initTtlMs ?? 60_000;
  const sweeper = setInterval(
    () => sweepClients(clients, { idleMs, initTtlMs }, closeClient),
    Math.max(100, Math.min(60_000, idleMs / 2, initTtlMs / 2)),
  );

  /** The principal a request authenticates as ("" without tokens), or undefined: refused. */
  const principalOf = async (req: Request): Promise<string | undefined> => {
    if (!principals.size) return "";
    // The scheme is case-insensitive (RFC 7235 section 2.1); the token is not.
    const m = /^Bearer +(\S+) *$/i.exec(req.headers.get("authorization") ?? "");
    if (!m) return undefined;
    const p = await digest(m[1]!);
    return principals.has(p) ? p : undefined;
  };

  /** Host/Origin, then the bearer token: the request's principal, or the response refusing it. */
  const admit = async (req: Request): Promise<{ principal: string } | Response> => {
    const bad = checkHostAndOrigin(
      options.host,
      req.headers.get("host"),
      req.headers.get("origin"),
    );
    if (bad) return jsonError(403, `Forbidden: ${bad}`);
    const principal = await principalOf(req);
    if (principal === undefined) {
      return jsonError(401, "Unauthorized: send Authorization: Bearer <token>", {
        "www-authenticate": 'Bearer realm="browxai"',
      });
    }
    return { principal };
  };

  /** Reads and checks a POST body: the messages for the SDK, or the response that refuses it. */
  const readMessages = messageReader(budget, bodyTimeoutMs);

  // The console takes its own cookie only, never a bearer token of /mcp: that token is an
  // MCP client's, and the console answers that client's confirm questions (self-approval) and
  // shows and drives every client's sessions (other principals').
  const access = options.console ? new ConsoleAccess({ bindHost: options.host }) : undefined;
  const consoleRoutes = access ? options.console!.handler(access) : undefined;
  const pool = options.pool ?? new SessionPool();
  // /healthz, /readyz, /metrics, and the 503 of a draining server (http_ops.ts).
  const ops = new Ops({
    host,
    pool,
    clients: () => clients.size,
    guard: async (req) => {
      const admitted = await admit(req);
      return admitted instanceof Response ? admitted : undefined;
    },
  });

  /** A new client's browser sessions, on its own browser host (see `BrowserHost.forClient`). */
  const newSessions = (clientHost: BrowserHost) =>
    new SessionManager(clientHost, config.workspace, {
      guard: navGuardFor(config),
      // Logs never keep a cut secret prefix (masking happens at read time).
      secretSpans: config.secrets?.masks ? (text) => config.secrets!.spans(text) : undefined,
      // Its own files (browser/sessions/areas.ts), named after this server's instance so a later
      // start sweeps them if this server dies without removing them.
      namespace: `${instance.id}-${crypto.randomUUID().replaceAll("-", "")}`,
      pool,
    });
  const tooMany = () =>
    jsonError(
      503,
      `Too many MCP clients: ${maxClients} at once (BROWX_HTTP_MAX_CLIENTS); ` +
        "end one (DELETE /mcp with its Mcp-Session-Id) or retry later",
      { "retry-after": "10", connection: "close" },
    );

  // The legacy SSE transport behind the same gates as /mcp (http_sse.ts).
  const sse: SseDeps = {
    admit,
    refuseNew: () => clients.size + initializing + closing >= maxClients ? tooMany() : undefined,
    async open(transport, principal) {
      const clientHost = host.forClient();
      const sessions = newSessions(clientHost);
      const now = Date.now();
      clients.set(transport.sessionId, {
        transport,
        sessions,
        host: clientHost,
        lastSeen: now,
        created: now,
        established: false,
        principal,
      });
      transport.onGone = () =>
        void closeClient(transport.sessionId, "the client's SSE stream closed").catch(() => {});
      const server = createMcpServer(config, sessions, { hub: options.hub, metrics: ops.metrics });
      await server.connect(transport);
      const c = clients.get(transport.sessionId);
      if (c) c.pending = trackPendingCalls(transport);
    },
    find(sessionId, principal) {
      const c = clients.get(sessionId);
      if (!c || c.principal !== principal || !(c.transport instanceof SseTransport)) return;
      c.lastSeen = Date.now();
      c.established = true;
      return c.transport;
    },
    readMessages: (req, first) => readMessages(req, first ? PRE_INIT_MAX_BYTES : MAX_MESSAGE_BYTES),
  };

  const handler = async (req: Request): Promise<Response> => {
    // A Host that names no single host ("127.0.0.1:8080, evil.example") makes no URL: refused
    // before any route reads one.
    if (!URL.canParse(req.url)) {
      return jsonError(400, `Bad Request: Host "${req.headers.get("host")}" names no single host`);
    }
    const opsReply = ops.route(req);
    if (opsReply) return await opsReply;
    const url = new URL(req.url);
    const page = await consoleRoutes?.(req);
    if (page) return page;
    const legacy = sseRoute(req, sse);
    if (legacy) return await legacy;
    if (url.pathname !== "/mcp") {
      return jsonError(404, `Not found: the MCP endpoint is /mcp (legacy SSE: /sse)`);
    }
    const admitted = await admit(req);
    if (admitted instanceof Response) return admitted;
    const { principal } = admitted;
    const sessionId = req.headers.get("mcp-session-id");
    if (sessionId) {
      const client = clients.get(sessionId);
      // Another token's session is as unknown as a made-up one: holding its id is not enough.
      if (
        !client || client.principal !== principal ||
        !(client.transport instanceof WebStandardStreamableHTTPServerTransport)
      ) {
        return jsonError(
          404,
          `Unknown MCP session "${sessionId}": initialize again (it ended or expired, or the ` +
            "instance that held it behind a load balancer stopped; its browser sessions are gone)",
        );
      }
      client.lastSeen = Date.now();
      client.established = true;
      const transport = client.transport;
      if (req.method === "GET") watchStream(client, req);
      if (req.method !== "POST") return await transport.handleRequest(req);
      const read = await readMessages(req, MAX_MESSAGE_BYTES);
      if (read instanceof Response) return read;
      // The SDK refuses these with id null; the request's id belongs in the answer.
      const members = (read.batch ? read.body : [read.body]) as Array<Record<string, unknown>>;
      if (members.some(isInitializeRequest)) {
        const requests = members.filter((m) => "method" in m && "id" in m);
        return rpcErrors(
          requests.map((m) =>
            errorReply(
              m.id as string | number,
              RPC.INVALID_REQUEST,
              isInitializeRequest(m)
                ? "Invalid request: this MCP session is already initialized; to start over, " +
                  "initialize without an Mcp-Session-Id"
                : "Not run: this batch holds an initialize, which this session cannot take",
            )
          ),
          read.batch,
        );
      }
      return await transport.handleRequest(req, { parsedBody: read.body });
    }
    if (req.method !== "POST") {
      return jsonError(400, "Bad request: no Mcp-Session-Id; initialize first");
    }
    const full = () => tooMany();
    // Checked before the body is read (cheap refusal) and again after (sessions made meanwhile);
    // a body still arriving holds no slot, so slow uploads cannot fill the table.
    if (clients.size + initializing + closing >= maxClients) {
      await req.body?.cancel().catch(() => {});
      return full();
    }
    const read = await readMessages(req, PRE_INIT_MAX_BYTES);
    if (read instanceof Response) return read;
    if (read.batch || !isInitializeRequest(read.body)) {
      const m = read.body as { id?: string | number };
      return rpcErrors(
        [
          errorReply(
            !read.batch && m.id !== undefined ? m.id : null,
            RPC.INVALID_REQUEST,
            "Bad request: the first request of a client must be initialize, alone " +
              "(later requests carry the Mcp-Session-Id it answers with)",
          ),
        ],
        false,
        400,
      );
    }
    if (clients.size + initializing + closing >= maxClients) return full();
    const clientHost = host.forClient();
    const sessions = newSessions(clientHost);
    let pending: PendingCalls | undefined;
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id: string) => {
          const now = Date.now();
          clients.set(id, {
            transport,
            sessions,
            host: clientHost,
            lastSeen: now,
            created: now,
            established: false,
            principal,
            pending,
          });
        },
        onsessionclosed: (id: string) =>
          closeClient(id, "the client closed its MCP session (DELETE /mcp)"),
      });
    const server = createMcpServer(config, sessions, { hub: options.hub, metrics: ops.metrics });
    initializing++;
    try {
      await server.connect(transport);
      pending = trackPendingCalls(transport);
      endCancelledStreams(transport);
      return await transport.handleRequest(req, { parsedBody: read.body });
    } finally {
      initializing--;
    }
  };

  // Deno's HTTP server listens on a Unix socket in a private folder; the TCP port is the
  // front's, which bounds what Deno.serve cannot (request heads, connections: http_front.ts).
  // Without Unix sockets (Windows) Deno.serve takes the port itself.
  const unix = Deno.build.os !== "windows";
  const sockDir = unix ? await Deno.makeTempDir({ prefix: "browxai-http-" }) : undefined;
  let listening!: () => void;
  const listened = new Promise<void>((r) => listening = r);
  const httpServer = sockDir
    ? Deno.serve({ path: `${sockDir}/http.sock`, onListen: () => listening() }, handler)
    : Deno.serve({
      hostname: options.host,
      port: options.port,
      onListen: () => listening(),
    }, handler);
  await listened;
  let front: Front | undefined;
  try {
    front = sockDir
      ? startFront({
        hostname: options.host,
        port: options.port,
        upstreamPath: `${sockDir}/http.sock`,
        ...(options.headTimeoutMs ? { headTimeoutMs: options.headTimeoutMs } : {}),
      })
      : undefined;
  } catch (e) {
    await httpServer.shutdown();
    if (sockDir) await Deno.remove(sockDir, { recursive: true }).catch(() => {});
    instance.release();
    throw e;
  }
  const a = front?.addr ?? httpServer.addr as Deno.NetAddr;
  const shownHost = a.hostname.includes(":") ? `[${a.hostname}]` : a.hostname;
  access?.setPort(a.port);
  return {
    url: `http://${shownHost}:${a.port}/mcp`,
    port: a.port,
    token: tokens[0],
    tokenFile: kept?.file,
    consoleUrl: access?.url(`http://${shownHost}:${a.port}`),
    finished: httpServer.finished,
    drain: (boundMs) => ops.drain(boundMs),
    async close() {
      clearInterval(sweeper);
      options.console?.close();
      pool.dispose();
      await Promise.all([...clients.keys()].map((id) => closeClient(id, "the server is stopping")));
      front?.close();
      await httpServer.shutdown();
      if (sockDir) await Deno.remove(sockDir, { recursive: true }).catch(() => {});
      instance.release();
    },
  };
}
