/**
 * MCP over stdio: stdout carries nothing but MCP; logs go to stderr.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import process from "node:process";
import { navGuardFor } from "../policy/navigation_gate.ts";
import type { ServerConfig } from "../context.ts";
import { createMcpServer } from "../server.ts";
import type { BrowserHost } from "../sessions/browser_host.ts";
import { SessionManager } from "../sessions/session_manager.ts";

/** Serves one client over stdio; resolves when stdin closes. */
export async function serveStdio(config: ServerConfig, host: BrowserHost): Promise<void> {
  const sessions = new SessionManager(host, config.workspace, { guard: navGuardFor(config) });
  const server = createMcpServer(config, sessions);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // The SDK's stdio transport does not notice EOF on stdin by itself.
  const onEnd = () => transport.close().catch(() => {});
  process.stdin.once("end", onEnd);
  process.stdin.once("close", onEnd);
  await closed;
  await sessions.closeAll();
}
