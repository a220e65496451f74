/**
 * A real MCP client talking to a real browxai server process, over stdio
 * or Streamable HTTP, the way an agent does.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/validation/ajv"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/validation"
import type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { dirname, fromFileUrl, join } from "./_paths.ts";
import { eventually } from "./_util.ts";

/** The repository root. */
export const ROOT: string = join(dirname(fromFileUrl(import.meta.url)), "..");

/** A tool result as the client sees it. */
export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A connected client and its server. */
export interface McpHarness {
  client: Client;
  /** Calls a tool; never throws for tool errors (see `isError`). */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a tool and fails the test when it returns isError; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The server's stderr so far. */
  stderr(): string;
  /** The server process id (stdio) or undefined. */
  pid?: number | undefined;
  workspace: string;
  close(): Promise<void>;
}

/** Options of the harness starters. */
export interface StartOptions {
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** Extra CLI flags. */
  args?: string[];
  /** Workspace dir (default: a fresh temp dir, removed on close). */
  workspace?: string;
  /**
   * Answers the server's elicitation requests (the client then declares the
   * `elicitation` capability), as a person at the client would.
   */
  elicit?: (request: ElicitRequest["params"]) => Promise<ElicitResult> | ElicitResult;
}

/**
 * The SDK client's JSON Schema validators, compiled once per distinct schema for every client
 * of a test file, and only when a result of that tool is first checked. The SDK asks for a
 * validator of every listed tool's outputSchema as soon as it holds the list (Ajv generates and
 * compiles code per schema: 0.2-0.4 CPU-s a client), while a test calls a few tools, and a test
 * file starts several servers and clients that list the same tools. Validation itself is
 * Ajv's, as the SDK's default.
 */
class SharedValidators {
  readonly #ajv = new AjvJsonSchemaValidator();
  readonly #compiled = new Map<string, JsonSchemaValidator<unknown>>();
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let compiled = this.#compiled.get(key);
    return ((input: unknown) => {
      if (!compiled) {
        compiled = this.#compiled.get(key) ?? this.#ajv.getValidator<unknown>(schema);
        this.#compiled.set(key, compiled);
      }
      return compiled(input);
    }) as JsonSchemaValidator<T>;
  }
}
const VALIDATORS = new SharedValidators();

/** Options for a test's own SDK `Client`: the file's shared, lazily compiled validators. */
export function clientOptions(): { jsonSchemaValidator: SharedValidators } {
  return { jsonSchemaValidator: VALIDATORS };
}

/** A client, declaring elicitation when `options.elicit` answers it. */
function newClient(options: StartOptions): Client {
  const client = new Client(
    { name: "browxai-test", version: "0.0.0" },
    {
      ...(options.elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
      ...clientOptions(),
    },
  );
  const elicit = options.elicit;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => await elicit(request.params));
  }
  return client;
}

/** The SDK's cached validator of a tool's outputSchema (a private method of Client 1.32). */
type OutputValidator = (value: unknown) => { valid: boolean; errorMessage?: string };

/**
 * Checks each inner result a `batch` returns (`results[i].result`, the inner tool's
 * structuredContent) against the inner tool's output schema, as the SDK checks the batch's own.
 */
function checkInnerResults(client: Client, r: ToolResult): void {
  const validatorOf = (client as unknown as {
    getToolOutputValidator(name: string): OutputValidator | undefined;
  }).getToolOutputValidator.bind(client);
  const results = (r.structuredContent?.results ?? []) as Array<{ tool: string; result?: unknown }>;
  for (const [i, inner] of results.entries()) {
    const check = inner.result === undefined ? undefined : validatorOf(inner.tool);
    const verdict = check?.(inner.result);
    if (verdict && !verdict.valid) {
      throw new Error(
        `batch result ${i} (${inner.tool}) does not match its outputSchema: ${verdict.errorMessage}`,
      );
    }
  }
}

