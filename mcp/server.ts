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
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type CallMetrics, callTool } from "./pipeline.ts";
import { CallProgress } from "./progress.ts";
import { ApprovalStore } from "../policy/approvals.ts";
import { auditConsoleAct, auditedOutsideCalls } from "./audit_trail.ts";
import { createConfirm } from "./confirm_gate.ts";
import { elicitationChannel, maskedChannel } from "./human/channel.ts";
import { createConsent } from "./human/consent.ts";
import { devtoolsChannel } from "./human/devtools.ts";
import { installApprovals } from "./console/approval_queue.ts";
import { installHumanAsks } from "./console/human_asks.ts";
import type { ServerConfig } from "../policy/server_config.ts";
import type { ToolContext } from "../tools/context.ts";
import type { ToolAnnotations, ToolDefinition } from "../tools/define_tool.ts";
import { ToolError } from "../browser/tool_error.ts";
import { ALL_TOOLS, listedTools } from "../tools/mod.ts";
import { resultOutput } from "../tools/output_schemas.ts";
import type { ActivityEntry, ConsoleHub } from "./console/hub.ts";
import type { SessionManager } from "../browser/sessions/session_manager.ts";

/** The JSON Schema of a tool's input, without the `$schema` line (it costs tokens on every turn). */
export function inputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  return jsonSchemaOf(tool.inputSchema);
}

/** The JSON Schema of a tool's `structuredContent` (MCP `outputSchema`), made as the input's. */
export function outputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  return jsonSchemaOf(tool.outputSchema);
}

/** A zod object as lean draft-7 JSON Schema (see {@link lean}), without `$schema`. */
function jsonSchemaOf(schema: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: "draft-7" }) as Record<string, unknown>;
  delete json.$schema;
  // The root keeps `properties`, empty too: some hosts read a tool's parameters from it.
  return { type: "object", properties: {}, ...lean(json) as Record<string, unknown> };
}

/**
 * Drops JSON Schema that tells a client nothing, since the list is paid for
 * in tokens on every turn (the wrapper validates every call against the zod
 * schema itself, so nothing is enforced less):
 * - `additionalProperties: false` (unknown fields are rejected with a clear error anyway);
 * - the ±`Number.MAX_SAFE_INTEGER` bounds zod gives every `.int()`;
 * - `propertyNames: { type: "string" }`, and `additionalProperties: {}`, `items: {}`,
 *   `properties: {}` (JSON object keys are strings; any value is the default);
 * - a property's description that only restates its name (`secure: "Secure"`).
 *
 * `type` stays on every schema, also beside an `enum`: some providers (Gemini) reject a
 * property schema without it. A `type` array (`["string", "null"]`, zod's nullable) becomes
 * `anyOf` of single types: clients that map schemas onto a one-type dialect (Gemini's OpenAPI
 * subset) reject or drop the array form (the MCP Inspector's strict lint: `type-union`).
 */
function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "additionalProperties" && (v === false || isEmptySchema(v))) continue;
    if ((k === "items" || k === "properties") && isEmptySchema(v)) continue;
    if (k === "maximum" && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === "minimum" && v === Number.MIN_SAFE_INTEGER) continue;
    if (k === "propertyNames" && isStringSchema(v)) continue;
    out[k] = k === "properties" && v && typeof v === "object"
      ? leanProperties(v as Record<string, unknown>)
      : lean(v);
  }
  return Array.isArray(out.type) ? splitTypeUnion(out) : out;
}

/**
 * `{ type: [a, b], …rest }` as `{ anyOf: [{ type: a, …constraints of a }, …], description }`:
 * each branch keeps the keywords that apply to its type (an `enum`'s values of that type).
 */
function splitTypeUnion(node: Record<string, unknown>): Record<string, unknown> {
  const { type, description, ...rest } = node;
  const types = type as string[];
  const enumValues = Array.isArray(rest.enum) ? rest.enum as unknown[] : undefined;
  delete rest.enum;
  const branches = types.map((t) => {
    const values = enumValues?.filter((v) => jsonTypeOf(v) === t);
    if (t === "null") return { type: t };
    return { type: t, ...rest, ...(values?.length ? { enum: values } : {}) };
  });
  return { anyOf: branches, ...(description !== undefined ? { description } : {}) };
}

