/**
 * MCP over newline-delimited JSON on a byte stream (stdio), in place of the
 * SDK's StdioServerTransport: that one ends the connection, and with it the
 * server and every session, on any message over 10 MiB, concatenates
 * buffers per chunk (quadratic on large messages), and drops malformed
 * requests without an answer.
 *
 * Here a message may be up to {@link MAX_MESSAGE_BYTES}; a longer line is
 * skipped as it streams past (never buffered whole) and answered with a
 * -32600 error (with its id when the scanner finds it); every malformed
 * request is answered through the JSON-RPC gate; the connection lives on.
 * The limits and options are in `line_transport_options.ts`, the batched writes in
 * `line_batches.ts`.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { IdScanner } from "./id_scanner.ts";
import { LineFramer } from "./line_framing.ts";
import { LineBatches } from "./line_batches.ts";
import { checkBody, type ErrorReply, errorReply, parseErrorReply, RPC } from "./jsonrpc_gate.ts";
import {
  type ByteStreams,
  type CloseReason,
  type LineTransportOptions,
  MAX_HELD,
  MAX_HELD_BYTES,
  MAX_IN_FLIGHT,
  MAX_MESSAGE_BYTES,
  MAX_QUEUED_BYTES,
} from "./line_transport_options.ts";

/** After stdin closes, how long requests already read may take to be answered, ms. */
const DRAIN_MS = 60_000;
/** A request read while {@link MAX_IN_FLIGHT} ran: handed on once one of them is answered. */
interface Held {
  message: JSONRPCMessage;
  id: string | number;
  /** Its share of its line's bytes. */
  bytes: number;
}

