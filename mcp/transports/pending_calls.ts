/**
 * The requests an MCP transport has taken and not yet answered, so that a client closed while
 * calls run (`DELETE /mcp`, idle expiry, the server stopping) gets an error for each instead of
 * a stream that ends with no answer (the SDK's client then waits its request timeout, 60 s).
 */
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** JSON-RPC code for "the connection closed" (the SDK's `ErrorCode.ConnectionClosed`). */
const CONNECTION_CLOSED = -32000;

/** Requests of one transport still waiting for their answers. */
export interface PendingCalls {
  /** Ids of requests taken and not yet answered. */
  readonly size: number;
  /**
   * Answers every unanswered request with a JSON-RPC error carrying `message`; send failures
   * are ignored (the client may be gone). Call before closing the transport.
   */
  answerAll(message: string): Promise<void>;
}

type Id = string | number;

/**
 * Watches `transport` (after `server.connect(transport)` set its `onmessage`): requests coming
 * in are recorded, answers going out (results and errors) strike them off.
 */
export function trackPendingCalls(transport: Transport): PendingCalls {
  const pending = new Set<Id>();
  const onmessage = transport.onmessage;
  if (onmessage) {
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; id?: Id };
      if (typeof m.method === "string" && m.id !== undefined && m.id !== null) pending.add(m.id);
      onmessage.call(transport, message, extra);
    };
  }
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: unknown; id?: Id };
    if (m.method === undefined && m.id !== undefined) pending.delete(m.id);
    return send(message, options);
  };
  return {
    get size() {
      return pending.size;
    },
    async answerAll(message) {
      const ids = [...pending];
      pending.clear();
      await Promise.all(ids.map((id) =>
        send(
          {
            jsonrpc: "2.0",
            id,
            error: { code: CONNECTION_CLOSED, message },
          } as JSONRPCMessage,
          { relatedRequestId: id },
        ).catch(() => {})
      ));
    },
  };
}
