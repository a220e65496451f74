/**
 * The legacy HTTP+SSE transport of MCP (2024-11-05) for clients that have nothing else:
 * `GET /sse` opens a client's event stream, whose first event (`endpoint`) names where it posts
 * its messages (`/messages?sessionId=…`); every answer and notification comes on the stream.
 * The SDK's own `SSEServerTransport` is written for Node's `http` objects; this one speaks
 * web-standard `Request`/`Response`, as `Deno.serve` does. The HTTP server (`http.ts`) puts
 * the same gates in front of it as in front of `/mcp`: Host/Origin, the bearer token, the
 * client limit, the idle sweep, the console hub.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/** How often an idle stream carries a comment, so proxies keep it open, ms. */
export const SSE_KEEPALIVE_MS = 25_000;

/**
 * Most bytes an SSE stream may hold behind the message its client takes next. A write that
 * finds more queued closes the client (as when its stream ends): a client that stops reading
 * would otherwise make the server hold every answer it is sent (red team: 40 pings with 40 MB
 * ids took a server from 122 MB to 2 GB). The next message does not count, so answers bigger
 * than the bound still reach a client that reads, even while it is still taking one.
 */
export const SSE_MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** One SSE client's transport: its stream is {@link SseTransport.response}'s body. */
export class SseTransport implements Transport {
  /** The client's session id (the `sessionId` of its `/messages` URL). */
  readonly sessionId: string = crypto.randomUUID();
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    | (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void)
    | undefined;
  #stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #endpoint: string;
  #maxQueued: number;
  /** Messages written and not yet taken by the stream's reader (the HTTP server). */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** Wakes a pull waiting for the next message. */
  #wake: (() => void) | undefined;
  #posted = false;
  /** Told once when the stream ends (the client went away, or {@link close}). */
  onGone: (() => void) | undefined;