function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** {@link lean} over each property, without descriptions that restate the property's name. */
function leanProperties(props: Record<string, unknown>): Record<string, unknown> {
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  return Object.fromEntries(
    Object.entries(props).map(([name, schema]) => {
      const leaned = lean(schema) as Record<string, unknown>;
      if (typeof leaned.description === "string" && squash(leaned.description) === squash(name)) {
        delete leaned.description;
      }
      return [name, leaned];
    }),
  );
}

function isEmptySchema(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
}

function isStringSchema(v: unknown): boolean {
  return JSON.stringify(v) === '{"type":"string"}';
}

/**
 * The `tools/list` entries for a configuration: name, title, description, input and output
 * schemas, and all four annotation hints, stated even where they equal MCP's defaults (a
 * client shows what it is told; a hint left out reads as "unknown" to some). What a model
 * sees is the name, description and input schema (hosts map tools onto function definitions
 * with exactly those): the title, the hints and the output schema are the client's.
 */
export function toolList(config: ServerConfig): Array<Record<string, unknown>> {
  return listedTools(config.toolsets, config).map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputJsonSchema(t),
    outputSchema: outputJsonSchema(t),
    annotations: listedAnnotations(t.annotations),
  }));
}

/** `{ capability: [tool, …] }`: the tools among `tools` hidden for a capability that is off. */
function notListedFor(
  tools: Iterable<ToolDefinition>,
  config: ServerConfig,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tools) {
    if (!config.capabilities.has(t.capability)) (out[t.capability] ??= []).push(t.name);
  }
  return out;
}

/**
 * All four hints of a tool: those it states, MCP's defaults for the rest (not read-only,
 * destructive, not idempotent, open world), except that a read-only tool is never
 * destructive and repeats without effect.
 */
export function listedAnnotations(a: ToolAnnotations): Required<ToolAnnotations> {
  const readOnlyHint = a.readOnlyHint ?? false;
  return {
    readOnlyHint,
    destructiveHint: a.destructiveHint ?? !readOnlyHint,
    idempotentHint: a.idempotentHint ?? readOnlyHint,
    openWorldHint: a.openWorldHint ?? true,
  };
}

/** A stand-in for a tool name that is not served, so its refusal passes the audit like any call. */
function unservedTool(name: string): ToolDefinition {
  return {
    name: name.length > 200 ? name.slice(0, 200) + "…" : name,
    title: "Unserved tool",
    description: "",
    capability: "read",
    toolset: "core",
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: z.object({}),
    outputSchema: resultOutput(),
    handler: () => Promise.reject(new Error("an unserved tool never runs")),
  };
}

/**
 * Reports a browser install's download (bytes of total) on a lane of the call's progress, while
 * the call waits for it (the first launch without a browser). Returns the unsubscribe function.
 */
function installProgressTo(progress: CallProgress, sessions: SessionManager): () => void {
  if (!progress.wanted) return () => {};
  const lane = progress.lane();
  return sessions.onInstallProgress((p) =>
    lane(
      p.downloaded,
      p.total || undefined,
      `downloading ${p.browser} ${p.buildId} (no browser was found)`,
    )
  );
}

/**
 * Starts the server's own request ids (elicitation) at 1: the SDK (1.32) ignores a
 * `notifications/cancelled` whose `requestId` is 0 (`if (!requestId) return`), so a withdrawn
 * first question (another channel answered, the call was cancelled) would stay open in the
 * client. `_requestMessageId` is the SDK's counter (a plain field); left alone if it changes.
 */
