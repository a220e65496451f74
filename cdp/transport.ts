/**
 * The transport seam of the CDP client: one small interface that carries
 * commands and events for the browser session and every flat session. The
 * default implementation is Deno's own WebSocket; a pipe transport, or a fake
 * in unit tests, can take its place.
 *
 * Not chrome-remote-interface: it files a command's callback only once the
 * WebSocket's send callback has run, and drops a reply that arrives before
 * that (measured here: a third of the replies to `Runtime.evaluate` sent from
 * a `Runtime.bindingCalled` handler were lost, each a 30 s timeout).
 *
 * @module
 */

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

/**
 * Opens a WebSocket transport to a browser endpoint
 * (`ws://127.0.0.1:PORT/devtools/browser/UUID`).
 *
 * Replies are matched by id, events handed to `onEvent`; when the socket
 * closes, every command still waiting rejects.
 *
 * @throws Error when the socket cannot be opened.
 */
export function connectWebSocket(wsUrl: string): Promise<CdpTransport> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl);
    let nextId = 1;
    let closed = false;
    let closeReason = "WebSocket connection closed";
    const pending = new Map<number, {
      resolve: (r: TransportReply) => void;
      reject: (e: Error) => void;
    }>();
    const closedPromise = new Promise<void>((r) => ws.addEventListener("close", () => r()));
    const transport: CdpTransport = {
      onEvent: undefined,
      onClose: undefined,
      send(method, params, sessionId) {
        if (closed || ws.readyState !== WebSocket.OPEN) {
          return Promise.reject(new Error(closeReason));
        }
        const id = nextId++;
        // The reply's slot exists before the command leaves: no reply can beat it.
        const reply = new Promise<TransportReply>((res, rej) => {
          pending.set(id, { resolve: res, reject: rej });
        });
        try {
          ws.send(JSON.stringify({ id, method, params: params ?? {}, sessionId }));
        } catch (e) {
          pending.delete(id);
          return Promise.reject(e instanceof Error ? e : new Error(String(e)));
        }
        return reply;
      },
      async close() {
        if (!closed) {
          closed = true;
          ws.close();
        }
        await closedPromise;
      },
    };
    ws.addEventListener("open", () => resolve(transport), { once: true });
    ws.addEventListener("error", (e) => {
      const message = (e as ErrorEvent).message || "WebSocket error";
      if (ws.readyState !== WebSocket.OPEN) {
        reject(new Error(`Cannot connect to ${wsUrl}: ${message}`));
      }
      closeReason = `WebSocket error: ${message}`;
    });
    ws.addEventListener("message", (e) => {
      if (typeof e.data !== "string") return;
      let m: {
        id?: number;
        method?: string;
        params?: unknown;
        sessionId?: string;
        result?: Record<string, unknown>;
        error?: { code: number; message: string; data?: string };
      };
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      if (m.id !== undefined) {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        p.resolve(m.error ? { error: m.error } : { result: m.result ?? {} });
      } else if (m.method) {
        transport.onEvent?.(m.method, m.params, m.sessionId);
      }
    });
    ws.addEventListener("close", () => {
      closed = true;
      for (const p of pending.values()) p.reject(new Error(closeReason));
      pending.clear();
      transport.onClose?.(closeReason);
    });
  });
}
