/**
 * MCP over stdio: stdout carries nothing but MCP; logs go to stderr.
 *
 * @module
 */
import { navGuardFor } from "../../browser/nav_guard/navigation_gate.ts";
import type { ServerConfig } from "../../policy/server_config.ts";
import { createMcpServer } from "../server.ts";
import type { ConsoleHub } from "../console/hub.ts";
import type { BrowserHost } from "../../browser/sessions/browser_host.ts";
import { claimInstance, sweepDeadInstances } from "../../storage/instances.ts";
import { SessionManager } from "../../browser/sessions/session_manager.ts";
import { LineTransport } from "./line_transport.ts";
import type { CloseReason } from "./line_transport_options.ts";

/** Writes all of `bytes` to stdout (a pipe may take fewer bytes per write). */
async function writeStdout(bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
}

/**
 * Serves one client over stdio.
 *
 * @returns Why it stopped: `eof` when stdin closed (the client is done),
 *   `read-error`/`write-error` when stdin or stdout failed.
 */
export async function serveStdio(
  config: ServerConfig,
  host: BrowserHost,
  hub?: ConsoleHub,
): Promise<CloseReason> {
  // The instance lock marks this server's artifact folder live; dead servers' folders go.
  await sweepDeadInstances(config.workspace);
  const instance = await claimInstance(config.workspace);
  const sessions = new SessionManager(host, config.workspace, {
    guard: navGuardFor(config),
    // Logs never keep a cut secret prefix (masking happens at read time).
    secretSpans: config.secrets?.masks ? (text) => config.secrets!.spans(text) : undefined,
    instance: instance.id,
  });
  const server = createMcpServer(config, sessions, { hub, clientLabel: "stdio" });
  const transport = new LineTransport(
    { readable: Deno.stdin.readable, write: writeStdout },
    { log: (line) => console.error(`browxai: ${line}`) },
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  await sessions.closeAll();
  instance.release();
  return transport.closeReason ?? { kind: "closed" };
}
