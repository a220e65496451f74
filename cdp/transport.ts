/**
 * The transport seam of the CDP client: one small interface that carries
 * commands and events for the browser session and every flat session. Two
 * implementations: the pipe of a browser browxai launched
 * (`pipe_transport.ts`), and this file's WebSocket (npm `ws`) for a browser
 * someone else runs (attached) or one launched with a debugging port; a fake
 * can stand in for both in unit tests.
 *
 * Our own framing, not chrome-remote-interface's: it files a command's
 * callback only once the socket's send callback has run and drops a reply
 * that arrives first (measured here: a third of the replies to
 * `Runtime.evaluate` sent from a `Runtime.bindingCalled` handler were lost,
 * each a 30 s timeout). Not Deno's own WebSocket either: its client closes
 * the connection on any message over 64 MiB (not configurable), and a page
 * reaches that with one `console.log` of a long string.
 *
 * @module
 */
import wsModule from "ws";
import { PendingReplies, type TransportReply } from "./replies.ts";

export type { TransportReply };

/** The part of npm `ws`'s client we use (its @types pull in a clashing @types/node). */
interface WsClient {
  readonly readyState: number;
  send(data: string, cb: (err?: Error) => void): void;
  close(): void;
  terminate(): void;
  on(event: "error", fn: (e: Error) => void): void;
  on(event: "message", fn: (data: { toString(): string }, isBinary: boolean) => void): void;
  once(event: "open" | "close", fn: () => void): void;
}

const WebSocket = wsModule as unknown as {
  new (url: string, options: { maxPayload: number; perMessageDeflate: boolean }): WsClient;
  readonly OPEN: number;
  readonly CLOSED: number;
};

/** What a {@link Connection} needs from the wire. */
export interface CdpTransport {
  /**
   * Sends one command. Resolves with the reply (a protocol error is a reply,
   * not a rejection); rejects only when the wire itself fails or closed.
   */
  send(
    method: string,
    params: object | undefined,
    sessionId: string | undefined,
    /** Aborted: the caller gave up (timeout, target gone); forget the reply's slot. */
    signal?: AbortSignal,
  ): Promise<TransportReply>;
  /** Called for every event; `sessionId` is undefined on the browser session. */
  onEvent: ((method: string, params: unknown, sessionId: string | undefined) => void) | undefined;
  /** Called once when the wire closes, for whatever reason. */
  onClose: ((reason: string) => void) | undefined;
  /** Closes the wire; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}

/**
 * Largest message accepted from the browser, bytes (below V8's longest
 * string, 2^29 - 24 characters, so every accepted message decodes). A page
 * can make CDP messages as big as it likes (a logged string, its text).
 * The pipe (browsers we launch) skips a longer message and goes on. The
 * WebSocket (attached browsers) closes: npm `ws` ends the connection on a
 * frame over `maxPayload` and cannot skip one, so the owner handles it like
 * a browser that went away; only that attached session is hit.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Opens a WebSocket transport to a browser endpoint
 * (`ws://127.0.0.1:PORT/devtools/browser/UUID`).
 *
 * Replies are matched by id, events handed to `onEvent`; when the socket
 * closes, every command still waiting rejects. `close()` waits at most
 * 2 s for the closing handshake, then drops the socket.
 *
 * @throws Error when the socket cannot be opened.
 */
export function connectWebSocket(wsUrl: string): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
    let open = false;
    let closeReason = "WebSocket connection closed";
    const pending = new PendingReplies();
    let closed = false;
    const closedPromise = new Promise<void>((r) => ws.once("close", () => r()));
    const transport: CdpTransport = {
      onEvent: undefined,
      onClose: undefined,
      send(method, params, sessionId, signal) {
        if (closed || ws.readyState !== WebSocket.OPEN) {
          return Promise.reject(new Error(closeReason));
        }
        const { id, text, reply } = pending.open(method, params, sessionId, signal);
        ws.send(text, (err) => {
          if (err) pending.failOne(id, err);
        });
        return reply;
      },
      async close() {
        if (!closed) {
          closed = true;
          ws.close();
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          closedPromise,
          new Promise<void>((r) => timer = setTimeout(r, 2000)),
        ]);
        clearTimeout(timer);
        if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
      },
    };
    ws.once("open", () => {
      open = true;
      resolve(transport);
    });
    ws.on("error", (e) => {
      if (!open) reject(new Error(`Cannot connect to ${wsUrl}: ${e.message}`));
      closeReason = `WebSocket error: ${e.message}`;
    });
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      const unreadable = pending.deliver(String(data), transport.onEvent);
      if (unreadable) {
        // The close fails every pending command: none is left waiting for a lost reply.
        closeReason = unreadable;
        ws.terminate();
      }
    });
    ws.once("close", () => {
      closed = true;
      pending.failAll(closeReason);
      if (open) transport.onClose?.(closeReason);
    });
  });
}
