/**
 * The transport seam of the CDP client: one small interface that carries
 * commands and events for the browser session and every flat session, and
 * owns the calls in flight (ids, replies, time budgets, aborts: one
 * {@link PendingCalls} registry per wire). Two
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
import { type CallOptions, PendingCalls } from "./replies.ts";

export type { CallOptions };

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

/** npm `ws`'s client class, as we use it. */
type WsClass = {
  new (url: string, options: { maxPayload: number; perMessageDeflate: boolean }): WsClient;
  readonly OPEN: number;
  readonly CLOSED: number;
};

/** Loaded on the first WebSocket connection: a launched browser speaks over a pipe. */
async function loadWs(): Promise<WsClass> {
  return (await import("ws")).default as unknown as WsClass;
}

/** What a {@link Connection} needs from the wire. */
export interface CdpTransport {
  /**
   * Sends one command and resolves with its result.
   *
   * @throws ProtocolError (the browser answered with an error) | TimeoutError (past
   *   `options.timeoutMs`, labelled with the method) | AbortError (`options.signal` aborted;
   *   the call is forgotten at once) | ConnectionClosedError (the wire failed or closed) |
   *   whatever {@link CdpTransport.failSession} gave. Every error carries the caller's stack.
   */
  send(
    method: string,
    params: object | undefined,
    options: CallOptions,
  ): Promise<Record<string, unknown>>;
  /** Fails the calls pending on one session with `error()`; other sessions' calls go on. */
  failSession(sessionId: string, error: () => Error): void;
  /** Called for every event; `sessionId` is undefined on the browser session. */
  onEvent: ((method: string, params: unknown, sessionId: string | undefined) => void) | undefined;
  /** Called once when the wire closes, for whatever reason. */
  onClose: ((reason: string) => void) | undefined;
  /**
   * Closes the wire; resolves when it is closed. Idempotent. Calls still waiting fail at once
   * with `ConnectionClosedError` (`Connection closed: <reason>`; default: the wire's own).
   */
  close(reason?: string): Promise<void>;
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
export async function connectWebSocket(wsUrl: string): Promise<CdpTransport> {
  const WebSocket = await loadWs();
  return await new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
    let open = false;
    let closeReason = "WebSocket connection closed";
    const calls = new PendingCalls();
    let closed = false;
    const closedPromise = new Promise<void>((r) => ws.once("close", () => r()));
    const transport: CdpTransport = {
      onEvent: undefined,
      onClose: undefined,
      send(method, params, options) {
        return calls.call(method, params, options, (text, failed) => {
          if (closed || ws.readyState !== WebSocket.OPEN) return failed(new Error(closeReason));
          ws.send(text, (err) => {
            if (err) failed(err);
          });
        });
      },
      failSession: (sessionId, error) => calls.failSession(sessionId, error),
      async close(reason) {
        if (!closed) {
          closed = true;
          calls.close(reason ?? closeReason);
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
      const unreadable = calls.deliver(String(data), transport.onEvent);
      if (unreadable) {
        // The close fails every pending command: none is left waiting for a lost reply.
        closeReason = unreadable;
        ws.terminate();
      }
    });
    ws.once("close", () => {
      closed = true;
      calls.close(closeReason);
      if (open) transport.onClose?.(closeReason);
    });
  });
}
