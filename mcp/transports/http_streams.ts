/**
 * Ends the SSE stream of a POST whose requests were cancelled. The MCP SDK's Streamable HTTP
 * transport closes a POST's response stream once every request of the POST has its answer;
 * a request the client cancels (`notifications/cancelled`) gets none (MCP: a cancelled request
 * is not answered), so without this its stream stayed open for as long as the client kept the
 * connection: one idle response per cancelled call, on the server and on the client.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

type RequestId = string | number;

/** The id of a message that has one (a request or an answer), else undefined. */
function idOf(message: object): RequestId | undefined {
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** The requests of one POST: they share its response stream. */
interface Post {
  /** Every request id of the POST. */
  ids: RequestId[];
  /** Ids neither answered nor cancelled yet. */
  open: Set<RequestId>;
  /** True once one of them was cancelled (the SDK will not end the stream by itself). */
  cancelled: boolean;
}

/**
 * The SDK's (1.32.2) per-request bookkeeping: a POST's entries stay until all of its requests
 * are answered, which a cancelled one never is. Read defensively: absent fields are skipped.
 */
interface SdkMaps {
  _requestToStreamMapping?: unknown;
  _requestResponseMap?: unknown;
}

/**
 * Hooks `transport` (after `server.connect(transport)`, which installs the SDK's handlers):
 * once every request of a POST was answered or cancelled and at least one was cancelled, its
 * response stream ends (`closeSSEStream`) and the SDK's entries for those requests go. A
 * cancelled request's stream ends right after the SDK aborted its handler (the next macrotask:
 * the SDK sends nothing for an aborted request from then on).
 */
export function endCancelledStreams(transport: WebStandardStreamableHTTPServerTransport): void {
  // One POST = one `requestInfo` object: the SDK makes one per POST and hands it with each of
  // the POST's messages.
  const posts = new WeakMap<object, Post>();
  const byId = new Map<RequestId, Post>();

  const end = (post: Post) => {
    const maps = transport as unknown as SdkMaps;
    const streams = maps._requestToStreamMapping instanceof Map
      ? maps._requestToStreamMapping as Map<RequestId, string>
      : undefined;
    const stream = streams?.get(post.ids[0]!);
    transport.closeSSEStream(post.ids[0]!);
    if (!streams || stream === undefined) return;
    const answers = maps._requestResponseMap instanceof Map
      ? maps._requestResponseMap as Map<RequestId, unknown>
      : undefined;
    for (const id of post.ids) {
      // Only this POST's entries: a later POST may reuse an id.
      if (streams.get(id) !== stream) continue;
      streams.delete(id);
      answers?.delete(id);
    }
  };

  const settle = (id: RequestId, cancelled: boolean) => {
    const post = byId.get(id);
    if (!post) return;
    byId.delete(id);
    post.open.delete(id);
    post.cancelled ||= cancelled;
    if (post.open.size || !post.cancelled) return;
    // After the SDK's cancel handler ran (a microtask away): it aborted the request, so no
    // answer can race the close.
    setTimeout(() => end(post), 0);
  };

  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const info = extra?.requestInfo;
    // Cheap shape checks (the SDK validated the message already): a request has a method and
    // an id, an answer an id and no method.
    const id = idOf(message);
    if (id !== undefined && "method" in message && info) {
      let post = posts.get(info);
      if (!post) posts.set(info, post = { ids: [], open: new Set(), cancelled: false });
      post.ids.push(id);
      post.open.add(id);
      byId.set(id, post);
    }
    onmessage?.(message, extra);
    if ("method" in message && message.method === "notifications/cancelled" && id === undefined) {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === "string" || typeof cancelled === "number") settle(cancelled, true);
    }
  };

  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      const id = idOf(message);
      if (id !== undefined && !("method" in message)) settle(id, false);
    }
  };
}
