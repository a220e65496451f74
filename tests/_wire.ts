/**
 * Raw wire access to a real browxai process, for tests that send what no
 * well-behaved MCP client would: arbitrary lines on stdio, raw bytes on a
 * TCP socket.
 *
 * @module
 */
import { ROOT } from "./_mcp.ts";
import { join } from "./_paths.ts";

/** A JSON-RPC message as read off the wire. */
export type Wire = Record<string, unknown> & { id?: unknown };

/** The initialize request every test sends first. */
export function initializeRequest(id: number | string = 0): Wire {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "wire-test", version: "0" },
    },
  };
}

/** A browxai server on stdio, driven line by line. */
export interface RawStdio {
  /** Writes text (a newline is appended) or raw bytes, awaiting the pipe. */
  send(line: string | Uint8Array | Wire): Promise<void>;
  /** The next message off stdout with this id (`null` for id-null errors), in arrival order. */
  reply(id: unknown, timeoutMs?: number): Promise<Wire>;
  /** Messages read so far that no `reply` took. */
  unclaimed(): Wire[];
  /** Every message read so far, in arrival order (replies taken included). */
  seen(): Wire[];
  stderr(): string;
  /** Closes stdin and waits for the exit status. */
  close(): Promise<Deno.CommandStatus>;
  status: Promise<Deno.CommandStatus>;
  workspace: string;
}

/** Spawns `deno run main.ts` on stdio and completes the MCP handshake. */
export async function startRawStdio(env: Record<string, string> = {}): Promise<RawStdio> {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-wire-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", join(ROOT, "main.ts")],
    env: { BROWX_WORKSPACE: workspace, ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    cwd: ROOT,
  }).spawn();
  const writer = child.stdin.getWriter();
  let err = "";
  const errPump = (async () => {
    for await (const t of child.stderr.pipeThrough(new TextDecoderStream())) err += t;
  })();
  const inbox: Wire[] = [];
  const arrived: Wire[] = [];
  const waiters: Array<() => void> = [];
  const outPump = (async () => {
    let rest = "";
    for await (const t of child.stdout.pipeThrough(new TextDecoderStream())) {
      rest += t;
      let nl;
      while ((nl = rest.indexOf("\n")) !== -1) {
        const message = JSON.parse(rest.slice(0, nl));
        inbox.push(message);
        arrived.push(message);
        rest = rest.slice(nl + 1);
        waiters.splice(0).forEach((w) => w());
      }
    }
    waiters.splice(0).forEach((w) => w());
  })();
  let exited = false;
  const status = child.status.then(async (s) => {
    exited = true;
    await Promise.all([outPump, errPump]).catch(() => {});
    waiters.splice(0).forEach((w) => w());
    return s;
  });
  const raw: RawStdio = {
    async send(line) {
      const bytes = line instanceof Uint8Array
        ? line
        : new TextEncoder().encode((typeof line === "string" ? line : JSON.stringify(line)) + "\n");
      await writer.write(bytes);
    },
    async reply(id, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const i = inbox.findIndex((m) => m.id === id);
        if (i !== -1) return inbox.splice(i, 1)[0]!;
        if (exited) throw new Error(`server exited before replying to id ${id}; stderr:\n${err}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no reply to id ${id}; got ${JSON.stringify(inbox)}`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, left);
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
    },
    unclaimed: () => [...inbox],
    seen: () => [...arrived],
    stderr: () => err,
    async close() {
      await writer.close().catch(() => {});
      const s = await status;
      await errPump.catch(() => {}); // all of stderr read: callers check what it said
      await Deno.remove(workspace, { recursive: true }).catch(() => {});
      return s;
    },
    status,
    workspace,
  };
  await raw.send(initializeRequest(0));
  const init = await raw.reply(0);
  if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  await raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return raw;
}

/** The bytes of one HTTP/1.1 response read off a raw socket (head parsed, body as text). */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Reads one HTTP response from a raw connection: the status line and headers,
 * then the body by Content-Length (or until the peer closes). Resolves
 * undefined when the peer closes before sending a status line.
 */
export async function readResponse(conn: Deno.Conn): Promise<RawResponse | undefined> {
  const buf = new Uint8Array(64 * 1024);
  let text = "";
  let head: { status: number; headers: Record<string, string>; bodyAt: number } | undefined;
  while (true) {
    let n: number | null;
    try {
      n = await conn.read(buf);
    } catch {
      n = null;
    }
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
    if (!head) {
      const end = text.indexOf("\r\n\r\n");
      if (end === -1) continue;
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const c = l.indexOf(":");
        headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
      }
      head = { status: Number(statusLine!.split(" ")[1]), headers, bodyAt: end + 4 };
    }
    const length = Number(head.headers["content-length"] ?? NaN);
    if (!Number.isNaN(length) && text.length - head.bodyAt >= length) break;
  }
  if (!head) return undefined;
  return { status: head.status, headers: head.headers, body: text.slice(head.bodyAt) };
}
