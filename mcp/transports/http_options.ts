/**
 * The options and the handle of the MCP Streamable HTTP server (`http.ts`):
 * where it listens, its tokens, its limits on clients, idle time, handshakes,
 * bodies and request heads, what it serves beside `/mcp`; and what a running
 * server gives back (its URL, token, console URL, close and drain).
 *
 * @module
 */
import type { ConsoleHub } from "../console/hub.ts";
import type { WebConsole } from "../console/web_console.ts";
import type { SessionPool } from "../../browser/sessions/session_pool.ts";

/** Options of `serveHttp` (`http.ts`). */
export interface HttpOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * Bearer tokens, comma-separated: each one is a principal, and an MCP
   * session answers only the token it was initialized with. Required (one
   * generated when absent) on non-loopback hosts.
   */
  token?: string | undefined;
  /**
   * A client that sends nothing for this long is closed with its browser
   * sessions (clients that vanish without DELETE would leak them), ms.
   * @default 1800000 (30 min)
   */
  idleMs?: number | undefined;
  /**
   * Most MCP sessions at once (initialized or initializing); the next
   * `initialize` is refused with 503.
   * @default 64
   */
  maxClients?: number | undefined;
  /**
   * A client that sends nothing after its `initialize` for this long is
   * closed (abandoned handshakes would pile up), ms; so is one that sent nothing
   * for this long since its `GET /mcp` event stream closed (it exited without DELETE).
   * @default 60000
   */
  initTtlMs?: number | undefined;
  /**
   * Time a request body may take to arrive whole; slower ones get 408, ms.
   * @default 30000
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * Time a connection has to send its whole request head (slow and half-open connections are
   * answered 408 and closed), ms.
   * @default 10000
   */
  headTimeoutMs?: number | undefined;
  /** The web console's hub: every client is registered there while connected. */
  hub?: ConsoleHub | undefined;
  /** The web console, served on the same listener (`/`, `/console`, `/console/…`). */
  console?: WebConsole | undefined;
  /** Server-wide session limits (`BROWX_MAX_SESSIONS`, …); a pool without limits when absent. */
  pool?: SessionPool | undefined;
}

/** A running HTTP server. */
export interface HttpServer {
  /** `http://host:port/mcp`. */
  url: string;
  port: number;
  /** The bearer token clients must send, when one is required (the first, if several). */
  token: string | undefined;
  /** Where the token browxai made is kept (`<workspace>/http-token`); absent for a given token. */
  tokenFile: string | undefined;
  /** The web console's URL with its token (`http://host:port/console?token=…`), when served. */
  consoleUrl: string | undefined;
  /** Stops accepting, closes every client's sessions. */
  close(): Promise<void>;
  /** Resolves when the server stopped. */
  finished: Promise<void>;
  /**
   * Refuses new clients and calls (503) and new sessions, then waits for the calls in flight,
   * at most `boundMs`; the caller closes after (http_ops.ts).
   */
  drain(boundMs: number): Promise<{ unfinished: number }>;
}
