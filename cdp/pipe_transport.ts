/**
 * The CDP transport of a browser browxai launches: Chromium's
 * `--remote-debugging-pipe`, fd 3 carrying commands to the browser and fd 4
 * its replies and events, each message one JSON text ended by a NUL byte.
 *
 * Why a pipe and not a port: a port is open to every local process with no
 * login, and a browser on a port outlives a server that was killed (kill -9,
 * the OOM killer). A browser on a pipe sees the pipe close when its server
 * dies, and exits.
 *
 * @module
 */
import { PendingCalls } from "./replies.ts";
import { type CdpTransport, MAX_MESSAGE_BYTES } from "./transport.ts";

/** The part of a Node writable stream (the browser's fd 3) the pipe transport uses. */
export interface PipeWritable {
  write(chunk: string, cb: (err?: Error | null) => void): boolean;
  end(): void;
  destroy(): void;
  on(event: "error", fn: (e: Error) => void): void;
  once(event: "close", fn: () => void): void;
  readonly closed?: boolean;
}

/** The part of a Node readable stream (the browser's fd 4) the pipe transport uses. */
export interface PipeReadable {
  on(event: "data", fn: (chunk: Uint8Array) => void): void;
  on(event: "error", fn: (e: Error) => void): void;
  once(event: "close" | "end", fn: () => void): void;
  destroy(): void;
  readonly closed?: boolean;
}

/**
 * Makes a {@link CdpTransport} over the two pipes of a browser started with
 * `--remote-debugging-pipe`.
 *
 * Same contract as the WebSocket transport: replies matched by id, events to
 * `onEvent` in the order they arrived, every waiting command rejected when
 * the pipe closes, `onClose` called once. A message longer than
 * `maxMessageBytes` (default {@link MAX_MESSAGE_BYTES}; counted before its NUL
 * arrives) is skipped, never held whole: its bytes are dropped up to its NUL.
 * A page can make such a message (one `console.log` of a long string), and
 * the browser is shared: ending the connection would crash every session of
 * every client. When its head shows a reply (`{"id":N,`: Chromium writes a
 * reply's id first) that one command fails with "reply over N bytes"; an
 * event is dropped (noted once on stderr). A message that is not JSON still
 * ends the transport (a reply may be lost in it). `close()` ends fd 3
 * (Chromium takes that as its cue to exit) and waits at most 2 s for fd 4 to
 * close.
 */
export function pipeTransport(
  toBrowser: PipeWritable,
  fromBrowser: PipeReadable,
  options: { maxMessageBytes?: number } = {},
): CdpTransport {
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  let closed = false;
  let closeReason = "the browser's pipe closed";
  const calls = new PendingCalls();
  // The chunks of the message being read: joined once, when its NUL arrives.
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  // Skipping an oversize message: the first bytes of its head (to tell a reply), else undefined.
  let skipHead: string | undefined;
  let eventDropNoted = false;
  const decoder = new TextDecoder();
  const readClosed = new Promise<void>((r) => {
    if (fromBrowser.closed) r();
    else fromBrowser.once("close", r);
  });

  const shut = (reason: string) => {
    if (closed) return;
    closed = true;
    closeReason = reason;
    parts = [];
    calls.close(reason);
    transport.onClose?.(reason);
  };

  const fail = (reason: string) => {
    shut(reason);
    toBrowser.destroy();
    fromBrowser.destroy();
  };

  const deliver = (bytes: Uint8Array) => {
    // A reply that cannot be read would leave its caller waiting: end the transport.
    const unreadable = calls.deliver(decoder.decode(bytes), transport.onEvent);
    if (unreadable) fail(unreadable);
  };

  const join = (tail: Uint8Array): Uint8Array => {
    if (parts.length === 0) return tail;
    const all = new Uint8Array(partBytes + tail.length);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    all.set(tail, at);
    parts = [];
    partBytes = 0;
    return all;
  };

  /** The oversize message being skipped ended (its NUL came): fail its command, or note it. */
  const skipped = (head: string) => {
    const id = /^\{"id":(\d+),/.exec(head)?.[1];
    if (id !== undefined) {
      calls.answerError(
        Number(id),
        `reply over ${maxBytes} bytes from the browser (dropped; ask for less)`,
      );
    } else if (!eventDropNoted) {
      eventDropNoted = true;
      const method = /"method":"([\w.]+)"/.exec(head)?.[1] ?? "an event";
      console.error(
        `browxai: dropped ${method} from the browser over ${maxBytes} bytes ` +
          "(a page logged or sent something huge); later drops are not noted",
      );
    }
  };

  fromBrowser.on("data", (chunk) => {
    let start = 0;
    while (!closed) {
      const end = chunk.indexOf(0, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (skipHead !== undefined) {
        if (end < 0) return;
        const head = skipHead;
        skipHead = undefined;
        skipped(head);
        start = end + 1;
        continue;
      }
      if (partBytes + piece.length > maxBytes) {
        // Keep only the head (enough for `{"id":N,` or the event's method), drop the rest.
        let head = "";
        for (const p of [...parts, piece]) {
          head += decoder.decode(p.subarray(0, 200 - head.length));
          if (head.length >= 200) break;
        }
        skipHead = head;
        parts = [];
        partBytes = 0;
        continue;
      }
      if (end < 0) {
        if (piece.length > 0) {
          parts.push(piece);
          partBytes += piece.length;
        }
        return;
      }
      deliver(join(piece));
      start = end + 1;
    }
  });
  // A pipe whose other end is gone fails with ECONNRESET (read) or EPIPE (write): the
  // browser exited, which is what the reason says.
  const onError = (e: Error & { code?: string }) =>
    fail(
      e.code === "ECONNRESET" || e.code === "EPIPE"
        ? "the browser's pipe closed"
        : `pipe error: ${e.message}`,
    );
  fromBrowser.on("error", onError);
  fromBrowser.once("close", () => shut(closeReason));
  toBrowser.on("error", onError);

  const transport: CdpTransport = {
    onEvent: undefined,
    onClose: undefined,
    send(method, params, options) {
      // A closed pipe refuses in `calls` (shut closed it), before reaching here.
      return calls.call(method, params, options, (text, failed) => {
        toBrowser.write(`${text}\0`, (err) => {
          if (err) failed(err);
        });
      });
    },
    failSession: (sessionId, error) => calls.failSession(sessionId, error),
    async close(reason) {
      if (!closed) {
        shut(reason ?? "connection closed");
        toBrowser.end();
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([readClosed, new Promise<void>((r) => timer = setTimeout(r, 2000))]);
      clearTimeout(timer);
      fromBrowser.destroy();
    },
  };
  return transport;
}
