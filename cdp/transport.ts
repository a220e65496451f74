/**
 * The transport seam of the CDP client: one small interface that carries
 * commands and events for the browser session and every flat session. The
 * default implementation rides chrome-remote-interface's WebSocket; a pipe or
 * native WebSocket transport, or a fake in unit tests, can take its place.
 *
 * @module
 */
import CDP from "chrome-remote-interface";

/** The reply to one command: exactly one of `result` or `error`. */
export type TransportReply =
  | { result: Record<string, unknown>; error?: undefined }
  | { error: { code: number; message: string; data?: string }; result?: undefined };

/** What a {@link Connection} needs from the wire. */
export interface CdpTransport {
  /**
   * Sends one command. Resolves with the reply (a protocol error is a reply,
   * not a rejection); rejects only when the wire itself fails or closed.
   */
  send(method: string, params: object | undefined, sessionId: string | undefined): Promise<
    TransportReply
  >;
  /** Called for every event; `sessionId` is undefined on the browser session. */
  onEvent: ((method: string, params: unknown, sessionId: string | undefined) => void) | undefined;
  /** Called once when the wire closes, for whatever reason. */
  onClose: ((reason: string) => void) | undefined;
  /** Closes the wire; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}

interface CriError extends Error {
  response?: { code: number; message: string; data?: string };
}

interface CriClient {
  send(method: string, params: object | undefined, sessionId?: string): Promise<unknown>;
  on(event: string, fn: (...args: unknown[]) => void): void;
  close(): Promise<void>;
}

/**
 * Opens a WebSocket transport to a browser endpoint
 * (`ws://127.0.0.1:PORT/devtools/browser/UUID`).
 *
 * We hand chrome-remote-interface an empty protocol so it builds no per-domain
 * helpers (that costs ~300 ms on first connect); we only use its raw `send`.
 *
 * @throws Error when the socket cannot be opened.
 */
export async function connectWebSocket(wsUrl: string): Promise<CdpTransport> {
  const client = await (CDP as unknown as (o: object) => Promise<CriClient>)({
    target: wsUrl,
    local: true,
    protocol: { domains: [] },
  });
  let closed = false;
  const transport: CdpTransport = {
    onEvent: undefined,
    onClose: undefined,
    async send(method, params, sessionId) {
      try {
        const result = await client.send(method, params, sessionId);
        return { result: (result ?? {}) as Record<string, unknown> };
      } catch (e) {
        const err = e as CriError;
        if (err && typeof err === "object" && err.response) return { error: err.response };
        throw err;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } catch {
        // already closed
      }
    },
  };
  client.on("event", (message: unknown) => {
    const m = message as { method: string; params: unknown; sessionId?: string };
    transport.onEvent?.(m.method, m.params, m.sessionId);
  });
  client.on("disconnect", () => {
    closed = true;
    transport.onClose?.("WebSocket connection closed");
  });
  return transport;
}
