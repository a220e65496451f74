/**
 * Builds the MCP server: `tools/list` from the registry (filtered by
 * toolset), `tools/call` through the one wrapper. Transports are chosen at
 * the entry point.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { callTool, renderError } from "./call_tool.ts";
import { createConfirm } from "./confirm.ts";
import type { ServerConfig, ToolContext } from "./context.ts";
import type { ToolDefinition } from "./define_tool.ts";
import { ToolError } from "./errors.ts";
import { ALL_TOOLS, listedTools } from "./mod.ts";
import type { SessionManager } from "./sessions/session_manager.ts";

/** The JSON Schema of a tool's input, without the `$schema` line (it costs tokens on every turn). */
export function inputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.inputSchema, { target: "draft-7" }) as Record<string, unknown>;
  delete schema.$schema;
  return lean(schema) as Record<string, unknown>;
}

/**
 * Drops `additionalProperties: false` everywhere: the wrapper rejects
 * unknown fields with a clear error anyway, and the list is paid for in
 * tokens on every turn.
 */
function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "additionalProperties" && v === false) continue;
    out[k] = lean(v);
  }
  return out;
}

/** The `tools/list` entries for a configuration. */
export function toolList(config: ServerConfig): Array<Record<string, unknown>> {
  return listedTools(config.toolsets).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputJsonSchema(t),
    annotations: t.annotations,
  }));
}

/**
 * Creates an MCP server bound to one client's sessions.
 * Every call goes through {@link callTool}; bad input never throws.
 */
export function createMcpServer(config: ServerConfig, sessions: SessionManager): Server {
  const server = new Server(
    { name: "browxai", version: config.version },
    {
      capabilities: { tools: {} },
      instructions:
        "browxai drives a real Chromium. navigate, then snapshot to read the page and get [ref=eN] handles; act with click/fill/press/select by ref. Every action returns what happened (navigation, dialogs, errors, network writes, the page delta).",
    },
  );
  const tools = toolList(config);
  const confirm = createConfirm(config);
  const listed = new Map(listedTools(config.toolsets).map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = listed.get(name);
    if (!tool) {
      const known = ALL_TOOLS.find((t) => t.name === name);
      return renderError(
        new ToolError(
          "invalid-argument",
          known
            ? `Tool "${name}" is not enabled: its toolset "${known.toolset}" is not in BROWX_TOOLSETS`
            : `Unknown tool "${name}"`,
          known
            ? `ask the operator to add "${known.toolset}" to BROWX_TOOLSETS`
            : `call tools/list for the tool names`,
        ),
      );
    }
    const ctx: ToolContext = { config, sessions, confirm, signal: extra.signal };
    return await callTool(tool, request.params.arguments ?? {}, ctx);
  });
  return server;
}
