/**
 * The JSON-RPC gate in front of the MCP SDK's protocol: every message a
 * client sends is checked here before the SDK sees it, so that every
 * malformed request with an id gets a correct JSON-RPC error (the SDK drops
 * some without a word and answers others with -32603 "internal error"), and
 * the SDK only ever receives messages it accepts.
 *
 * Codes: -32700 parse error (not JSON), -32600 invalid request (not a
 * JSON-RPC 2.0 message), -32602 invalid params (a method browxai serves,
 * called with params its schema refuses). Unknown methods pass through: the
 * SDK answers them -32601.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC 2.0 error codes the gate answers with. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
} as const;

/** A JSON-RPC request id (MCP: a string or an integer). */
export type RequestId = string | number;

/** A JSON-RPC error response. */
export interface ErrorReply {
  jsonrpc: "2.0";
  /** The request's id; null when it could not be read (JSON-RPC 2.0, section 5). */
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** What the gate made of one message. */
export type Checked =
  | { ok: true; message: JSONRPCMessage }
  /** `reply` is undefined where JSON-RPC forbids one (a notification, a response). */
  | { ok: false; reply: ErrorReply | undefined; reason: string };

/**
 * Longest string id accepted, characters: every reply echoes its request's id, so a client
 * sending megabyte ids (and not reading) would make the server hold megabytes per reply.
 */
export const MAX_ID_CHARS = 1024;

/** Most messages in one batch (the SDK's HTTP transport refuses more, too). */
export const MAX_BATCH = 100;

/** The requests browxai serves, with the schemas the SDK would parse their params with. */
const SERVED: Record<string, { safeParse(v: unknown): { success: boolean; error?: unknown } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/**
 * Deepest nesting of objects and arrays a message's params may have: deeper
 * ones overflow the stack of recursive code downstream (schema checks, the
 * audit log) and came back -32603.
 */
export const MAX_DEPTH = 100;

/** True when `value` nests objects/arrays more than `max` deep (iterative: no stack to overflow). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** An error response. */
export function errorReply(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): ErrorReply {
  return {
    jsonrpc: "2.0",
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  };
}

/** True for an id MCP accepts: a string or a safe integer. */
export function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** The issues of a failed zod parse, one short line (path: message; …). */
function issues(error: unknown): string {
  const list = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> })?.issues;
  if (!Array.isArray(list) || !list.length) return String(error);
  return list.slice(0, 5).map((i) => {
    const path = i.path.map(String).join(".");
    return path ? `${path}: ${i.message}` : i.message;
  }).join("; ");
}

/**
 * Checks one parsed message (an element of a batch, or a whole body).
 *
 * @returns The message, typed for the SDK, or a refusal with the reply to
 *   send: requests get an error with their id; messages whose id cannot be
 *   read get one with id null; notifications and responses with bad params
 *   or shapes are refused without a reply (JSON-RPC never answers them).
 */