function withHelpers(
  client: Client,
  stderr: () => string,
  close: () => Promise<void>,
  workspace: string,
  pid?: number,
): McpHarness {
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await client.callTool({ name, arguments: args }) as unknown as ToolResult;
    if (name === "batch") checkInnerResults(client, r);
    return r;
  };
  return {
    client,
    call,
    async ok(name, args) {
      const r = await call(name, args);
      if (r.isError) {
        throw new Error(`${name} failed: ${r.content.map((c) => c.text ?? "").join("\n")}`);
      }
      return r.structuredContent ?? {};
    },
    stderr,
    pid,
    workspace,
    close,
  };
}

async function makeWorkspace(options: StartOptions): Promise<{ dir: string; owned: boolean }> {
  if (options.workspace) return { dir: options.workspace, owned: false };
  return { dir: await Deno.makeTempDir({ prefix: "browxai-test-ws-" }), owned: true };
}

/** Spawns `deno run main.ts` and connects over stdio. */
export async function startStdio(options: StartOptions = {}): Promise<McpHarness> {
  const ws = await makeWorkspace(options);
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--allow-all", join(ROOT, "main.ts"), ...(options.args ?? [])],
    env: { ...Deno.env.toObject(), BROWX_WORKSPACE: ws.dir, ...(options.env ?? {}) },
    stderr: "pipe",
    cwd: ROOT,
  });
  let err = "";
  transport.stderr?.on("data", (d: Uint8Array) => err += new TextDecoder().decode(d));
  const client = newClient(options);
  await client.connect(transport);
  // The SDK client validates every result's structuredContent against its tool's outputSchema
  // once it holds the list (it caches a validator per tool from tools/list): every call of
  // every test checks its result's shape.
  await client.listTools();
  return withHelpers(
    client,
    () => err,
    async () => {
      await client.close().catch(() => {});
      if (ws.owned) await Deno.remove(ws.dir, { recursive: true }).catch(() => {});
    },
    ws.dir,
    transport.pid ?? undefined,
  );
}

/** A spawned `--http` server. */
export interface HttpProcess {
  url: string;
  token: string | undefined;
  child: Deno.ChildProcess;
  stderr(): string;
  workspace: string;
  /** Connects a new MCP client (its own MCP session); `elicit` answers elicitation requests. */
  connect(
    headers?: Record<string, string>,
    elicit?: StartOptions["elicit"],
  ): Promise<McpHarness>;
  close(): Promise<void>;
}

/** Spawns `deno run main.ts --http --port 0` and waits for its URL on stderr. */
export async function startHttp(options: StartOptions = {}): Promise<HttpProcess> {
  const ws = await makeWorkspace(options);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      join(ROOT, "main.ts"),
      "--http",
      "--port",
      "0",
      ...(options.args ?? []),
    ],
    env: { BROWX_WORKSPACE: ws.dir, ...(options.env ?? {}) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    cwd: ROOT,
  }).spawn();
  let err = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const pump = (async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      err += value;
    }
  })();
  await eventually(() => /on (http:\/\/\S+\/mcp)/.test(err), 30_000, "the HTTP server to start")
    .catch((e: Error) => {
      throw new Error(`${e.message}: ${err}`);
    });
  const url = /on (http:\/\/\S+\/mcp)/.exec(err)![1]!;
  const token = /bearer token \([^)]*\): (\S+)/.exec(err)?.[1];
  const clients: McpHarness[] = [];
  return {
    url,
    token,
    child,
    stderr: () => err,
    workspace: ws.dir,
    async connect(headers = {}, elicit) {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers },
      });
      const client = newClient(elicit ? { elicit } : {});
      await client.connect(transport);
      // The SDK client validates every result's structuredContent against its tool's outputSchema
      // once it holds the list (it caches a validator per tool from tools/list): every call of
      // every test checks its result's shape.
      await client.listTools();
      const h = withHelpers(client, () => err, async () => {
        await transport.terminateSession().catch(() => {});
        await client.close().catch(() => {});
      }, ws.dir);
      clients.push(h);
      return h;
    },
    async close() {
      for (const c of clients) await c.close();
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await pump.catch(() => {});
      if (ws.owned) await Deno.remove(ws.dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The text of a result's first text content. */
export function textOf(r: ToolResult): string {
  return r.content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n");
}
