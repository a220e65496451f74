/**
 * The HTTP face of JSON-RPC for `/mcp` and `/messages`: error responses, and the reader that
 * turns a POST body into checked messages (or the response refusing it).
 *
 * @module
 */
import { type ByteBudget, readBody } from "./http_body.ts";
import { checkBody, type ErrorReply, errorReply, parseErrorReply, RPC } from "./jsonrpc_gate.ts";

/** A JSON-RPC error (code -32000, id null) as an HTTP response with `status`. */
export function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

/**
 * JSON-RPC error replies as an HTTP response: 200 when every reply names its
 * request (a client matches it by id), 400 when one cannot (id null).
 */
export function rpcErrors(replies: ErrorReply[], batch: boolean, status?: number): Response {
  status ??= replies.every((r) => r.id !== null) ? 200 : 400;
  return new Response(JSON.stringify(batch ? replies : replies[0]), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * The reader of POST bodies for one server: reads a body (at most `maxBytes`, within
 * `bodyTimeoutMs`, from the server-wide `budget`) and checks it as JSON-RPC. Resolves the
 * messages for the SDK (one, or a batch), or the response that refuses the body: an HTTP
 * error (too large, too slow), or JSON-RPC error replies (parse error, invalid members).
 */
export function messageReader(
  budget: ByteBudget,
  bodyTimeoutMs: number,
): (req: Request, maxBytes: number) => Promise<{ body: unknown; batch: boolean } | Response> {
  return async (req, maxBytes) => {
    const read = await readBody(req, { maxBytes, timeoutMs: bodyTimeoutMs, budget });
    if (!read.ok) return jsonError(read.status, read.message, { connection: "close" });
    let raw: unknown;
    try {
      raw = JSON.parse(new TextDecoder().decode(read.bytes));
    } catch (e) {
      return rpcErrors([parseErrorReply((e as Error).message)], false);
    } finally {
      read.release();
    }
    const checked = checkBody(raw);
    if (checked.replies.length || (!checked.messages.length && checked.reasons.length)) {
      // One HTTP response per POST: a batch with a refused member is refused whole.
      const notRun = checked.messages.flatMap((m) =>
        "method" in m && "id" in m
          ? [errorReply(
            m.id,
            RPC.INVALID_REQUEST,
            "Not run: another message of this batch was refused; fix it and send the batch again",
          )]
          : []
      );
      const replies = [...checked.replies, ...notRun];
      if (!replies.length) return new Response(null, { status: 202 });
      return rpcErrors(replies, checked.batch);
    }
    return { body: checked.batch ? checked.messages : checked.messages[0], batch: checked.batch };
  };
}