export function checkMessage(raw: unknown): Checked {
  const refuse = (id: RequestId | null, code: number, message: string): Checked => ({
    ok: false,
    reply: errorReply(id, code, message),
    reason: message,
  });
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return refuse(
      null,
      RPC.INVALID_REQUEST,
      `Invalid request: a JSON-RPC message is an object like {"jsonrpc":"2.0","id":1,"method":"…"}, not ${
        typeName(raw)
      }`,
    );
  }
  const m = raw as Record<string, unknown>;
  const hasId = "id" in m;
  if (hasId && !isRequestId(m.id)) {
    return refuse(
      null,
      RPC.INVALID_REQUEST,
      `Invalid request: "id" must be a string or an integer, not ${
        typeof m.id === "number" ? "a fraction or unsafe number" : typeName(m.id)
      }`,
    );
  }
  if (typeof m.id === "string" && m.id.length > MAX_ID_CHARS) {
    return refuse(
      null,
      RPC.INVALID_REQUEST,
      `Invalid request: "id" is ${m.id.length} characters long; at most ${MAX_ID_CHARS}`,
    );
  }
  const id = hasId ? m.id as RequestId : null;
  if (m.jsonrpc !== "2.0") {
    return refuse(
      id,
      RPC.INVALID_REQUEST,
      `Invalid request: "jsonrpc" must be "2.0", not ${JSON.stringify(m.jsonrpc) ?? "missing"}`,
    );
  }
  if (!("method" in m)) {
    const isResponse = hasId && ("result" in m) !== ("error" in m);
    if (isResponse) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      return parsed.success
        ? { ok: true, message: parsed.data as JSONRPCMessage }
        : { ok: false, reply: undefined, reason: `malformed response: ${issues(parsed.error)}` };
    }
    return refuse(
      id,
      RPC.INVALID_REQUEST,
      'Invalid request: no "method" (a request needs "method"; a response has "result" or "error", not both)',
    );
  }
  if (typeof m.method !== "string" || !m.method) {
    return refuse(
      id,
      RPC.INVALID_REQUEST,
      `Invalid request: "method" must be a non-empty string, not ${typeName(m.method)}`,
    );
  }
  if ("result" in m || "error" in m) {
    return refuse(id, RPC.INVALID_REQUEST, 'Invalid request: "method" with "result" or "error"');
  }
  if ("params" in m && (!m.params || typeof m.params !== "object")) {
    return refuse(
      id,
      RPC.INVALID_REQUEST,
      `Invalid request: "params" must be an object, not ${typeName(m.params)}`,
    );
  }
  if (Array.isArray(m.params)) {
    const message =
      `Invalid params: ${m.method} takes named params (an object), not an array (MCP has no positional params)`;
    return hasId
      ? refuse(id, RPC.INVALID_PARAMS, message)
      : { ok: false, reply: undefined, reason: message };
  }
  if (deeperThan(m.params, MAX_DEPTH)) {
    const message =
      `Invalid params: ${m.method}'s params nest deeper than ${MAX_DEPTH} levels of objects and arrays`;
    return hasId
      ? refuse(id, RPC.INVALID_PARAMS, message)
      : { ok: false, reply: undefined, reason: message };
  }
  const extra = Object.keys(m).filter((k) => !["jsonrpc", "id", "method", "params"].includes(k));
  if (extra.length) {
    return refuse(
      id,
      RPC.INVALID_REQUEST,
      `Invalid request: unknown member ${extra.map((k) => JSON.stringify(k)).join(", ")} ` +
        `(a request has only jsonrpc, id, method, params)`,
    );
  }
  const schema = hasId ? SERVED[m.method] : undefined;
  if (schema && m.params && "task" in (m.params as object)) {
    // The SDK would answer -32603 for what is the client's mistake.
    return refuse(
      id,
      RPC.INVALID_PARAMS,
      `Invalid params for ${m.method}: "task": browxai does not run requests as tasks ` +
        "(it declares no tasks capability); send the request without params.task",
    );
  }
  if (schema) {
    const parsed = schema.safeParse({ method: m.method, params: m.params });
    if (!parsed.success) {
      return refuse(
        id,
        RPC.INVALID_PARAMS,
        `Invalid params for ${m.method}: ${issues(parsed.error)}`,
      );
    }
  }
  const parsed = JSONRPCMessageSchema.safeParse(m);
  if (!parsed.success) {
    return refuse(id, RPC.INVALID_REQUEST, `Invalid request: ${issues(parsed.error)}`);
  }
  return { ok: true, message: parsed.data as JSONRPCMessage };
}

/** What the gate made of a whole body (one message or a batch). */
export interface CheckedBody {
  /** Messages for the SDK, in order. */
  messages: JSONRPCMessage[];
  /** Error replies for the refused messages, in order. */
  replies: ErrorReply[];
  /** Why messages were refused (for the log), one line each. */
  reasons: string[];
  /** True when the body was a JSON array. */
  batch: boolean;
}

/**
 * Checks a parsed body: one message, or a batch (a JSON array) of at most
 * {@link MAX_BATCH}. Each member of a batch is checked on its own; an empty
 * or oversized batch is one -32600 with id null.
 */
export function checkBody(raw: unknown): CheckedBody {
  const out: CheckedBody = { messages: [], replies: [], reasons: [], batch: Array.isArray(raw) };
  if (Array.isArray(raw) && (raw.length === 0 || raw.length > MAX_BATCH)) {
    const message = raw.length === 0
      ? "Invalid request: an empty batch"
      : `Invalid request: a batch of ${raw.length} messages; at most ${MAX_BATCH}`;
    out.replies.push(errorReply(null, RPC.INVALID_REQUEST, message));
    out.reasons.push(message);
    return out;
  }
  for (const one of Array.isArray(raw) ? raw : [raw]) {
    const c = checkMessage(one);
    if (c.ok) out.messages.push(c.message);
    else {
      if (c.reply) out.replies.push(c.reply);
      out.reasons.push(c.reason);
    }
  }
  return out;
}

/** The reply to text that is not JSON. */
export function parseErrorReply(detail: string): ErrorReply {
  return errorReply(
    null,
    RPC.PARSE_ERROR,
    `Parse error: the message is not valid JSON (${detail})`,
  );
}