function skipRequestIdZero(server: Server): void {
  const s = server as unknown as { _requestMessageId?: unknown };
  if (s._requestMessageId === 0) s._requestMessageId = 1;
}

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /**
   * The web console's hub: the client is registered there (its sessions shown, its calls in
   * the activity list) until the server closes.
   */
  hub?: ConsoleHub | undefined;
  /** The client's label in the console (`stdio`); HTTP clients get `c1`, `c2`, … */
  clientLabel?: string | undefined;
  /** Told when each call starts and ends (the `--http` server's metrics and drain). */
  metrics?: CallMetrics | undefined;
}

/**
 * Creates an MCP server bound to one client's sessions.
 * Every call goes through {@link callTool}; bad input never throws.
 */
export function createMcpServer(
  config: ServerConfig,
  sessions: SessionManager,
  options: McpServerOptions = {},
): Server {
  const server = new Server(
    { name: "browxai", version: config.version },
    {
      // `logging`: the console tells the client about picks and hand-backs (notifications/message).
      capabilities: { tools: {}, logging: {} },
      instructions:
        "browxai drives a real Chromium. navigate, then snapshot to read the page and get [ref=eN] handles; act with click/fill/press/select by ref. Every action returns what happened (navigation, dialogs, errors, network writes, the page delta).",
    },
  );
  skipRequestIdZero(server);
  // Built on the first tools/list, not before initialize is answered (a start pays less).
  let tools: ReturnType<typeof toolList> | undefined;
  const approvals = new ApprovalStore();
  // Closing a session discards the approvals it earned (seed 004).
  sessions.onClosed((id) => approvals.forgetSession(id));
  const hub = options.hub;
  const consoleClient = hub?.registerClient({
    ...(options.clientLabel ? { label: options.clientLabel } : {}),
    clientName: () => server.getClientVersion()?.name,
    sessions,
    notify: (level, data) =>
      server.sendLoggingMessage({ level, logger: "browxai-console", data }).catch(() => {}),
    audit: (event) =>
      auditConsoleAct(config, event, {
        // The client as its calls' audit lines name it: its MCP session id over HTTP.
        client: server.transport?.sessionId ?? "stdio",
        clientName: server.getClientVersion()?.name,
      }),
  });
  if (hub) installHumanAsks(hub);
  // Every channel that can ask is asked at once: elicitation when the client declared it, the
  // DevTools console of a browser a person sees, the web console while someone has it open.
  const consoleChannel = hub && consoleClient
    ? [installApprovals(hub).channel({ label: consoleClient.label, sessions })]
    : [];
  const secrets = config.secrets;
  const mask = secrets?.masks ? <T>(value: T) => secrets.mask(value) : undefined;
  // BROWX_CONFIRM_ELICITATION=0: the client answers elicitation, and a hostile agent may run it.
  const elicitation = config.noElicitation ? [] : [elicitationChannel(server)];
  const humanChannels = [
    ...elicitation,
    devtoolsChannel(config, sessions),
    ...consoleChannel,
  ].map((c) => maskedChannel(c, mask));
  const confirm = createConfirm(config, { approvals, channels: humanChannels });
  // Who could answer now (get_config): a question about the default session, as a site visit asks.
  const channelsNow = () =>
    humanChannels.filter((c) =>
      c.available({ hook: "site_visit", tool: "get_config", session: "default", summary: "" })
    ).map((c) => c.name);
  // Releasing a takeover asks the person through the client or the web console (seed 004's
  // consent channel); the DevTools console is not one: nobody is known to watch it when the
  // person drives from the web console. An open web console is asked alone: the person who
  // holds control is there, and the client may answer elicitation without them.
  const consent = createConsent(
    [...elicitation, ...consoleChannel].map((c) => maskedChannel(c, mask)),
    {
      timeoutMs: config.confirmTimeoutMs,
      sole: ["console"],
    },
  );
  // What a call may name: the listed tools, and those hidden only for a capability that is off
  // (refused by the pipeline with their `requiredCapability`, as before they were hidden).
  const listed = new Map(
    listedTools(config.toolsets, { configReadonly: config.configReadonly }).map((t) => [t.name, t]),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools ??= toolList(config) }));
  if (consoleClient) {
    const before = server.onclose;
    server.onclose = () => {
      consoleClient.remove();
      before?.();
    };
  }
  const activity = hub && consoleClient
    ? (e: Omit<ActivityEntry, "seq" | "client">) =>
      hub.recordCall({ ...e, client: consoleClient.label })
    : undefined;
  // Who hears of each finished call: the console's activity list, the metrics.
  const observers = { activity, metrics: options.metrics };
  // Why a tool name cannot be called here (unknown, not listed, read-only config).
  const unavailable = (name: string): ToolError => {
    const known = ALL_TOOLS.find((t) => t.name === name);
    const readonly = known?.changesPolicy && config.configReadonly;
    return new ToolError(
      "invalid-argument",
      readonly
        ? `Tool "${name}" is not available: the configuration is read-only (BROWX_CONFIG_READONLY)`
        : known
        ? `Tool "${name}" is not enabled: its toolset "${known.toolset}" is not in BROWX_TOOLSETS`
        : `Unknown tool "${name}"`,
      readonly
        ? "policy can only be changed by the operator here"
        : known
        ? `ask the operator to add "${known.toolset}" to BROWX_TOOLSETS`
        : `call tools/list for the tool names`,
    );
  };
  // A call to a tool that is not served is still a call: refused, and audited as such.
  const refuse = (name: string, args: unknown, ctx: ToolContext) =>
    callTool({ tool: unservedTool(name), args, ctx, refusal: unavailable(name), ...observers });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = listed.get(request.params.name);
    // Progress goes to a client that sent a token: the tool's own lane, the install's.
    const progress = new CallProgress(request.params._meta?.progressToken, extra.sendNotification);
    const ctx: ToolContext = {
      config,
      sessions,
      confirm,
      confirmOutsideCalls: auditedOutsideCalls(confirm, {
        config,
        client: extra.sessionId ?? "stdio",
        clientName: server.getClientVersion()?.name,
      }),
      consent,
      approvals,
      signal: extra.signal,
      progress: progress.lane(),
      humanChannels: channelsNow,
      notListed: () => notListedFor(listed.values(), config),
      // Over HTTP each client is its MCP session; stdio serves exactly one client.
      client: extra.sessionId ?? "stdio",
      clientName: server.getClientVersion()?.name,
      // Inner calls (batch) take the same way as this one: every gate applies to them too.
      // An inner call's own budget runs inside the outer call's signal (cancel and budget).
      dispatch: async (name, args, signal) => {
        // An inner call reports no progress of its own: the outer call reports its steps.
        const innerCtx = { ...ctx, ...(signal ? { signal } : {}), progress: undefined };
        const inner = listed.get(name);
        return inner
          ? await callTool({ tool: inner, args, ctx: innerCtx, ...observers })
          : await refuse(name, args, innerCtx);
      },
    };
    const args = request.params.arguments ?? {};
    // A call waiting on a browser download (the first launch without a browser) reports its
    // progress to a client that asked for progress.
    const stopProgress = installProgressTo(progress, sessions);
    try {
      if (tool) return await callTool({ tool, args, ctx, ...observers });
      const refused = await refuse(request.params.name, args, ctx);
      // A name no toolset serves is a protocol error (MCP: -32602 Invalid params), after the
      // audit line; a known tool hidden here (toolset off, read-only) stays an isError result
      // saying how to enable it.
      if (!ALL_TOOLS.some((t) => t.name === request.params.name)) {
        const name = request.params.name.slice(0, 200);
        // A plain error with a code: the SDK sends `message` as is (an McpError's message
        // carries its own "MCP error -32602:" prefix, which clients then print twice).
        throw Object.assign(
          new Error(`Unknown tool "${name}": call tools/list for the tool names`),
          { code: ErrorCode.InvalidParams },
        );
      }
      return refused;
    } finally {
      stopProgress();
      progress.close();
      // The answer does not follow a notification in the same read (CallProgress.settled).
      await progress.settled();
    }
  });
  return server;
}
