/**
 * A browxai MCP server in the test's own process, with the web console's hub as an object the
 * test can drive (`hub.handle` is what the live socket calls for a viewer's message), and a
 * real MCP client over the SDK's in-memory transport.
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
import type { ToolResult } from "./_mcp.ts";
import { parseCli } from "../main.ts";
import { BrowserHost } from "../browser/sessions/browser_host.ts";
import { SessionManager } from "../browser/sessions/session_manager.ts";
import { navGuardFor } from "../browser/nav_guard/navigation_gate.ts";
import { ConsoleHub } from "../mcp/console/hub.ts";
import { createMcpServer } from "../mcp/server.ts";

/** The server, its hub and sessions, and a client. */
export interface InProcess {
  hub: ConsoleHub;
  sessions: SessionManager;
  client: Client;
  workspace: string;
  /** Log notifications (`notifications/message`) the client received, oldest first. */
  logs: Array<{ level: string; logger?: string; data: unknown }>;
  /** Calls a tool (2 min budget); never throws for tool errors. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/**
 * Starts the server with `env` (BROWX_* variables; a fresh workspace), labelled `stdio` in the
 * console. `elicit`: the client declares elicitation and answers with it (`extra.signal`
 * aborts when the server withdraws the question).
 */
export async function startInProcess(
  env: Record<string, string>,
  elicit?: (
    params: ElicitRequest["params"],
    signal: AbortSignal,
  ) => Promise<ElicitResult> | ElicitResult,
): Promise<InProcess> {
  const workspace = await Deno.makeTempDir({ prefix: "browxai-test-ws-" });
  const all: Record<string, string> = { BROWX_WORKSPACE: workspace, ...env };
  const { config } = parseCli([], (name) => all[name] ?? Deno.env.get(name));
  const host = new BrowserHost({ headful: false, browserPath: config.browserPath });
  const sessions = new SessionManager(host, workspace, { guard: navGuardFor(config) });
  const hub = new ConsoleHub();
  const server = createMcpServer(config, sessions, { hub, clientLabel: "stdio" });
  const client = new Client(
    { name: "in-process-test", version: "0" },
    elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicit) {
    client.setRequestHandler(
      ElicitRequestSchema,
      async (request, extra) => await elicit(request.params, extra.signal),
    );
  }
  const logs: InProcess["logs"] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params as InProcess["logs"][number]);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  // The SDK client validates every result's structuredContent against its tool's outputSchema
  // once it holds the list (it caches a validator per tool from tools/list): every call of
  // every test checks its result's shape.
  await client.listTools();
  return {
    hub,
    sessions,
    client,
    workspace,
    logs,
    call: async (name, args = {}) =>
      await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      }) as unknown as ToolResult,
    async close() {
      await client.close().catch(() => {});
      await sessions.closeAll();
      await host.closeAll();
      await Deno.remove(workspace, { recursive: true }).catch(() => {});
    },
  };
}
