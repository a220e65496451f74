/**
 * The MCP clients of the Streamable HTTP server (`http.ts`): what it keeps of each, and when
 * one is gone (idle past its time, an `initialize` never followed up, or its event stream
 * ended and nothing came since).
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { SessionManager } from "../../browser/sessions/session_manager.ts";
import type { BrowserHost } from "../../browser/sessions/browser_host.ts";
import type { SseTransport } from "./http_sse.ts";
import type { PendingCalls } from "./pending_calls.ts";

/** One MCP client of the server. */
export interface Client {
  /** Streamable HTTP (`/mcp`), or the legacy SSE stream (`/sse`, `http_sse.ts`). */
  transport: WebStandardStreamableHTTPServerTransport | SseTransport;
  sessions: SessionManager;
  /** Its browsers: its own shared browser with a browser per client, else the server's host. */
  host: BrowserHost;
  lastSeen: number;
  /** When `initialize` was answered, ms since epoch. */
  created: number;
  /** True once the client sent anything after its `initialize`. */
  established: boolean;
  /** The SHA-256 of the token it initialized with ("" without tokens). */
  principal: string;
  /** Its requests not yet answered: each gets an error when the client is closed. */
  pending?: PendingCalls | undefined;
  /** Its `GET /mcp` event streams open now. */
  streams?: number;
  /** True once a stream of its closed with none open: the client may have exited. */
  streamGone?: boolean;
}

/**
 * Counts `req`, a `GET /mcp` event stream of `c`, as open until its connection ends. An SDK
 * client keeps one open for as long as it runs; one-shot CLIs (the MCP Inspector's `--cli`)
 * exit without `DELETE /mcp`, and the stream's end is the only sign they are gone.
 */
export function watchStream(c: Client, req: Request): void {
  c.streams = (c.streams ?? 0) + 1;
  req.signal.addEventListener("abort", () => {
    c.streams = (c.streams ?? 1) - 1;
    c.streamGone = c.streams === 0;
    c.lastSeen = Date.now();
  }, { once: true });
}

/**
 * Closes (`close(id, why)`, errors ignored) each client of `clients` that is gone: established
 * and idle past `idleMs`, initialized and silent past `initTtlMs`, or its event stream ended
 * with no call pending and nothing came for the shorter of the two, ms.
 */
export function sweepClients(
  clients: Map<string, Client>,
  limits: { idleMs: number; initTtlMs: number },
  close: (id: string, why: string) => Promise<void>,
): void {
  const { idleMs, initTtlMs } = limits;
  const now = Date.now();
  for (const [id, c] of clients) {
    const expired = c.established ? now - c.lastSeen > idleMs : now - c.created > initTtlMs;
    // Its event stream ended and nothing came since: gone like an unanswered handshake (its
    // own Chromium is ~200-450 MB); a client that lost its stream reopens it within seconds.
    const gone = c.streamGone && !c.pending?.size &&
      now - c.lastSeen > Math.min(idleMs, initTtlMs);
    if (expired) close(id, "the MCP session expired (idle)").catch(() => {});
    else if (gone) {
      close(id, "the client's event stream closed (the client exited)").catch(() => {});
    }
  }
}