/** An MCP {@link Transport} over newline-delimited JSON on a byte stream. */
export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  /** Why the transport closed, once it has. */
  closeReason: CloseReason | undefined;
  readonly #io: ByteStreams;
  /** Answers written in order, batched while a write is under way. */
  readonly #out: LineBatches;
  readonly #max: number;
  readonly #log: (line: string) => void;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #framer: LineFramer;
  /** Ids of requests read and not yet answered nor cancelled: held back or handed on. */
  #pending = new Set<string | number>();
  /** Ids of requests handed on that count against `maxInFlight` (every request but pings). */
  #running = new Set<string | number>();
  /** Requests read past `maxInFlight`, oldest first. */
  #held: Held[] = [];
  #heldBytes = 0;
  /** A hand-on of held requests is scheduled. */
  #promoting = false;
  #drained: (() => void) | undefined;
  readonly #maxQueued: number;
  readonly #maxInFlight: number;
  readonly #maxHeld: number;
  readonly #maxHeldBytes: number;
  /** Wakes the reader when answers were written or requests answered. */
  #roomMade: (() => void) | undefined;
  /** True once an initialize request was handed on: a second one is refused. */
  #initialized = false;

  constructor(io: ByteStreams, options: LineTransportOptions = {}) {
    this.#io = io;
    this.#out = new LineBatches((bytes) => io.write(bytes), {
      written: () => {
        // Answers were piling up unwritten: held requests may run now.
        this.#promote();
        this.#wake();
      },
      failed: (e) => this.#end({ kind: "write-error", error: e }),
    });
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#log = options.log ?? (() => {});
    this.#maxQueued = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
    this.#maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.#maxHeld = options.maxHeld ?? MAX_HELD;
    this.#maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_BYTES;
    this.#framer = new LineFramer(this.#max, {
      line: async (line) => {
        await this.#room();
        this.#line(line);
      },
      oversize: (size, scanned) => this.#refuseOversize(size, scanned),
    });
  }

  /**
   * Bytes of answers not yet written, requests read and not yet answered (handed on or held
   * back), and of those the ones held back (for tests and logs).
   */
  get backlog(): { queuedBytes: number; inFlight: number; held: number } {
    return { queuedBytes: this.#out.queued, inFlight: this.#pending.size, held: this.#held.length };
  }

  /**
   * Resolves once there is room for one more line: at most `maxQueuedBytes` of answers
   * unwritten, fewer than `maxHeld` requests (and `maxHeldBytes`) held back. Until then
   * nothing more is read, so the client's writes stall in the pipe. Requests merely in flight
   * never stop reading: a cancel sent after them must be read.
   */
  async #room(): Promise<void> {
    let paused = false;
    while (
      !this.closeReason &&
      (this.#out.queued > this.#maxQueued || this.#held.length >= this.#maxHeld ||
        this.#heldBytes >= this.#maxHeldBytes)
    ) {
      if (!paused) {
        paused = true;
        this.#log(
          `paused reading: ${this.#running.size} requests in flight, ${this.#held.length} ` +
            `held back (${this.#heldBytes} bytes), ${this.#out.queued} bytes of answers unwritten` +
            (this.#out.queued > this.#maxQueued ? " (the client is not reading them)" : ""),
        );
      }
      await new Promise<void>((resolve) => this.#roomMade = resolve);
    }
    if (paused) this.#log("resumed reading");
  }

  #wake(): void {
    const wake = this.#roomMade;
    this.#roomMade = undefined;
    wake?.();
  }

  /** Starts reading; messages go to `onmessage` in order. */
  start(): Promise<void> {
    if (this.#reader) throw new Error("LineTransport already started");
    this.#reader = this.#io.readable.getReader();
    this.#pump().catch(() => {});
    return Promise.resolve();
  }

  async #pump(): Promise<void> {
    const reader = this.#reader!;
    while (!this.closeReason) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        this.#end({ kind: "read-error", error: e as Error });
        return;
      }
      if (chunk.done) {
        const last = this.#framer.rest(); // a last line without "\n"
        if (last) this.#line(last);
        await this.#drain();
        this.#end({ kind: "eof" });
        return;
      }
      await this.#framer.push(chunk.value, () => this.closeReason !== undefined);
    }
  }

  /**
   * Waits (at most {@link DRAIN_MS}) for the answers to requests already
   * read, then for their writes: `printf 'req\n' | browxai` gets its answer.
   */
  async #drain(): Promise<void> {
    if (this.#pending.size) {
      this.#log(`stdin closed: answering ${this.#pending.size} request(s) in flight first`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
        timer = setTimeout(resolve, DRAIN_MS);
      });
      clearTimeout(timer);
    }
    await this.#out.idle;
  }

  #refuseOversize(size: number, scanned: IdScanner): void {
    const id = scanned.id ?? null;
    const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
    const message = `Message too large: ${size} bytes (${
      mib(size)
    }); browxai reads at most ${this.#max} bytes (${
      mib(this.#max)
    }) per message. The message was skipped: send large content in smaller parts`;
    if (scanned.notification) {
      // JSON-RPC never answers a notification: only stderr hears of it.
      this.#log(`refused a ${size}-byte notification: over ${this.#max}`);
      return;
    }
    this.#log(`refused a ${size}-byte message (id ${JSON.stringify(id)}): over ${this.#max}`);
    this.#reply(errorReply(id, RPC.INVALID_REQUEST, message, { maxBytes: this.#max }));
  }

  /** One complete line: parsed, checked by the gate, handed on or answered. */
  #line(bytes: Uint8Array): void {
    const text = new TextDecoder().decode(bytes).replace(/\r$/, "");
    if (!text.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      this.#log(`refused a message that is not JSON: ${(e as Error).message}`);
      this.#reply(parseErrorReply((e as Error).message));
      return;
    }
    const checked = checkBody(raw);
    for (const reason of checked.reasons) this.#log(`refused a message: ${reason}`);
    // Each member of a batch is answered on its own line, like a message of its own.
    for (const reply of checked.replies) this.#reply(reply);
    const share = Math.ceil(bytes.length / Math.max(1, checked.messages.length));
    for (const message of checked.messages) {
      const refusal = this.#admit(message);
      if (refusal) {
        this.#log(`refused a message: ${refusal.error.message}`);
        this.#reply(refusal);
        continue;
      }
      this.#deliver(message, share);
    }
  }

  /**
   * Hands a message on, or holds a request back while `maxInFlight` run (or answers pile up
   * unwritten) or older requests wait: requests run in the order they were read. Pings,
   * notifications and answers are never held.
   */
  #deliver(message: JSONRPCMessage, bytes: number): void {
    const request = "method" in message && "id" in message ? message : undefined;
    const id = request?.id;
    if (id === undefined || request?.method === "ping") {
      this.#handOn(message);
      return;
    }
    if (this.#held.length || !this.#canRun()) {
      if (!this.#held.length) {
        this.#log(
          `holding requests back: ${this.#running.size} in flight (at most ${this.#maxInFlight} ` +
            "run at once); cancels, other notifications and pings are still read",
        );
      }
      this.#held.push({ message, id, bytes });
      this.#heldBytes += bytes;
      return;
    }
    this.#running.add(id);
    this.#handOn(message);
  }

  /** Room for one more running request: under `maxInFlight`, answers not piling up. */
  #canRun(): boolean {
    return this.#running.size < this.#maxInFlight && this.#out.queued <= this.#maxQueued;
  }

  /** Hands held requests on while there is room, oldest first (in a microtask, not in `send`). */
  #promote(): void {
    if (this.#promoting || !this.#held.length) return;
    this.#promoting = true;
    queueMicrotask(() => {
      this.#promoting = false;
      while (this.#held.length && this.#canRun() && !this.closeReason) {
        const next = this.#held.shift()!;
        this.#heldBytes -= next.bytes;
        this.#running.add(next.id);
        this.#handOn(next.message);
      }
      this.#wake();
    });
  }

  #handOn(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  /**
   * Books a message before the SDK sees it: a request's id joins the
   * pending set (refused if a request with that id is still in flight: the
   * SDK would answer only one of them; refused if it is a second
   * `initialize`, as over HTTP); a `notifications/cancelled` drops its
   * request from the set (MCP: a cancelled request gets no answer, so EOF
   * must not wait for one), and a held-back request from the queue: it never runs.
   *
   * @returns An error reply to send instead of handing the message on, or undefined.
   */
  #admit(message: JSONRPCMessage): ErrorReply | undefined {
    if (!("method" in message)) return undefined;
    if (!("id" in message)) {
      if (message.method === "notifications/cancelled") {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if ((typeof id === "string" || typeof id === "number") && this.#pending.delete(id)) {
          const at = this.#held.findIndex((h) => h.id === id);
          if (at !== -1) this.#heldBytes -= this.#held.splice(at, 1)[0]!.bytes;
          this.#running.delete(id);
          this.#answered();
        }
      }
      return undefined;
    }
    const id = message.id;
    if (this.#pending.has(id)) {
      return errorReply(
        id,
        RPC.INVALID_REQUEST,
        `Invalid request: id ${
          JSON.stringify(id)
        } is already in use by a request not yet answered; give each request in flight its own id`,
      );
    }
    if (message.method === "initialize") {
      if (this.#initialized) {
        return errorReply(
          id,
          RPC.INVALID_REQUEST,
          "Invalid request: the server is already initialized (initialize is sent once per connection; " +
            "to start over, restart the server)",
        );
      }
      this.#initialized = true;
    }
    this.#pending.add(id);
    return undefined;
  }

  /** A request left the pending set: EOF may finish, held requests may run, reading resume. */
  #answered(): void {
    if (!this.#pending.size) this.#drained?.();
    this.#promote();
    this.#wake();
  }

  /**
   * The transport's own answer to a message it refused: not the answer of a request in
   * flight (a refused duplicate id names one), so the bookkeeping stays as it is.
   */
  #reply(reply: ErrorReply): void {
    this.#write(reply as unknown as JSONRPCMessage).catch(() => {});
  }

  /** Writes one message as a line; resolves when written. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closeReason) return Promise.reject(new Error("transport closed"));
    const id = "method" in message ? undefined : (message as { id?: string | number }).id;
    if (id !== undefined && this.#pending.delete(id)) {
      this.#running.delete(id);
      this.#answered();
    }
    return this.#write(message);
  }

  /** Writes one message as a line, after every earlier one (see {@link LineBatches.write}). */
  #write(message: JSONRPCMessage): Promise<void> {
    if (this.closeReason) return Promise.reject(new Error("transport closed"));
    return this.#out.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Stops reading and writing; `onclose` fires once. */
  close(): Promise<void> {
    this.#end({ kind: "closed" });
    return Promise.resolve();
  }

  #end(reason: CloseReason): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.#framer.clear();
    this.#held = [];
    this.#heldBytes = 0;
    this.#reader?.cancel().catch(() => {});
    this.#wake();
    this.onclose?.();
  }
}
