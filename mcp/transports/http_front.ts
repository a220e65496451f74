/**
 * The TCP front of the `--http` listener: what Deno's HTTP server cannot bound itself.
 *
 * `Deno.serve` has no timeout for a connection that never finishes its request head, so a
 * client sending a header byte every few seconds (slowloris), or nothing at all after
 * connecting (half-open), would hold a socket for ever, and enough of them exhaust the
 * server's file descriptors. The front accepts each TCP connection itself, reads the request
 * head within {@link FrontOptions.headTimeoutMs} and at most {@link MAX_HEAD_BYTES}, marks it
 * `Connection: close` (one request per connection, so no later request head can dawdle on a
 * kept-alive socket), and only then splices the connection onto the HTTP server, which listens
 * on a Unix socket in a private (0700) folder. Body reading stays bounded by the server
 * (`http_body.ts`). At most {@link FrontOptions.maxConnections} connections are open at once;
 * more are closed at once.
 *
 * @module
 */

/** Largest request head, bytes (Deno's own HTTP server refuses larger ones too). */
export const MAX_HEAD_BYTES = 64 * 1024;

/** Options of {@link startFront}. */
export interface FrontOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  /** The Unix socket the HTTP server listens on. */
  upstreamPath: string;
  /** Time a connection has to send its whole request head, ms. @default 10000 */
  headTimeoutMs?: number;
  /** Most connections open at once. @default 1024 */
  maxConnections?: number;
}

/** A running front. */
export interface Front {
  addr: Deno.NetAddr;
  /** Stops accepting and closes every connection. */
  close(): void;
}

const CRLF2 = [13, 10, 13, 10];

function headEnd(buf: Uint8Array, from: number): number {
  for (let i = Math.max(0, from - 3); i + 3 < buf.length; i++) {
    if (
      buf[i] === CRLF2[0] && buf[i + 1] === CRLF2[1] && buf[i + 2] === CRLF2[2] &&
      buf[i + 3] === CRLF2[3]
    ) return i + 4;
  }
  return -1;
}

/**
 * The head with every `Connection` / `Keep-Alive` header replaced by `Connection: close`
 * (latin-1 in, latin-1 out: header bytes pass unchanged); the console's live-socket upgrade
 * (`GET /console/live` with `Upgrade: websocket`) is returned as it is.
 */
export function closeAfterOne(head: Uint8Array): Uint8Array {
  let text = "";
  for (const b of head) text += String.fromCharCode(b);
  const lines = text.slice(0, -4).split("\r\n");
  // The console's live socket keeps its `Connection: Upgrade`: the connection then belongs to
  // the WebSocket, one "request" for as long as it lasts. (Only there: any other request keeps
  // its one-request bound.)
  if (
    /^GET \/console\/live[?\s]/.test(lines[0] ?? "") &&
    lines.some((l, i) => i > 0 && /^upgrade\s*:\s*websocket\s*$/i.test(l))
  ) return head;
  const kept = lines.filter((l, i) => i === 0 || !/^(connection|keep-alive)\s*:/i.test(l));
  const out = `${kept.join("\r\n")}\r\nConnection: close\r\n\r\n`;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out.charCodeAt(i);
  return bytes;
}

const RESPONSES: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  503: "Service Unavailable",
};

async function refuse(conn: Deno.Conn, status: number, message: string): Promise<void> {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  const text = `HTTP/1.1 ${status} ${RESPONSES[status]}\r\ncontent-type: application/json\r\n` +
    `content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
  try {
    await conn.write(new TextEncoder().encode(text));
  } catch { /* gone */ }
  try {
    conn.close();
  } catch { /* closed */ }
}

/**
 * Listens on `hostname:port` and splices each connection whose request head arrives in time
 * onto the HTTP server at `upstreamPath`.
 *
 * @throws Deno.errors.AddrInUse (and other listen errors) as `Deno.listen` does.
 */
export function startFront(options: FrontOptions): Front {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const headTimeoutMs = options.headTimeoutMs ?? 10_000;
  const maxConnections = options.maxConnections ?? 1024;
  const open = new Set<Deno.Conn>();

  const serve = async (conn: Deno.Conn) => {
    let upstream: Deno.UnixConn | undefined;
    try {
      const timer = setTimeout(() => {
        // The head did not arrive in time: answer 408 and end the connection.
        refuse(conn, 408, `Request head not received within ${headTimeoutMs} ms`);
      }, headTimeoutMs);
      let buf = new Uint8Array(0);
      let end = -1;
      const chunk = new Uint8Array(16 * 1024);
      try {
        while (end < 0) {
          const n = await conn.read(chunk);
          if (n === null) return; // closed before a whole head
          const next = new Uint8Array(buf.length + n);
          next.set(buf);
          next.set(chunk.subarray(0, n), buf.length);
          const from = buf.length;
          buf = next;
          end = headEnd(buf, from);
          if (end < 0 && buf.length > MAX_HEAD_BYTES) {
            await refuse(conn, 431, `Request head over ${MAX_HEAD_BYTES} bytes`);
            return;
          }
        }
      } finally {
        clearTimeout(timer);
      }
      upstream = await Deno.connect({ transport: "unix", path: options.upstreamPath });
      await upstream.write(closeAfterOne(buf.subarray(0, end)));
      if (end < buf.length) await upstream.write(buf.subarray(end));
      const up = upstream;
      // The request's rest goes up; the client's end of sending is passed on as a half-close
      // (the server then drops an unfinished request, or a stream the client left).
      conn.readable.pipeTo(up.writable, { preventClose: true })
        .then(() => up.closeWrite())
        .catch(() => {});
      // The response comes down until the server closes (one request per connection).
      await up.readable.pipeTo(conn.writable, { preventClose: true }).catch(() => {});
    } catch {
      /* a peer went away: nothing to answer */
    } finally {
      open.delete(conn);
      for (const c of [conn, upstream]) {
        try {
          c?.close();
        } catch { /* closed by its pipe */ }
      }
    }
  };

  (async () => {
    for await (const conn of listener) {
      if (open.size >= maxConnections) {
        refuse(conn, 503, `Too many connections (${maxConnections}): retry later`);
        continue;
      }
      open.add(conn);
      serve(conn);
    }
  })().catch(() => {});

  return {
    addr: listener.addr as Deno.NetAddr,
    close() {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      open.clear();
    },
  };
}
