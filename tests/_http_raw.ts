/**
 * Raw HTTP for the `--http` wire tests: POSTs to /mcp as a client sends them, a handshake, the
 * JSON-RPC messages of a response (JSON or SSE), a raw request head.
 *
 * @module
 */
import { assertEquals } from "./_assert.ts";
import { initializeRequest, type Wire } from "./_wire.ts";

export const ACCEPT = "application/json, text/event-stream";

/** The JSON-RPC messages of a response: a JSON body or the `data:` lines of an SSE stream. */
export async function messagesOf(res: Response): Promise<Wire[]> {
  const text = await res.text();
  if (!text) return [];
  if (res.headers.get("content-type")?.includes("text/event-stream")) {
    return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** POSTs raw text to /mcp (with a session when given). */
export function post(url: string, text: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: text,
  });
}

/** Initializes a client over raw HTTP; returns its session id. */
export async function initialize(
  url: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await post(url, JSON.stringify(initializeRequest(1)), headers);
  const id = res.headers.get("mcp-session-id");
  await res.body?.cancel();
  assertEquals(res.status, 200, `initialize: HTTP ${res.status}`);
  return id!;
}

/** Completes a handshake: the session is then established (not an abandoned initialize). */
export async function establish(
  url: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const session = await initialize(url, headers);
  const res = await post(
    url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    { ...headers, "mcp-session-id": session },
  );
  await res.body?.cancel();
  assertEquals(res.status, 202);
  return session;
}

/** The port of a server URL. */
export const portOf = (url: string) => Number(new URL(url).port);

/** A raw POST head for /mcp. */
export function head(port: number, extra: Record<string, string>): Uint8Array {
  const lines = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    `Accept: ${ACCEPT}`,
    "Mcp-Protocol-Version: 2025-06-18",
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
  ];
  return new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
}
