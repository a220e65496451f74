/**
 * The bookkeeping both CDP transports share (WebSocket and pipe): command ids,
 * the reply slot of each command in flight, and routing of one incoming
 * message to its caller or to the event handler. The wires only frame bytes.
 *
 * @module
 */
/** The reply to one command: exactly one of `result` or `error`. */
export type TransportReply =
  | { result: Record<string, unknown>; error?: undefined }
  | { error: { code: number; message: string; data?: string }; result?: undefined };

/** One message from the browser: a reply (`id`) or an event (`method`). */
interface Incoming {
  id?: number;
  method?: string;
  params?: unknown;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: string };
}

/** Commands in flight on one wire, by id. */
export class PendingReplies {
  #nextId = 1;
  #pending = new Map<number, {
    resolve: (r: TransportReply) => void;
    reject: (e: Error) => void;
  }>();

  /**
   * Files a new command: its id, the JSON text to send, and the promise of its reply. The slot
   * exists before the command leaves, so no reply can beat it; an aborted `signal` forgets it
   * (the caller gave up; a late reply is dropped).
   */
  open(
    method: string,
    params: object | undefined,
    sessionId: string | undefined,
    signal?: AbortSignal,
  ): { id: number; text: string; reply: Promise<TransportReply> } {
    const id = this.#nextId++;
    const reply = new Promise<TransportReply>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
    signal?.addEventListener("abort", () => this.#pending.delete(id), { once: true });
    const text = JSON.stringify({ id, method, params: params ?? {}, sessionId });
    return { id, text, reply };
  }

  /** The wire failed to send command `id`: its caller gets `error`. */
  failOne(id: number, error: Error): void {
    const p = this.#pending.get(id);
    this.#pending.delete(id);
    p?.reject(error);
  }

  /**
   * Command `id`'s reply could not be read whole (over the wire's size cap, skipped): its caller
   * gets a protocol error saying so, as if the browser had refused; the wire goes on.
   */
  answerError(id: number, message: string): void {
    const p = this.#pending.get(id);
    this.#pending.delete(id);
    p?.resolve({ error: { code: -32000, message } });
  }

  /** The wire closed: every caller still waiting gets `Error(reason)`. */
  failAll(reason: string): void {
    for (const p of this.#pending.values()) p.reject(new Error(reason));
    this.#pending.clear();
  }

  /**
   * Routes one message: a reply to its caller (unknown ids are dropped: their caller gave up),
   * an event to `onEvent`.
   *
   * @returns undefined, or why the message could not be read (not JSON): the wire should then
   *   end, since a lost reply would leave its caller waiting.
   */
  deliver(
    text: string,
    onEvent: ((method: string, params: unknown, sessionId: string | undefined) => void) | undefined,
  ): string | undefined {
    let m: Incoming;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return `unreadable message from the browser: ${(e as Error).message}`;
    }
    if (m.id !== undefined) {
      const p = this.#pending.get(m.id);
      if (!p) return undefined;
      this.#pending.delete(m.id);
      p.resolve(m.error ? { error: m.error } : { result: m.result ?? {} });
    } else if (m.method) {
      onEvent?.(m.method, m.params, m.sessionId);
    }
    return undefined;
  }
}
