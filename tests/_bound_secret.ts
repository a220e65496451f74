/**
 * A server over MCP stdio with one secret bound to an origin (`PW@<origin>=<value>` in a
 * secrets file of its own workspace) and the `secrets` capability: the setup of the bound
 * secret attack tests.
 */
import { join } from "node:path";
import { type McpHarness, startStdio } from "./_mcp.ts";

/**
 * The server (with `moreCapabilities` too, and `options.env` added to its environment), and a
 * `close` that stops it and removes its workspace.
 */
export async function startWithBoundSecret(
  origin: string,
  value: string,
  moreCapabilities: string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<{ mcp: McpHarness; close: () => Promise<void> }> {
  const ws = await Deno.makeTempDir({ prefix: "browxai-test-bound-" });
  const secrets = join(ws, "secrets.env");
  await Deno.writeTextFile(secrets, `PW@${origin}=${value}\n`, { mode: 0o600 });
  const mcp = await startStdio({
    workspace: ws,
    env: {
      BROWX_CAPABILITIES: ["read,navigation,action,secrets", ...moreCapabilities].join(","),
      BROWX_SECRETS: secrets,
      BROWX_TOOLSETS: "all",
      ...options.env,
    },
  });
  return {
    mcp,
    close: async () => {
      await mcp.close();
      await Deno.remove(ws, { recursive: true }).catch(() => {});
    },
  };
}
