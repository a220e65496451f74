/**
 * Malformed JSON-RPC messages and the answer each must get, the same over
 * stdio and over HTTP: every request with an id gets an error with that id;
 * what has no readable id gets one with id null; notifications and
 * responses get nothing. Never -32603 (internal error) for a client's
 * mistake.
 *
 * @module
 */

/** One case: the raw text sent, and the reply expected (`none`: no reply at all). */
export interface MalformedCase {
  name: string;
  text: string;
  expect: { id: string | number | null; code: number } | "none";
}

const rpc = (body: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...body });

/** The table. Ids are unique, so replies can be matched to cases. */
export const MALFORMED: MalformedCase[] = [
  { name: "not JSON", text: "not json", expect: { id: null, code: -32700 } },
  {
    name: "truncated JSON",
    text: '{"jsonrpc":"2.0","id":1,"method":"ping"',
    expect: { id: null, code: -32700 },
  },
  { name: "a number", text: "42", expect: { id: null, code: -32600 } },
  { name: "a string", text: '"ping"', expect: { id: null, code: -32600 } },
  { name: "null", text: "null", expect: { id: null, code: -32600 } },
  {
    // Replies echo the id: a megabyte id would be held for every reply a client does not read.
    name: "an id of 2000 characters",
    text: rpc({ id: "i".repeat(2000), method: "ping" }),
    expect: { id: null, code: -32600 },
  },
  { name: "an empty batch", text: "[]", expect: { id: null, code: -32600 } },
  {
    name: "missing jsonrpc",
    text: '{"id":10,"method":"ping"}',
    expect: { id: 10, code: -32600 },
  },
  {
    name: "jsonrpc 1.0",
    text: '{"jsonrpc":"1.0","id":11,"method":"ping"}',
    expect: { id: 11, code: -32600 },
  },
  {
    name: "jsonrpc a number",
    text: '{"jsonrpc":2,"id":12,"method":"ping"}',
    expect: { id: 12, code: -32600 },
  },
  { name: "method a number", text: rpc({ id: 13, method: 42 }), expect: { id: 13, code: -32600 } },
  { name: "no method", text: rpc({ id: 14 }), expect: { id: 14, code: -32600 } },
  {
    name: "params a string",
    text: rpc({ id: 15, method: "ping", params: "x" }),
    expect: { id: 15, code: -32600 },
  },
  {
    name: "params an array",
    text: rpc({ id: 16, method: "ping", params: [1] }),
    expect: { id: 16, code: -32602 },
  },
  { name: "id true", text: rpc({ id: true, method: "ping" }), expect: { id: null, code: -32600 } },
  { name: "id 1.5", text: rpc({ id: 1.5, method: "ping" }), expect: { id: null, code: -32600 } },
  { name: "id null", text: rpc({ id: null, method: "ping" }), expect: { id: null, code: -32600 } },
  {
    name: "id an object",
    text: rpc({ id: { a: 1 }, method: "ping" }),
    expect: { id: null, code: -32600 },
  },
  {
    name: "unknown method",
    text: rpc({ id: 17, method: "no/such" }),
    expect: { id: 17, code: -32601 },
  },
  {
    name: "unknown method, string id",
    text: rpc({ id: "s-25", method: "no/such" }),
    expect: { id: "s-25", code: -32601 },
  },
  {
    name: "tools/call without params",
    text: rpc({ id: 18, method: "tools/call" }),
    expect: { id: 18, code: -32602 },
  },
  {
    name: "tools/call without name",
    text: rpc({ id: 19, method: "tools/call", params: { arguments: {} } }),
    expect: { id: 19, code: -32602 },
  },
  {
    name: "tools/call with arguments a string",
    text: rpc({ id: 20, method: "tools/call", params: { name: "list_sessions", arguments: "x" } }),
    expect: { id: 20, code: -32602 },
  },
  {
    name: "tools/call with name a number",
    text: rpc({ id: 26, method: "tools/call", params: { name: 7 } }),
    expect: { id: 26, code: -32602 },
  },
  {
    name: "tools/list with a numeric cursor",
    text: rpc({ id: 21, method: "tools/list", params: { cursor: 5 } }),
    expect: { id: 21, code: -32602 },
  },
  {
    name: "initialize without its params",
    text: rpc({ id: 22, method: "initialize", params: {} }),
    expect: { id: 22, code: -32602 },
  },
  {
    name: "tools/call as a task (no tasks capability)",
    text: rpc({ id: 27, method: "tools/call", params: { name: "list_sessions", task: {} } }),
    expect: { id: 27, code: -32602 },
  },
  {
    name: "a progress token of the wrong type",
    text: rpc({ id: 28, method: "tools/list", params: { _meta: { progressToken: {} } } }),
    expect: { id: 28, code: -32602 },
  },
  {
    name: "arguments nested 100,000 deep",
    text: rpc({ id: 29, method: "tools/call", params: { name: "list_sessions", arguments: {} } })
      .replace('"arguments":{}', `"arguments":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`),
    expect: { id: 29, code: -32602 },
  },
  {
    name: "an unknown member",
    text: rpc({ id: 23, method: "ping", extra: true }),
    expect: { id: 23, code: -32600 },
  },
  {
    name: "method and result",
    text: rpc({ id: 24, method: "ping", result: {} }),
    expect: { id: 24, code: -32600 },
  },
  {
    name: "a notification with array params",
    text: rpc({ method: "notifications/cancelled", params: [1] }),
    expect: "none",
  },
  {
    name: "an unknown notification",
    text: rpc({ method: "notifications/whatever" }),
    expect: "none",
  },
  {
    name: "a cancel notification with a bad requestId",
    text: rpc({ method: "notifications/cancelled", params: { requestId: {} } }),
    expect: "none",
  },
  { name: "a response nobody asked for", text: rpc({ id: 999, result: {} }), expect: "none" },
];
