/**
 * A browxai server in the test's own process, with its console hub: an MCP client talks to it
 * over an in-memory transport (the same server, pipeline and tools as stdio), and the test
 * sends console viewer messages straight to the hub (`hub.handle`), as the live socket does.
 * Used where a test needs both faces at once before the console's socket exists.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { parseCli } from "../main.ts";
import { navGuardFor } from "../browser/nav_guard/navigation_gate.ts";
import { BrowserHost } from "../browser/sessions/browser_host.ts";
import { SessionManager } from "../browser/sessions/session_manager.ts";
import type { BrowserSession } from "../browser/sessions/browser_session.ts";
import { ConsoleHub, type ViewerMessage } from "../mcp/console/hub.ts";
import { type ControlPart, installControl } from "../mcp/console/control.ts";
import { createMcpServer } from "../mcp/server.ts";
import type { ToolResult } from "./_mcp.ts";
import { textOf } from "./_mcp.ts";
import { sharedCases } from "./_shared_cases.ts";

/** The running in-process server. */
export interface InProcess {
  client: Client;
  hub: ConsoleHub;
  control: ControlPart;
  /** The client's label in the hub. */
  label: string;
  workspace: string;
  /** Log notifications (`notifications/message`) the client received, oldest first. */
  notices: Array<{ level: string; data: unknown }>;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Calls a tool; throws when it returns isError; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Sends a viewer message to the hub, as the live socket does; returns the reply. */
  send(message: ViewerMessage): Promise<Record<string, unknown> | void>;
  /** The open session `name` of this client. */
  session(name?: string): BrowserSession;
  close(): Promise<void>;
}

/** Options of {@link startInProcess}. */
export interface InProcessOptions {
  /** The server's environment (BROWX_*); a fresh workspace unless BROWX_WORKSPACE. */
  env?: Record<string, string>;
  /** Answers the server's elicitation requests (the client then declares elicitation). */
  elicit?: (request: ElicitRequest["params"]) => Promise<ElicitResult> | ElicitResult;
  /** A browser host to run on (see {@link startInProcess}). */
  host?: BrowserHost;
}

/**
 * Starts a server in this process with `env` as its environment (BROWX_*). `host`: a browser
 * host to run on instead of a new one (one Chromium for several servers, as HTTP clients share
 * one; see {@link sharedHost}); `close()` then leaves it running.
 */
export async function startInProcess(options: InProcessOptions = {}): Promise<InProcess> {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-inproc-" });
  const env = { BROWX_WORKSPACE: workspace, ...options.env } as Record<string, string>;
  const { config } = parseCli([], (name) => env[name]);
  const host = options.host ?? new BrowserHost({
    browserPath: config.browserPath,
    headful: false,
    cdpEndpoint: config.cdpEndpoint,
  });
  const sessions = new SessionManager(host, workspace, { guard: navGuardFor(config) });
  const hub = new ConsoleHub();
  const control = installControl(hub);
  const server = createMcpServer(config, sessions, { hub, clientLabel: "t" });
  const client = new Client(
    { name: "browxai-inproc-test", version: "0.0.0" },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const elicit = options.elicit;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => await elicit(request.params));
  }
  const notices: InProcess["notices"] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    notices.push({ level: n.params.level, data: n.params.data });
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  // The SDK client validates every result's structuredContent against its tool's outputSchema
  // once it holds the list (it caches a validator per tool from tools/list): every call of
  // every test checks its result's shape.
  await client.listTools();
  const viewer = { id: 1, send: () => {} };
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    await client.callTool({ name, arguments: args }) as ToolResult;
  return {
    client,
    hub,
    control,
    label: "t",
    workspace,
    notices,
    call,
    async ok(name, args = {}) {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} failed: ${textOf(r)}`);
      return r.structuredContent ?? {};
    },
    send: (message) => hub.handle(message, viewer),
    session(name = "default") {
      const s = sessions.list().find((x) => x.id === name);
      if (!s) throw new Error(`no session "${name}"`);
      return s;
    },
    async close() {
      await client.close().catch(() => {});
      await sessions.closeAll();
      if (!options.host) await host.closeAll().catch(() => {});
      await Deno.remove(workspace, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * A headless browser host for several in-process servers in turn (`startInProcess({ host })`):
 * its Chromium starts with the first session and runs until `closeAll()`. Each server keeps its
 * own sessions (browser contexts), workspace, hub and client, as HTTP clients do.
 */
export function sharedHost(): BrowserHost {
  return new BrowserHost({ headful: false });
}

/** Cases on one browser host: each starts its own in-process server on it. */
export interface HostCases {
  /** Declares a case (see {@link sharedCases}). */
  test(name: string, fn: () => Promise<void>): void;
  /** {@link startInProcess} on the shared host (in a case only). */
  start(options?: Omit<InProcessOptions, "host">): Promise<InProcess>;
}

/**
 * One `Deno.test` named `name` whose cases (its steps) share a {@link sharedHost}: one
 * Chromium launch for the file instead of one a case. For cases not about launching.
 */
export function hostCases(name: string): HostCases {
  const cases = sharedCases(name, () => Promise.resolve(sharedHost()), (h) => h.closeAll());
  return {
    test: cases.test,
    start: (options = {}) => startInProcess({ ...options, host: cases.value }),
  };
}
