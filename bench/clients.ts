/**
 * The two servers under test, spawned and driven over MCP the way an agent does:
 * browxai (`deno run --allow-all main.ts`, temp `BROWX_WORKSPACE`) and `@playwright/mcp`
 * (`node cli.js --headless --isolated --executable-path <the same Chromium>`), both over stdio,
 * and the peer also over Streamable HTTP (one client per isolated session) for the
 * concurrency run.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { ROOT } from "../tests/_mcp.ts";
import { PEER_ENV } from "./peer.ts";

/** Which server. */
export type ServerKind = "browxai" | "peer";

/** One tool call as measured. */
export interface CallResult {
  /** Wall time from sending the request to receiving the whole result, in ms. */
  ms: number;
  /** The text content (all text items joined by a newline): what the agent reads. */
  text: string;
  isError: boolean;
  /** structuredContent, when the server sent one. */
  structured: Record<string, unknown> | undefined;
}

/** A connected MCP client. */
export interface BenchClient {
  /** Calls a tool and times it; never throws for tool errors (`isError`). */
  call(tool: string, args?: Record<string, unknown>): Promise<CallResult>;
  /** The `tools` array of `tools/list`. */
  listTools(): Promise<unknown[]>;
  close(): Promise<void>;
}

/** A spawned server with its stdio client. */
export interface BenchServer extends BenchClient {
  kind: ServerKind;
  /** Process id of the server (deno or node). */
  pid: number | undefined;
  /** `performance.now()` just before the spawn. */
  spawnedAt: number;
  /** The server's working folder (the peer writes its snapshot files under it). */
  workDir: string;
  /** stderr so far. */
  stderr(): string;
}

/** How to start a server. */
export interface ServerSpec {
  kind: ServerKind;
  /** The Chromium both use. */
  chromium: string;
  /** The peer's cli.js (kind "peer"). */
  peerCli?: string | undefined;
  /** Extra CLI flags. */
  args?: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /**
   * browxai's entry module (default main.ts from source); the npm package runs its one-file
   * bundle (`deno task bundle`), which loads without resolving ~550 modules.
   */
  entry?: string | undefined;
}

/** Per-call timeout: a full snapshot of a 6 MB page can take long on a loaded machine. */
const CALL_TIMEOUT_MS = 600_000;

function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

/** The peer's command-line flags for a spec (as documented by `cli.js --help`). */
export function peerArgs(chromium: string, extra: string[] = []): string[] {
  return [
    "--headless",
    "--isolated",
    "--executable-path",
    chromium,
    "--viewport-size",
    "1280x800", // browxai's headless window size
    ...(isRoot() ? ["--no-sandbox"] : []), // browxai adds it as root too
    ...extra,
  ];
}

function wrap(client: Client, close: () => Promise<void>): BenchClient {
  return {
    async call(tool, args = {}) {
      const t0 = performance.now();
      const r = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      }) as {
        content?: Array<{ type: string; text?: string }>;
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      const ms = performance.now() - t0;
      const text = (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text ?? "")
        .join("\n");
      return { ms, text, isError: r.isError === true, structured: r.structuredContent };
    },
    async listTools() {
      return (await client.listTools()).tools;
    },
    close,
  };
}

/**
 * Spawns a server over stdio and connects (MCP initialize). The caller measures cold start
 * from `spawnedAt`.
 */
export async function startServer(spec: ServerSpec): Promise<BenchServer> {
  const workDir = await Deno.makeTempDir({ prefix: `browxai-bench-${spec.kind}-` });
  const base = Deno.env.toObject();
  const transport = spec.kind === "browxai"
    ? new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--allow-all", spec.entry ?? join(ROOT, "main.ts"), ...(spec.args ?? [])],
      env: { ...base, BROWX_WORKSPACE: workDir, BROWX_BROWSER: spec.chromium, ...spec.env },
      stderr: "pipe",
      cwd: ROOT,
    })
    : new StdioClientTransport({
      command: "node",
      args: [spec.peerCli!, ...peerArgs(spec.chromium, spec.args)],
      env: { ...base, ...PEER_ENV, ...spec.env },
      stderr: "pipe",
      cwd: workDir,
    });
  let err = "";
  transport.stderr?.on("data", (d: Uint8Array) => {
    if (err.length < 200_000) err += new TextDecoder().decode(d);
  });
  const client = new Client({ name: "browxai-bench", version: "0.0.0" });
  const spawnedAt = performance.now();
  await client.connect(transport);
  const close = async () => {
    await client.close().catch(() => {});
    await Deno.remove(workDir, { recursive: true }).catch(() => {});
  };
  return {
    ...wrap(client, close),
    kind: spec.kind,
    pid: transport.pid ?? undefined,
    spawnedAt,
    workDir,
    stderr: () => err,
  };
}

/** A peer serving Streamable HTTP; each {@link PeerHttp.connect} is one isolated session. */
export interface PeerHttp {
  pid: number;
  url: string;
  workDir: string;
  connect(): Promise<BenchClient>;
  close(): Promise<void>;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/**
 * Spawns the peer with `--port` (Streamable HTTP on `http://localhost:PORT/mcp`); with
 * `--isolated`, each HTTP client gets its own browser context in one shared browser.
 */
export async function startPeerHttp(chromium: string, peerCli: string): Promise<PeerHttp> {
  const workDir = await Deno.makeTempDir({ prefix: "browxai-bench-peer-http-" });
  const port = freePort();
  const child = new Deno.Command("node", {
    args: [peerCli, ...peerArgs(chromium, ["--port", String(port), "--host", "127.0.0.1"])],
    env: PEER_ENV,
    cwd: workDir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const pump = async (s: ReadableStream<Uint8Array<ArrayBuffer>>) => {
    for await (const chunk of s.pipeThrough(new TextDecoderStream())) {
      if (out.length < 100_000) out += chunk;
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]).catch(() => {});
  const deadline = Date.now() + 30_000;
  while (!/Listening on/.test(out)) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`peer HTTP server did not start: ${out.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  // The peer only accepts its own host name (DNS-rebinding check).
  const url = `http://localhost:${port}/mcp`;
  const clients: BenchClient[] = [];
  return {
    pid: child.pid,
    url,
    workDir,
    async connect() {
      const transport = new StreamableHTTPClientTransport(new URL(url));
      const client = new Client({ name: "browxai-bench", version: "0.0.0" });
      await client.connect(transport);
      const c = wrap(client, async () => {
        await transport.terminateSession().catch(() => {});
        await client.close().catch(() => {});
      });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) await c.close();
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5000);
      await child.status;
      clearTimeout(timer);
      await pumps;
      await Deno.remove(workDir, { recursive: true }).catch(() => {});
    },
  };
}