  /**
   * `endpoint`: the path the client posts to (`/messages`); `maxQueuedBytes`: the bound on
   * bytes queued for the client (default {@link SSE_MAX_QUEUED_BYTES}).
   */
  constructor(endpoint: string, options: { maxQueuedBytes?: number } = {}) {
    this.#endpoint = endpoint;
    this.#maxQueued = options.maxQueuedBytes ?? SSE_MAX_QUEUED_BYTES;
    this.#stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.#controller = c;
      },
      // The reader wants a chunk: hand it the next message (or wait for one). Our own queue,
      // not the stream's, so what the client has not taken is known message by message.
      pull: async (c) => {
        if (!this.#pending.length && !this.#closed) {
          await new Promise<void>((resolve) => this.#wake = resolve);
        }
        const next = this.#pending.shift();
        if (next && !this.#closed) {
          this.#pendingBytes -= next.length;
          c.enqueue(next);
        }
      },
      // The client closed the connection.
      cancel: () => void this.close(),
    }, new CountQueuingStrategy({ highWaterMark: 0 }));
  }

  /** Bytes written that the stream's reader has not taken yet. */
  get queuedBytes(): number {
    return this.#pendingBytes;
  }

  /** True once: the first POST of this client (its initialize, bounded like /mcp's). */
  takeFirstPost(): boolean {
    const first = !this.#posted;
    this.#posted = true;
    return first;
  }

  /** The `GET /sse` answer: the event stream. */
  get response(): Response {
    return new Response(this.#stream, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }

  /** Called by the SDK's `connect`: tells the client where to post (the `endpoint` event). */
  start(): Promise<void> {
    const url = `${this.#endpoint}?sessionId=${encodeURIComponent(this.sessionId)}`;
    this.#write(`event: endpoint\ndata: ${url}\n\n`);
    this.#keepAlive = setInterval(() => this.#write(": keep-alive\n\n"), SSE_KEEPALIVE_MS);
    return Promise.resolve();
  }

  /** Sends one message on the stream. @throws Error when the stream is closed. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Not connected: the SSE stream is closed"));
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    return Promise.resolve();
  }

  /** Hands a message the client posted to the server (`onmessage`). */
  receive(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** Ends the stream; idempotent. */
  close(): Promise<void> {
    return this.#end();
  }

  /** Ends the stream: closed (queued bytes still go out), or errored (queued bytes dropped). */
  #end(error?: Error): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    clearInterval(this.#keepAlive);
    try {
      if (error) this.#controller.error(error);
      else {
        // A graceful end still delivers what was written.
        for (const chunk of this.#pending) this.#controller.enqueue(chunk);
        this.#controller.close();
      }
    } catch { /* already cancelled by the client */ }
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#wake?.();
    this.onclose?.();
    this.onGone?.();
    return Promise.resolve();
  }

  #write(text: string): void {
    if (this.#closed) return;
    if (this.#pendingBytes - (this.#pending[0]?.length ?? 0) > this.#maxQueued) {
      // The client does not read its stream: drop it (and what is queued for it) rather than
      // hold everything for it.
      const error = new Error(
        `SSE client not reading: over ${this.#maxQueued} bytes queued; closing it`,
      );
      this.onerror?.(error);
      void this.#end(error);
      return;
    }
    const chunk = new TextEncoder().encode(text);
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** What the SSE routes need of the HTTP server (`http.ts`). */
export interface SseDeps {
  /** Host/Origin and the bearer token: the principal, or the response that refuses. */
  admit(req: Request): Promise<{ principal: string } | Response>;
  /** The answer when no client may be added now (limit reached), else undefined. */
  refuseNew(): Response | undefined;
  /**
   * Registers a new client on `transport` for `principal` (its browser sessions, its MCP
   * server, the console hub) and connects it: the stream's first event goes out.
   */
  open(transport: SseTransport, principal: string): Promise<void>;
  /** The SSE client of `sessionId` for `principal` (marked seen), or undefined. */
  find(sessionId: string, principal: string): SseTransport | undefined;
  /**
   * Reads and checks a POST body: the messages, or the response that refuses it. `first`: the
   * client's first POST (its initialize), bounded as /mcp bounds a body without a session.
   */
  readMessages(req: Request, first: boolean): Promise<{ body: unknown; batch: boolean } | Response>;
}

/** The path a client's stream tells it to post to. */
export const SSE_MESSAGES_PATH = "/messages";

/**
 * Serves `GET /sse` and `POST /messages?sessionId=…`; undefined for any other path.
 * A POST's JSON-RPC errors (a malformed message) go on the client's stream, where an SSE
 * client reads its answers; the POST itself is answered 202.
 */
export function sseRoute(
  req: Request,
  deps: SseDeps,
): Promise<Response> | undefined {
  const path = new URL(req.url).pathname;
  if (path === "/sse") return openStream(req, deps);
  if (path === SSE_MESSAGES_PATH) return postMessages(req, deps);
  return undefined;
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain", ...headers } });
}

async function openStream(req: Request, deps: SseDeps): Promise<Response> {
  if (req.method !== "GET") {
    await req.body?.cancel().catch(() => {});
    return plain(405, "Method not allowed: GET /sse opens the stream", { allow: "GET" });
  }
  const admitted = await deps.admit(req);
  if (admitted instanceof Response) return admitted;
  const full = deps.refuseNew();
  if (full) return full;
  const transport = new SseTransport(SSE_MESSAGES_PATH);
  try {
    await deps.open(transport, admitted.principal);
  } catch (e) {
    // A client that could not be set up holds no slot.
    await transport.close();
    throw e;
  }
  return transport.response;
}

async function postMessages(req: Request, deps: SseDeps): Promise<Response> {
  if (req.method !== "POST") {
    return plain(405, "Method not allowed: POST messages here", { allow: "POST" });
  }
  const admitted = await deps.admit(req);
  if (admitted instanceof Response) {
    await req.body?.cancel().catch(() => {});
    return admitted;
  }
  const id = new URL(req.url).searchParams.get("sessionId") ?? "";
  const transport = deps.find(id, admitted.principal);
  if (!transport) {
    await req.body?.cancel().catch(() => {});
    // Another token's session is as unknown as a made-up one.
    return plain(
      404,
      `Unknown SSE session "${id.slice(0, 100)}": open a new stream with GET /sse ` +
        "(it ended or expired, or the server restarted)",
    );
  }
  const read = await deps.readMessages(req, transport.takeFirstPost());
  if (read instanceof Response) {
    // JSON-RPC error replies belong on the stream; an HTTP failure (too big, too slow) stays.
    if (read.status !== 200 && read.status !== 400) return read;
    const text = await read.text();
    let replies: unknown;
    try {
      replies = JSON.parse(text);
    } catch {
      return plain(read.status, text);
    }
    for (const r of Array.isArray(replies) ? replies : [replies]) {
      await transport.send(r as JSONRPCMessage).catch(() => {});
    }
    return plain(202, "Accepted");
  }
  const requestInfo = { headers: Object.fromEntries(req.headers) };
  const messages = (read.batch ? read.body : [read.body]) as JSONRPCMessage[];
  for (const m of messages) transport.receive(m, { requestInfo });
  return plain(202, "Accepted");
}
